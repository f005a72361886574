import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { applySqlFunctions, sqlFunctionFiles } from '../../src/server/db/functions';
import { rowsOf } from '../../src/server/db/rows';
import { startTestServer } from './support/harness';

/**
 * The live SQL functions come from `src/server/db/functions/<name>.sql`: a migrated database holds
 * exactly those functions, each with the file's body, so the file is the one place to read or change one.
 */
describe('SQL functions as source files', async () => {
  const s = await startTestServer();
  const live = async () =>
    rowsOf<{ name: string; body: string }>(
      await s.deps.db.execute(sql`select p.proname as name, p.prosrc as body
        from pg_proc p join pg_namespace n on n.oid = p.pronamespace
       where n.nspname = 'public' and p.prokind = 'f'
         and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
       order by p.proname, p.oid`),
    );
  const files = sqlFunctionFiles();

  it('has one file per live function and one live function per file', async () => {
    expect(files.length).toBeGreaterThan(0);
    expect((await live()).map((f) => f.name)).toEqual(files.map((f) => f.name));
  });

  it("gives every live function its file's body", async () => {
    const bodies = Object.fromEntries((await live()).map((f) => [f.name, f.body]));
    for (const f of files) expect(bodies[f.name], f.name).toBe(f.body);
  });

  it("puts the file's version back over a changed one, and applying again changes nothing", async () => {
    const f = files.find((x) => x.name === 'book_seats')!;
    await s.deps.db.execute(sql.raw(f.text.replace('#variable_conflict use_column', '#variable_conflict use_column\n-- changed by hand')));
    expect((await live()).find((x) => x.name === 'book_seats')!.body).not.toBe(f.body);
    await applySqlFunctions(s.deps.db);
    await applySqlFunctions(s.deps.db);
    expect(await live()).toEqual(files.map((x) => ({ name: x.name, body: x.body })));
  });
});
