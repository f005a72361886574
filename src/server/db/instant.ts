import { sql } from 'drizzle-orm';

/** An instant compared with an SQL expression: drizzle maps Dates only against a column, so cast it. */
export const instant = (at: Date) => sql`${at.toISOString()}::timestamptz`;
