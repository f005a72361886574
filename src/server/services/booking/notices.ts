import { msg } from '@lingui/core/macro';
import type { BookingRefusal } from '../../../domain/booking-rules';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { Errors } from '../../../domain/errors';
import type { classes, notifications } from '../../db/schema/index';
import { translate, type Locale } from '../../i18n';

/**
 * The in-app notices of queue promotion, written from the catalogs in both languages at
 * once: a notice is read later, in whatever language the member then uses.
 */

type ClassRow = typeof classes.$inferSelect;
type Notice = Omit<typeof notifications.$inferInsert, 'accountId' | 'createdAt'>;

const promotedTitle = msg`候补成功：{title}`;
const promotedBody = msg`您候补的 {when} 课程有了空位，已为您自动预约。`;
const promotedBodySpent = msg`您候补的 {when} 课程有了空位，已为您自动预约，扣除{uses}次。`;
const skippedTitle = msg`候补未能转为预约：{title}`;
const skippedBody = msg`{when} 的课程有了空位，但您的会员卡无法预约：{reason}。您已退出候补。`;

const when = (cls: ClassRow) => `${shanghaiDate(cls.startsAt)} ${shanghaiClock(cls.startsAt)}`;
const titleIn = (locale: Locale, cls: ClassRow) => (locale === 'en' ? (cls.titleEn ?? cls.title) : cls.title);

function both(title: (l: Locale) => string, body: (l: Locale) => string): Notice {
  return { title: title('zh'), titleEn: title('en'), body: body('zh'), bodyEn: body('en') };
}

/** A queued member was booked into the class; `uses` were spent from their card. */
export function promotedNotice(cls: ClassRow, uses: number): Notice {
  return both(
    (l) => translate(l, promotedTitle, { title: titleIn(l, cls) }),
    (l) => translate(l, uses > 0 ? promotedBodySpent : promotedBody, { when: when(cls), uses }),
  );
}

/** A queued member's card could not book the freed seat: they left the queue, and why. */
export function skippedNotice(cls: ClassRow, why: BookingRefusal): Notice {
  return both(
    (l) => translate(l, skippedTitle, { title: titleIn(l, cls) }),
    (l) => translate(l, skippedBody, { when: when(cls), reason: translate(l, Errors[why].message) }),
  );
}
