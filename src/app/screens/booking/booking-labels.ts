import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CardReminder, ClassState } from '../../../api/booking';
import type { BookingRowState, CancelReason } from '../../../domain/booking-rules';

/** Spec §4 booking state of a class for this member, as a badge. */
export const CLASS_STATE_LABELS: Record<ClassState, MessageDescriptor> = {
  bookable: msg`可预约`,
  queueable: msg`可排队`,
  full: msg`已约满`,
  expired: msg`已过期`,
  'not-open': msg`未开放`,
  booked: msg`已预约`,
  queued: msg`排队中`,
  'checked-in': msg`已签到`,
  'not-checked-in': msg`未签到`,
};

/** Badge colours per class state (Tailwind classes). */
export const CLASS_STATE_TINTS: Record<ClassState, string> = {
  bookable: 'bg-emerald-100 text-emerald-700',
  queueable: 'bg-amber-100 text-amber-700',
  full: 'bg-black/5 text-black/60',
  expired: 'bg-black/5 text-black/60',
  'not-open': 'bg-black/5 text-black/60',
  booked: 'bg-sky-100 text-sky-700',
  queued: 'bg-violet-100 text-violet-700',
  'checked-in': 'bg-emerald-100 text-emerald-700',
  'not-checked-in': 'bg-rose-100 text-rose-700',
};

/** A stored booking's state in my list. */
export const ROW_STATE_LABELS: Record<BookingRowState, MessageDescriptor> = {
  booked: msg`已预约`,
  queued: msg`排队中`,
  cancelled: msg`已取消`,
  queue_cancelled: msg`已取消排队`,
  checked_in: msg`已签到`,
  not_checked_in: msg`未签到`,
  expired: msg`已过期`,
};

/** Why the system ended a queue place, in my list (the member's own cancel needs no words: the badge says it). */
export const CANCEL_REASON_LABELS: Partial<Record<CancelReason, MessageDescriptor>> = {
  'not-qualified': msg`有空位时您的会员卡不满足预约条件，已退出排队`,
  overlap: msg`您已预约同一时段的其他课程，已退出排队`,
  'class-cancelled': msg`门店取消了这节课，会员卡次数已退回`,
};

/** The class state a stored booking shows as (same badge colours as the schedule). */
export const ROW_STATE_TINT_KEY: Record<BookingRowState, ClassState> = {
  booked: 'booked',
  queued: 'queued',
  cancelled: 'expired',
  queue_cancelled: 'expired',
  checked_in: 'checked-in',
  not_checked_in: 'not-checked-in',
  expired: 'expired',
};

/** The confirm step's reminders (spec §8 booking reminders). */
export const REMINDER_LABELS: Record<CardReminder, MessageDescriptor> = {
  'first-use': msg`这是该卡的首次使用`,
  'few-uses-left': msg`该卡剩余次数不足5次`,
  'short-validity': msg`该卡有效期不足一个月`,
  'will-activate': msg`该卡尚未激活，预约成功后将自动激活并开始计算有效期`,
};

/** Card refusals that a new card would solve: the member is offered to buy one. */
export const BUY_CARD_CODES: readonly number[] = [20003, 20004, 20005, 20020];
