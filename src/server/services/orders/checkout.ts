import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { couponRefusal, couponStatesAllowing } from '../../../../machines/domain/coupon-transitions';
import { AWAITING_MONEY_STATES, BOUGHT_STATES } from '../../../../machines/domain/order-transitions';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import { couponDeduction, priceOrder, type PriceQuote } from '../../../domain/pricing';
import type { Db, Tx } from '../../db/client';
import { activities, goods, goodsPhases, goodsTeachers, memberCards, memberCoupons, orders } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';

/**
 * What checkout decides before an order exists, shared by the price quote and order creation so
 * both refuse and price alike: the goods rules (spec §8 goods), the phase or teacher choice (spec §5),
 * the coupon and the balance (spec §3), in integer cents (src/domain/pricing.ts).
 */

export type GoodsRow = typeof goods.$inferSelect;
export type PhaseRow = typeof goodsPhases.$inferSelect;
export type CouponRow = typeof memberCoupons.$inferSelect;

export interface CheckoutInput {
  goodsId?: number | undefined;
  phaseId?: number | undefined;
  teacherId?: number | undefined;
  couponId?: number | undefined;
  useBalance?: boolean | undefined;
  /** the amount to pay the member was shown (the quote); a different server price refuses with 40010 */
  expectedAmountToPayCents?: number | undefined;
}

export interface Checkout {
  goods: GoodsRow;
  phase: PhaseRow | null;
  teacherId: number | null;
  coupon: CouponRow | null;
  quote: PriceQuote;
}

/** Never bought anything and holds no card. */
async function isNewCustomer(tx: Db | Tx, accountId: number): Promise<boolean> {
  const [o] = await tx
    .select({ n: count() })
    .from(orders)
    .where(and(eq(orders.accountId, accountId), inArray(orders.state, BOUGHT_STATES)));
  const [c] = await tx.select({ n: count() }).from(memberCards).where(eq(memberCards.accountId, accountId));
  return (o?.n ?? 0) === 0 && (c?.n ?? 0) === 0;
}

/** Goods sold through a flash-sale activity answer "sold out" (too slow); others "out of stock". */
async function exhausted(tx: Db | Tx, goodsId: number) {
  const [a] = await tx.select({ n: count() }).from(activities).where(eq(activities.goodsId, goodsId));
  return (a?.n ?? 0) > 0 ? Errors.goodsSoldOut : Errors.goodsOutOfStock;
}

/** The orders that count against a per-person limit: being paid for, or bought and not given back. */
const HOLDING_STATES = [...AWAITING_MONEY_STATES, ...BOUGHT_STATES];

/** The buying rules of spec §8 goods for this member, in the order a member meets them. */
export async function checkGoods(tx: Db | Tx, accountId: number, g: GoodsRow): Promise<void> {
  if (!g.onShelf) throw new ApiError(Errors.goodsOffShelf);
  if (g.stock !== null && g.stock <= 0) throw new ApiError(await exhausted(tx, g.id));
  if (g.newCustomersOnly && !(await isNewCustomer(tx, accountId))) throw new ApiError(Errors.goodsNewCustomersOnly);
  if (g.perPersonLimit !== null) {
    // what the member holds or is buying: a cancelled order never held it, a refunded one gave it back
    const [bought] = await tx
      .select({ n: count() })
      .from(orders)
      .where(and(eq(orders.accountId, accountId), eq(orders.goodsId, g.id), inArray(orders.state, HOLDING_STATES)));
    if ((bought?.n ?? 0) >= g.perPersonLimit) throw new ApiError(Errors.goodsLimitPerPerson);
  }
}

