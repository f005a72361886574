import { eq } from 'drizzle-orm';
import { flashSales, goods } from '../../../src/server/db/schema/index';
import type { TestServer } from '../support/harness';

const HOUR = 3_600_000;

/** A card sold only through a flash sale (no stock of its own); the sale is live for a day unless told. */
export async function newFlashSale(s: TestServer, over: Partial<typeof flashSales.$inferInsert> = {}) {
  const now = s.clock.now();
  const [g] = await s.deps.db
    .insert(goods)
    .values({
      kind: 'card',
      cardType: 'count',
      name: '秒杀次卡',
      image: '/img/card.jpg',
      listPriceCents: 111_100,
      memberPriceCents: 99_900,
      uses: 11,
      validityDays: 120,
      createdAt: now,
    })
    .returning();
  const [sale] = await s.deps.db
    .insert(flashSales)
    .values({
      goodsId: g!.id,
      title: '秒杀',
      titleEn: 'Flash sale',
      startsAt: new Date(now.getTime() - HOUR),
      endsAt: new Date(now.getTime() + 24 * HOUR),
      maxNumber: 30,
      createdAt: now,
      ...over,
    })
    .returning();
  return { goods: g!, sale: sale! };
}

export async function saleRow(s: TestServer, id: number) {
  const [row] = await s.deps.db.select().from(flashSales).where(eq(flashSales.id, id));
  return row!;
}

export const activity = (s: TestServer, id?: number, opts: { token?: string; lang?: string } = {}) =>
  s.call('GET', `/api/product/goods/activity${id === undefined ? '' : `?id=${id}`}`, {
    token: opts.token,
    headers: opts.lang ? { cookie: `lang=${opts.lang}` } : {},
  });
