import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/server/db/client';
import { usePostgres } from '../support/harness';

/**
 * Start-up together: servers started at the same moment on a new PostgreSQL database (a
 * deploy, a scale-up) all come up; the migrations run once, under one lock. Each server opens its
 * own connection pool, as separate processes do. PGlite is one process's own database: nothing to race.
 */
describe.runIf(usePostgres)('servers starting together on an empty PostgreSQL database', () => {
  it('all four migrate and come up; every migration ran once', { timeout: 120_000 }, async () => {
    const { default: postgres } = await import('postgres');
    const admin = postgres(process.env.TEST_DATABASE_URL!, { max: 1, onnotice: () => {} });
    const name = `t_start_${randomBytes(5).toString('hex')}`;
    await admin.unsafe(`create database ${name}`);
    const url = Object.assign(new URL(process.env.TEST_DATABASE_URL!), { pathname: `/${name}` }).toString();
    try {
      const opened = await Promise.allSettled(Array.from({ length: 4 }, () => openDatabase({ url, max: 2 })));
      const failures = opened.flatMap((o) => (o.status === 'rejected' ? [String((o.reason as Error)?.message ?? o.reason)] : []));
      for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
      expect(failures).toEqual([]);
      const check = await openDatabase({ url, max: 1 });
      try {
        const r = await check.db.execute(sql`select count(*)::int as n, count(distinct hash)::int as d from drizzle.__drizzle_migrations`);
        const [row] = (Array.isArray(r) ? r : (r as { rows: unknown[] }).rows) as Array<{ n: number; d: number }>;
        expect(row!.n).toBe(row!.d);
        expect(row!.n).toBeGreaterThan(10);
      } finally {
        await check.close();
      }
    } finally {
      await admin.unsafe(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