/** The phase (training with phases) or teacher (private class with teachers) the goods need. */
export async function checkChoice(
  tx: Db | Tx,
  g: GoodsRow,
  input: CheckoutInput,
  now: Date,
): Promise<{ phase: PhaseRow | null; teacherId: number | null }> {
  const phases = await tx
    .select()
    .from(goodsPhases)
    .where(eq(goodsPhases.goodsId, g.id))
    .orderBy(asc(goodsPhases.sort), asc(goodsPhases.id));
  let phase: PhaseRow | null = null;
  if (phases.length > 0) {
    phase = phases.find((p) => p.id === input.phaseId) ?? null;
    if (!phase || !phaseOpen(phase, now)) throw new ApiError(Errors.goodsPhaseRequired, { field: 'phaseId' });
  }
  const teachers = await tx.select({ teacherId: goodsTeachers.teacherId }).from(goodsTeachers).where(eq(goodsTeachers.goodsId, g.id));
  let teacherId: number | null = null;
  if (teachers.length > 0) {
    if (!teachers.some((t) => t.teacherId === input.teacherId)) throw new ApiError(Errors.goodsTeacherRequired, { field: 'teacherId' });
    teacherId = input.teacherId!;
  } else if (g.kind === 'private' && g.teacherId !== null) {
    teacherId = g.teacherId;
  }
  return { phase, teacherId };
}

/** A phase can be chosen until it starts. */
export function phaseOpen(p: Pick<PhaseRow, 'startsAt'>, now: Date): boolean {
  return p.startsAt === null || p.startsAt.getTime() > now.getTime();
}

/** The member's coupon for this price (locked when the order is being created), or a refusal. */
async function checkCoupon(
  tx: Db | Tx,
  accountId: number,
  couponId: number,
  g: GoodsRow,
  priceCents: number,
  now: Date,
  lock: boolean,
): Promise<CouponRow> {
  const q = tx
    .select()
    .from(memberCoupons)
    .where(and(eq(memberCoupons.id, couponId), eq(memberCoupons.accountId, accountId)));
  const [c] = lock ? await q.for('update') : await q;
  if (!c) throw new ApiError(Errors.couponNotUsable, { field: 'couponId' });
  const why = couponRefusal(c, g.kind, priceCents, now);
  if (why) throw new ApiError(Errors[why], { field: 'couponId' });
  return c;
}

/**
 * Prices a checkout on the server: the goods (locked FOR UPDATE when `lock`), the rules, the
 * choice, the member price (the phase's when it has one), the coupon, then the balance.
 */
export async function priceCheckout(
  tx: Db | Tx,
  clock: Clock,
  accountId: number,
  input: CheckoutInput,
  balanceCents: number,
  opts: { lock: boolean },
): Promise<Checkout> {
  if (!input.goodsId) throw new ApiError(Errors.goodsNotChosen, { field: 'goodsId' });
  const now = clock.now();
  const q = tx.select().from(goods).where(eq(goods.id, input.goodsId));
  const [g] = opts.lock ? await q.for('update') : await q;
  if (!g) throw new ApiError(Errors.notFound, { field: 'goodsId' });
  await checkGoods(tx, accountId, g);
  const { phase, teacherId } = await checkChoice(tx, g, input, now);
  const listPriceCents = phase?.listPriceCents ?? g.listPriceCents;
  const memberPriceCents = phase?.memberPriceCents ?? g.memberPriceCents;
  // a logged-in buyer is a member: the member price (spec §1: member discounts after login)
  const coupon = input.couponId ? await checkCoupon(tx, accountId, input.couponId, g, memberPriceCents, now, opts.lock) : null;
  const quote = priceOrder({
    listPriceCents,
    memberPriceCents,
    member: true,
    couponDeductionCents: coupon ? couponDeduction(coupon, memberPriceCents) : 0,
    useBalance: input.useBalance ?? false,
    balanceCents,
  });
  return { goods: g, phase, teacherId, coupon, quote };
}

/** My coupons that could apply to goods of `kind` at `priceCents`, each with its deduction or why not. */
export async function couponsFor(db: Db | Tx, accountId: number, g: GoodsRow, priceCents: number, now: Date) {
  const rows = await db
    .select()
    .from(memberCoupons)
    .where(and(eq(memberCoupons.accountId, accountId), inArray(memberCoupons.state, couponStatesAllowing('coupon.use'))))
    .orderBy(asc(memberCoupons.validUntil), asc(memberCoupons.id));
  return rows
    .map((c) => {
      const why = couponRefusal(c, g.kind, priceCents, now);
      return { coupon: c, refusal: why, deductionCents: why ? 0 : couponDeduction(c, priceCents) };
    })
    .filter((x) => x.refusal !== 'couponNotUsable');
}
