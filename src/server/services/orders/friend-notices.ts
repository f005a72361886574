import { msg } from '@lingui/core/macro';
import { eq } from 'drizzle-orm';
import { formatYuan } from '../../../domain/money';
import type { Tx } from '../../db/client';
import { goods, notifications } from '../../db/schema/index';
import { translate, type Locale } from '../../i18n';

/**
 * The in-app notices of friend pay (decision 099), written in both languages at once in the
 * transaction that moves the invitation: the move is guarded by the invitation's state, so a repeated
 * payment notification or a second expiry run finds nothing to move and writes nothing.
 */
type Notice = Omit<typeof notifications.$inferInsert, 'accountId' | 'createdAt'>;

const paidTitle = msg`好友已为您代付：{goods}`;
const paidBody = msg`{friend} 已用微信支付为您代付 {amount}（订单 {orderNo}）。`;
const someFriend = msg`您的好友`;
const expiredTitle = msg`代付邀请已过期：{goods}`;
const expiredBody = msg`好友未在 1 小时内支付 {amount}（订单 {orderNo}），邀请已自动取消。您可以重新邀请好友，或自己支付。`;

interface NoticeFacts {
  goodsId: number;
  orderNo: string;
  amountCents: number;
}

async function goodsNames(tx: Tx, goodsId: number): Promise<(l: Locale) => string> {
  const [g] = await tx.select({ name: goods.name, nameEn: goods.nameEn }).from(goods).where(eq(goods.id, goodsId));
  return (l) => (l === 'en' ? (g?.nameEn ?? g?.name ?? '') : (g?.name ?? ''));
}

const both = (title: (l: Locale) => string, body: (l: Locale) => string): Notice => ({
  title: title('zh'),
  titleEn: title('en'),
  body: body('zh'),
  bodyEn: body('en'),
});

/** To the member, as the friend's payment is applied: who paid, how much, for what. */
export async function noticeFriendPaid(tx: Tx, accountId: number, at: Date, f: NoticeFacts & { friendName: string | null }): Promise<void> {
  const name = await goodsNames(tx, f.goodsId);
  const amount = formatYuan(f.amountCents);
  const friend = (l: Locale) => f.friendName?.trim() || translate(l, someFriend);
  await tx.insert(notifications).values({
    accountId,
    createdAt: at,
    ...both(
      (l) => translate(l, paidTitle, { goods: name(l) }),
      (l) => translate(l, paidBody, { friend: friend(l), amount, orderNo: f.orderNo }),
    ),
  });
}

/** To the member, as the hour ends unpaid: the invitation is cancelled and what they may do now. */
export async function noticeInvitationExpired(tx: Tx, accountId: number, at: Date, f: NoticeFacts): Promise<void> {
  const name = await goodsNames(tx, f.goodsId);
  const amount = formatYuan(f.amountCents);
  await tx.insert(notifications).values({
    accountId,
    createdAt: at,
    ...both(
      (l) => translate(l, expiredTitle, { goods: name(l) }),
      (l) => translate(l, expiredBody, { amount, orderNo: f.orderNo }),
    ),
  });
}
