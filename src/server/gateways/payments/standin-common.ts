import { randomInt } from 'node:crypto';
import { and, eq, gt, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Context } from 'hono';
import type { Clock } from '../../../domain/clock';
import type { Db } from '../../db/client';
import { payStandInOrders } from '../../db/schema/index';
import type { FetchLike } from '../sms';

export type StandInOrder = typeof payStandInOrders.$inferSelect;
export type Outcome = 'pay' | 'fail';

/** A provider-style id: a prefix and random digits. */
export const digits = (prefix: string, n: number) => prefix + Array.from({ length: n }, () => randomInt(10)).join('');

/** An instant as Beijing local time with its offset: 2026-11-20T10:00:00+08:00. */
export { beijingIso } from './wechatpay-v3';

/**
 * Settles a stand-in order once: from the waiting state to the outcome's state. Asking again for the
 * same outcome is a re-delivery (the row is returned unchanged); asking for the other outcome, or
 * paying a closed trade, is refused (`conflict`); paying after the merchant's time_expire is `expired`.
 */
export async function settleStandInOrder(
  db: Db,
  clock: Clock,
  id: number,
  states: { waiting: string; paid: string; failed: string },
  outcome: Outcome,
  /** the provider's transaction id for a trade that has none yet (WeChat Pay assigns it when paid) */
  newTxnId?: () => string,
): Promise<StandInOrder | 'conflict' | 'expired'> {
  const target = outcome === 'pay' ? states.paid : states.failed;
  const now = clock.now();
  const [updated] = await db
    .update(payStandInOrders)
    .set({
      state: target,
      paidAt: outcome === 'pay' ? now : null,
      ...(outcome === 'pay' && newTxnId ? { providerTxnId: sql`coalesce(${payStandInOrders.providerTxnId}, ${newTxnId()})` } : {}),
    })
    .where(
      and(
        eq(payStandInOrders.id, id),
        eq(payStandInOrders.state, states.waiting),
        outcome === 'pay' ? or(isNull(payStandInOrders.expiresAt), gt(payStandInOrders.expiresAt, now)) : undefined,
      ),
    )
    .returning();
  if (updated) return updated;
  const [row] = await db.select().from(payStandInOrders).where(eq(payStandInOrders.id, id)).limit(1);
  if (row && row.state === target) return row;
  return row && row.state === states.waiting ? 'expired' : 'conflict';
}

/** Closes a trade (the merchant's close) when its state allows: closed, refused by its state, or unknown. */
export async function closeStandInOrder(
  db: Db,
  id: number,
  closable: string[],
  closedState: string,
): Promise<'closed' | 'not_closable' | 'not_found'> {
  const [updated] = await db
    .update(payStandInOrders)
    .set({ state: closedState })
    .where(and(eq(payStandInOrders.id, id), inArray(payStandInOrders.state, closable)))
    .returning({ id: payStandInOrders.id });
  if (updated) return 'closed';
  const [row] = await db.select({ state: payStandInOrders.state }).from(payStandInOrders).where(eq(payStandInOrders.id, id)).limit(1);
  return row ? 'not_closable' : 'not_found';
}

/** Posts one notification to the merchant's notify URL; the status it got (0 when unreachable). */
export async function deliverNotification(fetchLike: FetchLike, url: string, init: RequestInit): Promise<{ status: number; body: string }> {
  try {
    const res = await fetchLike(url, { ...init, method: 'POST', signal: AbortSignal.timeout(10_000) });
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: 0, body: '' };
  }
}

/**
 * Stand-in answers are exact bytes the provider would send (often signed), so they are built as raw
 * Responses; this lets such a Response pass where an OpenAPI route expects its typed answer.
 */
/**
 * A stand-in page's form fields (strings only). A body that is no form (a multipart without its
 * boundary, broken bytes) has no fields: the page answers as for a missing field, never a 500.
 */
export async function formFields(c: Context): Promise<Record<string, string>> {
  const body = await c.req.parseBody().catch(() => ({}));
  return Object.fromEntries(Object.entries(body).filter((e): e is [string, string] => typeof e[1] === 'string'));
}

export const rawAnswer = (res: Response) => res as unknown as never;

/** A return URL on our own origin, or undefined: the stand-in pages are never an open redirect. */
export function sameOrigin(url: string, publicUrl: string): string | undefined {
  try {
    const u = new URL(url);
    return u.origin === new URL(publicUrl).origin ? u.toString() : undefined;
  } catch {
    return undefined;
  }
}
