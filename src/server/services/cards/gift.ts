import { and, eq } from 'drizzle-orm';
import { CARD_ENDED_STATUSES, CARD_INITIAL_STATUS } from '../../../../machines/domain/card-transitions';
import type { CardGift } from '../../../contracts/cards';
import type { Clock } from '../../../domain/clock';
import { shownName } from '../person/shown-name';
import { Errors, type ErrorName } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { accounts, cardTypeRules, memberCards, notifications } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { catchUpCard, lockMyCard, type CardRow } from './my-card';
import { statusRefusal } from './operations';
import { maskPhone } from './transfer';
import { bookingsAhead, recipientByPhone, transferUnfinished } from './transfer-rules';

/**
 * Why one of my cards cannot be given as a gift now (decision 040), before the recipient: its type
 * is not giftable (card_type_rules.giftable) or it came to me as a gift or by transfer (once: 30056);
 * it has ended (its status code) or been used (30058: only a card never started, the chart's initial
 * status, is given whole); an unfinished application (30004); a queue place ahead on it (30035).
 * Null when it may be given.
 */
export async function giftRefusal(db: Db | Tx, card: CardRow, now: Date): Promise<ErrorName | null> {
  const [rule] = await db.select({ giftable: cardTypeRules.giftable }).from(cardTypeRules).where(eq(cardTypeRules.cardType, card.cardType));
  if (!rule?.giftable || card.giftedFromAccountId !== null || card.transferredFromCardId !== null) return 'giftNotAllowed';
  if (CARD_ENDED_STATUSES.includes(card.status)) return statusRefusal(card.status);
  if (card.status !== CARD_INITIAL_STATUS) return 'giftUsed';
  if (await transferUnfinished(db, card.id)) return 'cardApplicationPending';
  if (await bookingsAhead(db, card.id, now)) return 'transferBookingsAhead';
  return null;
}

/** Whether the card's type may ever be given (the card page offers the gift only for these). */
export async function giftableType(db: Db | Tx, card: CardRow): Promise<boolean> {
  const [rule] = await db.select({ giftable: cardTypeRules.giftable }).from(cardTypeRules).where(eq(cardTypeRules.cardType, card.cardType));
  return rule?.giftable ?? false;
}

/**
 * Gives one of my cards to the member with `phone` (decision 040): in one transaction,
 * under my and the card's locks (the booking decisions' order), the card leaves me and arrives with
 * them as a gifted card (type `gifted`, the giver and the time kept on it); afterwards I am "not
 * owner" of it (30002). An experience card's buyer stays its buyer: the recipient may use it, the
 * buyer never (20031). 30036 no such member, 30057 to myself; the card's refusals as giftRefusal.
 */
export async function giftCard(db: Db, clock: Clock, accountId: number, input: { id: number; phone: string }): Promise<CardGift> {
  const now = clock.now();
  await catchUpCard(db, now, input.id);
  return decide(db, async (tx) => {
    const card = await lockMyCard(tx, now, accountId, input.id);
    const why = await giftRefusal(tx, card, now);
    if (why) throw new ApiError(Errors[why]);
    const to = await recipientByPhone(tx, input.phone);
    if (!to) throw new ApiError(Errors.noSuchMember, { field: 'phone' });
    if (to.id === accountId) throw new ApiError(Errors.giftToSelf, { field: 'phone' });
    const [moved] = await tx
      .update(memberCards)
      .set({ accountId: to.id, cardType: 'gifted', giftedFromAccountId: accountId, giftedAt: now })
      .where(and(eq(memberCards.id, card.id), eq(memberCards.accountId, accountId), eq(memberCards.status, card.status)))
      .returning({ id: memberCards.id });
    if (!moved) throw new ApiError(Errors.giftUsed);
    const [giver] = await tx.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, accountId));
    const from = maskPhone(giver?.phone ?? '');
    await tx.insert(notifications).values({
      accountId: to.id,
      title: '您收到一张会员卡',
      titleEn: 'You received a membership card',
      body: `${from} 赠送给您一张会员卡「${card.name}」，请在「我的会员卡」中查看。`,
      bodyEn: `${from} gave you a membership card, "${card.nameEn ?? card.name}". See it in My cards.`,
      createdAt: now,
    });
    return {
      cardId: card.id,
      recipientName: (await shownName(tx, to.id)) ?? '',
      recipientPhone: maskPhone(to.phone),
      giftedAt: now.toISOString(),
    };
  });
}
