import type { InferSelectModel } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import type { goods } from '../db/schema/index';
import { translate, type Locale } from '../i18n';
import { loc } from './catalog';

type GoodsRow = InferSelectModel<typeof goods>;

/** Why goods cannot be bought now, or null (spec §3 "isUable, message"). */
export function goodsRefusal(g: Pick<GoodsRow, 'onShelf' | 'stock'>) {
  if (!g.onShelf) return Errors.goodsOffShelf;
  if (g.stock !== null && g.stock <= 0) return Errors.goodsSoldOut;
  return null;
}

/**
 * Goods as the app sees them. Visitors get the list price only: the member price field is absent
 * (spec §1 "discounts are visible only after login"), not null, so nothing leaks by shape.
 */
export function goodsOut(g: GoodsRow, locale: Locale, member: boolean) {
  const refusal = goodsRefusal(g);
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

/** The detail adds the description. */
export function goodsDetailOut(g: GoodsRow, locale: Locale, member: boolean) {
  return { ...goodsOut(g, locale, member), description: loc(locale, g.description, g.descriptionEn) };
}
