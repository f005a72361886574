import { msg } from '@lingui/core/macro';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import type { classes, notifications } from '../../db/schema/index';
import { translate, type Locale } from '../../i18n';

/**
 * The in-app notices of the teacher schedule (decision 029), written in both languages at once: a
 * notice is read later, in whatever language its reader then uses.
 */
type ClassRow = Pick<typeof classes.$inferSelect, 'title' | 'titleEn' | 'startsAt'>;
type Notice = Omit<typeof notifications.$inferInsert, 'accountId' | 'createdAt'>;

const declinedTitle = msg`老师无法上课：{title}`;
const declinedBody = msg`{teacher} 无法上 {when} 的课程，原因：{reason}。请重新安排老师。`;
const lapsedTitle = msg`老师未确认课程：{title}`;
const lapsedBody = msg`{teacher} 在确认截止前没有确认 {when} 的课程。请联系老师或重新安排。`;
const askedTitle = msg`请确认课程：{title}`;
const askedBody = msg`您被安排上 {when} 的课程，请在 {by} 前确认或说明无法上课的原因。`;
const changedTitle = msg`课程老师变更：{title}`;
const changedBody = msg`您预约的 {when} 的课程更换了老师，新老师确认后会显示在课程中。`;

const movedTitle = msg`课程时间变更：{title}`;
const movedBody = msg`您预约的课程从 {from} 改到了 {to}，如无法参加请取消预约。`;
const cancelledTitle = msg`课程已取消：{title}`;
const cancelledBody = msg`门店取消了 {when} 的课程，您的预约或排队已取消，会员卡次数已退回。`;

const when = (at: Date) => `${shanghaiDate(at)} ${shanghaiClock(at)}`;
const titleIn = (l: Locale, c: ClassRow) => (l === 'en' ? (c.titleEn ?? c.title) : c.title);
const both = (title: (l: Locale) => string, body: (l: Locale) => string): Notice => ({
  title: title('zh'),
  titleEn: title('en'),
  body: body('zh'),
  bodyEn: body('en'),
});

/** To staff: the teacher declined the class, and why. */
export const declinedNotice = (c: ClassRow, teacher: string, reason: string): Notice =>
  both(
    (l) => translate(l, declinedTitle, { title: titleIn(l, c) }),
    (l) => translate(l, declinedBody, { teacher, when: when(c.startsAt), reason }),
  );

/** To staff: the class's confirmation deadline passed with no answer. */
export const lapsedNotice = (c: ClassRow, teacher: string): Notice =>
  both(
    (l) => translate(l, lapsedTitle, { title: titleIn(l, c) }),
    (l) => translate(l, lapsedBody, { teacher, when: when(c.startsAt) }),
  );

/** To the teacher asked: confirm by the deadline. */
export const askedNotice = (c: ClassRow, by: Date): Notice =>
  both(
    (l) => translate(l, askedTitle, { title: titleIn(l, c) }),
    (l) => translate(l, askedBody, { when: when(c.startsAt), by: when(by) }),
  );

/** To members booked on a class whose teacher changed. */
export const teacherChangedNotice = (c: ClassRow): Notice =>
  both(
    (l) => translate(l, changedTitle, { title: titleIn(l, c) }),
    (l) => translate(l, changedBody, { when: when(c.startsAt) }),
  );

/** To members holding a place on a class whose time changed (decision 041). */
export const timeChangedNotice = (before: ClassRow, after: ClassRow): Notice =>
  both(
    (l) => translate(l, movedTitle, { title: titleIn(l, before) }),
    (l) => translate(l, movedBody, { from: when(before.startsAt), to: when(after.startsAt) }),
  );

/** To the members of a class the club cancelled, and its teacher (decision 041). */
export const classCancelledNotice = (c: ClassRow): Notice =>
  both(
    (l) => translate(l, cancelledTitle, { title: titleIn(l, c) }),
    (l) => translate(l, cancelledBody, { when: when(c.startsAt) }),
  );
