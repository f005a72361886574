import { eq } from 'drizzle-orm';
import type { Database } from '../../../src/server/db/client';
import { flashSales } from '../../../src/server/db/schema/index';

export async function saleRowIn(database: Database, id: number) {
  const [row] = await database.db.select().from(flashSales).where(eq(flashSales.id, id));
  return row!;
}
