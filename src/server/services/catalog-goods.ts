import { asc, eq, inArray, type InferSelectModel } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import type { Db } from '../db/client';
import { activities, clubs, goodsPhases, goodsTeachers, teachers, type goods } from '../db/schema/index';
import { translate, type Locale } from '../i18n';
import { loc } from './catalog';
import { salesOfGoods, withFlashSale } from './flash-sale/flash-sale';
import { phaseOpen } from './orders/checkout';

type GoodsRow = InferSelectModel<typeof goods>;

/**
 * Why goods cannot be bought now, or null (spec §3 "isUable, message"). Exhausted stock reads "sold
 * out, too slow" for flash-sale goods (sold through an activity) and "out of stock" otherwise, as
 * checkout refuses them (services/orders/checkout.ts).
 */
export function goodsRefusal(g: Pick<GoodsRow, 'onShelf' | 'stock'>, flashSale = true) {
  if (!g.onShelf) return Errors.goodsOffShelf;
  if (g.stock !== null && g.stock <= 0) return flashSale ? Errors.goodsSoldOut : Errors.goodsOutOfStock;
  return null;
}

/** Which of these goods are sold through an activity (a flash sale). */
export async function flashSaleGoods(db: Db, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: activities.goodsId })
    .from(activities)
    .where(inArray(activities.goodsId, [...ids]));
  return new Set(rows.map((r) => r.id).filter((id): id is number => id !== null));
}

/**
 * Goods as the app sees them. Visitors get the list price only: the member price field is absent
 * (spec §1 "discounts are visible only after login"), not null, so nothing leaks by shape.
 */
export function goodsOut(g: GoodsRow, locale: Locale, member: boolean, flashSale = true) {
  const refusal = goodsRefusal(g, flashSale);
  return {
    id: g.id,
    kind: g.kind,
    cardType: g.cardType,
    name: loc(locale, g.name, g.nameEn),
    image: g.image,
    listPriceCents: g.listPriceCents,
    ...(member ? { memberPriceCents: g.memberPriceCents } : {}),
    stock: g.stock,
    sellNumber: g.sold,
    maxNumber: g.stock === null ? null : g.stock + g.sold,
    onShelf: g.onShelf,
    uses: g.uses,
    validityDays: g.validityDays,
    clubId: g.clubId,
    teacherId: g.teacherId,
    startsAt: g.startsAt?.toISOString() ?? null,
    endsAt: g.endsAt?.toISOString() ?? null,
    newCustomersOnly: g.newCustomersOnly,
    perPersonLimit: g.perPersonLimit,
    isUable: refusal === null,
    message: refusal ? translate(locale, refusal.message) : null,
  };
}

/** The detail adds the description, and the phases or teachers a buyer chooses from (spec §5). */
export async function goodsDetailOut(db: Db, g: GoodsRow, locale: Locale, member: boolean, now: Date) {
  const phases = await db
    .select()
    .from(goodsPhases)
    .where(eq(goodsPhases.goodsId, g.id))
    .orderBy(asc(goodsPhases.sort), asc(goodsPhases.id));
  const teachersRows = await db
    .select({
      id: teachers.id,
      name: teachers.name,
      nameEn: teachers.nameEn,
      photo: teachers.photo,
      clubName: clubs.name,
      clubNameEn: clubs.nameEn,
    })
    .from(goodsTeachers)
    .innerJoin(teachers, eq(teachers.id, goodsTeachers.teacherId))
    .leftJoin(clubs, eq(clubs.id, teachers.clubId))
    .where(eq(goodsTeachers.goodsId, g.id))
    .orderBy(asc(goodsTeachers.sort), asc(teachers.id));
  const flash = await flashSaleGoods(db, [g.id]);
  const sale = (await salesOfGoods(db, [g.id])).get(g.id);
  return {
    ...withFlashSale(goodsOut(g, locale, member, flash.has(g.id)), sale, now, locale),
    description: loc(locale, g.description, g.descriptionEn),
    phases: phases.map((p) => {
      const open = phaseOpen(p, now);
      return {
        id: p.id,
        name: loc(locale, p.name, p.nameEn),
        startsAt: p.startsAt?.toISOString() ?? null,
        endsAt: p.endsAt?.toISOString() ?? null,
        ...(p.listPriceCents !== null ? { listPriceCents: p.listPriceCents } : {}),
        ...(member && p.memberPriceCents !== null ? { memberPriceCents: p.memberPriceCents } : {}),
        isUable: open,
        message: open ? null : translate(locale, Errors.goodsPhaseRequired.message),
      };
    }),
    teachers: teachersRows.map((t) => ({
      id: t.id,
      name: loc(locale, t.name, t.nameEn),
      photo: t.photo,
      clubName: t.clubName === null ? null : loc(locale, t.clubName, t.clubNameEn),
    })),
  };
}
