import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Db } from './client';

/**
 * The live SQL functions, one file each (`functions/<name>.sql`, a single `CREATE OR REPLACE FUNCTION`):
 * the file is the function's one source, so a change to it is a diff of that file rather than a copy
 * of the whole body in a new migration. Migrations still create and drop what needs a schema change
 * (a new argument list is a new function: the old one is dropped by a migration).
 */

/** Where the function files live (the source tree; the built server reads the same folder, as it does the migrations). */
export function functionsFolder(): string {
  return process.env.FUNCTIONS_DIR ?? resolve(process.cwd(), 'src/server/db/functions');
}

export interface SqlFunctionFile {
  /** the function's name: the file's name without `.sql` */
  name: string;
  /** the whole file: one CREATE OR REPLACE FUNCTION statement (comments before it allowed) */
  text: string;
  /** the body between `AS $$` and `$$`, which PostgreSQL keeps as `pg_proc.prosrc` */
  body: string;
}

/** Every function file, by name. */
export function sqlFunctionFiles(folder = functionsFolder()): SqlFunctionFile[] {
  return readdirSync(folder)
    .filter((f) => f.endsWith('.sql'))
    .sort()
    .map((f) => {
      const text = readFileSync(join(folder, f), 'utf8');
      const body = /\bAS \$\$([\s\S]*)\$\$;\s*$/.exec(text)?.[1];
      if (!/^\s*CREATE OR REPLACE FUNCTION /m.test(text) || body === undefined)
        throw new Error(`${f}: expected one CREATE OR REPLACE FUNCTION ... AS $$ ... $$;`);
      return { name: basename(f, '.sql'), text, body };
    });
}

/** Applies every function file (idempotent: CREATE OR REPLACE); run after the migrations, under their lock. */
export async function applySqlFunctions(db: Db, folder = functionsFolder()): Promise<void> {
  for (const f of sqlFunctionFiles(folder)) await db.execute(sql.raw(f.text));
}
