import { msg } from '@lingui/core/macro';
import type { notifications } from '../../db/schema/index';
import { translate, type Locale } from '../../i18n';

type Notice = Omit<typeof notifications.$inferInsert, 'accountId' | 'createdAt'>;

const issuedTitle = msg`您的发票已开具`;
const issuedBody = msg`发票 {number} 已开具，请到“发票”页面下载 PDF。`;
const refusedTitle = msg`您的发票申请未通过`;
const refusedBody = msg`门店未能开具您申请的发票：{reason} 订单可以重新申请。`;

const both = (title: (l: Locale) => string, body: (l: Locale) => string): Notice => ({
  title: title('zh'),
  titleEn: title('en'),
  body: body('zh'),
  bodyEn: body('en'),
});

/** To the member: staff issued (with its number) or refused (with the reason) their invoice request (decision 044), in both languages at once. */
export const invoiceDecidedNotice = (issued: boolean, numberOrReason: string): Notice =>
  issued
    ? both(
        (l) => translate(l, issuedTitle),
        (l) => translate(l, issuedBody, { number: numberOrReason }),
      )
    : both(
        (l) => translate(l, refusedTitle),
        (l) => translate(l, refusedBody, { reason: numberOrReason }),
      );
