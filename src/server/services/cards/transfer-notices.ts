import { msg } from '@lingui/core/macro';
import type { notifications } from '../../db/schema/index';
import { translate, type Locale } from '../../i18n';

/**
 * The in-app notices of a card transfer (decision 026), written in both languages at once: a notice
 * is read later, in whatever language the member then uses.
 */
type Notice = Omit<typeof notifications.$inferInsert, 'accountId' | 'createdAt'>;

const outTitle = msg`会员卡已转让：{card}`;
const outBody = msg`您的会员卡 {number} 的转让申请已通过，卡已转给 {name}。`;
const inTitle = msg`您收到一张会员卡：{card}`;
const inBody = msg`会员 {from} 转让给您的会员卡已到账，卡号 {number}，可以用它预约课程了。`;
const rejectedTitle = msg`会员卡转让未通过：{card}`;
const rejectedBody = msg`您的会员卡 {number} 的转让申请未通过：{reason}`;

interface CardNames {
  name: string;
  nameEn: string | null;
  number: string;
}
const cardIn = (l: Locale, c: CardNames) => (l === 'en' ? (c.nameEn ?? c.name) : c.name);
const both = (title: (l: Locale) => string, body: (l: Locale) => string): Notice => ({
  title: title('zh'),
  titleEn: title('en'),
  body: body('zh'),
  bodyEn: body('en'),
});

/** To the giver: the card was transferred to `recipient`. */
export const transferredOutNotice = (card: CardNames, recipient: string): Notice =>
  both(
    (l) => translate(l, outTitle, { card: cardIn(l, card) }),
    (l) => translate(l, outBody, { number: card.number, name: recipient }),
  );

/** To the recipient: a card arrived from `giverPhone` (masked). */
export const transferredInNotice = (card: CardNames, giver: string): Notice =>
  both(
    (l) => translate(l, inTitle, { card: cardIn(l, card) }),
    (l) => translate(l, inBody, { from: giver, number: card.number }),
  );

/** To the giver: staff rejected the application, and why. */
export const transferRejectedNotice = (card: CardNames, reason: string): Notice =>
  both(
    (l) => translate(l, rejectedTitle, { card: cardIn(l, card) }),
    (l) => translate(l, rejectedBody, { number: card.number, reason }),
  );

const refundApprovedTitle = msg`会员卡退款已通过：{card}`;
const refundApprovedBody = msg`您的会员卡 {number} 的退款申请已通过，{amount} 元将按原支付方式退回。`;
const refundRejectedTitle = msg`会员卡退款未通过：{card}`;
const refundRejectedBody = msg`您的会员卡 {number} 的退款申请未通过：{reason}`;

const yuan = (cents: number) => (cents / 100).toFixed(2);

/** To the member: staff approved the card's refund (decision 030); the money goes back the way it was paid. */
export const cardRefundApprovedNotice = (card: CardNames, amountCents: number): Notice =>
  both(
    (l) => translate(l, refundApprovedTitle, { card: cardIn(l, card) }),
    (l) => translate(l, refundApprovedBody, { number: card.number, amount: yuan(amountCents) }),
  );

/** To the member: staff rejected the card's refund, and why. */
export const cardRefundRejectedNotice = (card: CardNames, reason: string): Notice =>
  both(
    (l) => translate(l, refundRejectedTitle, { card: cardIn(l, card) }),
    (l) => translate(l, refundRejectedBody, { number: card.number, reason }),
  );
