import type { SQL } from 'drizzle-orm';
import type { PgDialect, PgSession } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client';

/*
 * Statements kept prepared (decision 048, "Statements kept prepared"). drizzle runs a statement
 * unprepared unless it is given a name, and postgres.js then sends an unprepared statement's Parse and
 * Describe first and waits for the parameters' types before it binds them: two round trips a
 * statement, each waiting for the event loop's turn on a busy server. Prepared, a statement is parsed
 * and described once per connection, and after that bound and run in one round trip.
 * For the hot paths' statements whose text never varies: a list goes in as one array parameter, never
 * as `in ($1, $2, …)`, so a connection keeps one prepared statement per statement, not one per length.
 * A query builder's statement outside a transaction is prepared once per database with drizzle's
 * `.prepare` (`perDatabase(db => ….prepare(name))`); raw SQL, or a statement inside a transaction,
 * runs through `executePrepared`.
 */

/** `db.execute(query)`, prepared on its connection (inside a transaction too). */
export function executePrepared(db: Db | Tx, query: SQL): Promise<unknown> {
  // drizzle keeps the dialect and the session it runs statements on out of its declared types
  const { dialect, session } = db as unknown as { dialect: PgDialect; session: PgSession };
  return session.prepareQuery(dialect.sqlToQuery(query), undefined, 'prepared', false).execute();
}
