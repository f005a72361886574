import { msg } from '@lingui/core/macro';
import type { notifications } from '../../db/schema/index';
import { translate, type Locale } from '../../i18n';

type Notice = Omit<typeof notifications.$inferInsert, 'accountId' | 'createdAt'>;

const repliedTitle = msg`您的投诉已有回复`;
const repliedBody = msg`门店回复了您的投诉：{reply} 请到“我的投诉”查看，并告诉我们您是否满意。`;

const both = (title: (l: Locale) => string, body: (l: Locale) => string): Notice => ({
  title: title('zh'),
  titleEn: title('en'),
  body: body('zh'),
  bodyEn: body('en'),
});

/** To the member: staff replied to their complaint (decision 033), written in both languages at once. */
export const complaintRepliedNotice = (reply: string): Notice =>
  both(
    (l) => translate(l, repliedTitle),
    (l) => translate(l, repliedBody, { reply }),
  );
