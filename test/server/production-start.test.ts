import { count } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { fixedClock } from '../../src/domain/clock';
import { loadConfig, type Config } from '../../src/server/config';
import { accounts, clubs } from '../../src/server/db/schema/index';
import { memoryLogger } from '../../src/server/logger';
import { DEMO_DATABASE_REFUSED, startServerApp } from '../../src/server/start';
import { TEST_EPOCH, TEST_SCRYPT_N } from '../global-setup';
import { PRODUCTION_ENV } from '../production-env';
import { startableDatabase, startTestServer } from './support/harness';

/** A production configuration (no APP_MODE): every required setting, pointed at the test's database. */
function production(db: Pick<Config, 'databaseUrl' | 'dataDir'>, extra: NodeJS.ProcessEnv = {}): Config {
  const config = loadConfig({ ...PRODUCTION_ENV, ...extra });
  return { ...config, ...db, passwordScryptN: TEST_SCRYPT_N };
}

const start = (config: Config) => startServerApp(config, fixedClock(TEST_EPOCH), memoryLogger(), () => ({}));

/** Every path the app answers, from Hono's route table. */
const paths = (app: { routes: { path: string }[] }) => app.routes.map((r) => r.path);

describe('a production start', () => {
  it('mounts no /api/dev route and no API docs: the route table holds none', async () => {
    const s = await startTestServer({ config: { demo: false, apiDocs: false } });
    expect(paths(s.app).filter((p) => p.startsWith('/api/dev') || p.startsWith('/api/docs'))).toEqual([]);
    expect((await s.call('GET', '/api/dev/sms/13800000001')).status).toBe(404);
    expect((await s.call('GET', '/api/docs')).status).toBe(404);
    // the demo's route table has them, so the walk above can fail
    const demo = await startTestServer({ config: { demo: true, apiDocs: true } });
    expect(paths(demo.app).some((p) => p.startsWith('/api/dev/sms'))).toBe(true);
    expect(paths(demo.app).some((p) => p.startsWith('/api/docs'))).toBe(true);
  });

  it('API_DOCS=1 turns the documentation on in production, still without /api/dev', async () => {
    const s = await startTestServer({ config: { demo: false, apiDocs: true } });
    expect(paths(s.app).some((p) => p.startsWith('/api/docs'))).toBe(true);
    expect(paths(s.app).filter((p) => p.startsWith('/api/dev'))).toEqual([]);
  });

  it('seeds nothing into an empty database: no clubs, no accounts, no built-in staff', async () => {
    const started = await start(production(await startableDatabase({ seeded: false })));
    try {
      expect(started.seeded).toBe(false);
      const [c] = await started.deps.db.select({ n: count() }).from(clubs);
      const [a] = await started.deps.db.select({ n: count() }).from(accounts);
      expect([c!.n, a!.n]).toEqual([0, 0]);
    } finally {
      await started.close();
    }
  });

  it('refuses a database that holds the demo chain, saying how to start clean', async () => {
    await expect(start(production(await startableDatabase({ seeded: true })))).rejects.toThrow(DEMO_DATABASE_REFUSED);
    expect(DEMO_DATABASE_REFUSED).toMatch(/new, empty database.*create-admin/);
  });

  it('the same demo database starts in demo mode (the refusal is production’s, not the data’s)', async () => {
    const db = await startableDatabase({ seeded: true });
    const started = await start({ ...loadConfig({ APP_MODE: 'demo' }), ...db, passwordScryptN: TEST_SCRYPT_N });
    await started.close();
  });
});
