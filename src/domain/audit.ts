import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/**
 * What the audit log records (decision 055): staff decisions and staff views of personal data. One
 * list, so the server writes only these and the console's filter offers exactly these, each named.
 */
export const AUDIT_ACTIONS = {
  'card-refund.approve': msg`通过退卡申请`,
  'card-refund.reject': msg`拒绝退卡申请`,
  'transfer.take': msg`开始审核转让`,
  'transfer.approve': msg`通过转让申请`,
  'transfer.reject': msg`拒绝转让申请`,
  'transfer.id-number.reveal': msg`查看完整身份证号`,
  'transfer.id-photo.view': msg`查看身份证照片`,
  'transfer.photo.view': msg`查看转让人像照片`,
  'photo.view': msg`查看会员照片`,
  'photo.pass': msg`照片审核通过`,
  'photo.reject': msg`照片审核不通过`,
  'photo.allow-another': msg`允许重新上传照片`,
  'member.register': msg`登记新会员`,
  'bind-code.issue': msg`发放老师绑定码`,
  'bind-code.revoke': msg`作废老师绑定码`,
  'binding.unbind': msg`解除微信绑定`,
  'teacher-request.confirm': msg`通过新老师申请`,
  'teacher-request.refuse': msg`拒绝新老师申请`,
  'teacher-request.photo.view': msg`查看新老师申请照片`,
  'class.create': msg`新建了课程`,
  'class.edit': msg`修改了课程`,
  'class.cancel': msg`取消课程`,
  'class.assign-teacher': msg`安排上课老师`,
  'class.teacher-confirm': msg`老师确认上课`,
  'class.teacher-decline': msg`老师拒绝上课`,
  'booking.checkin': msg`为会员办理签到`,
  'refund.release': msg`放行退款`,
  'refund.settle': msg`退款已线下处理`,
  'complaint.reply': msg`回复投诉`,
  'invoice.issue': msg`已开具发票`,
  'invoice.refuse': msg`拒绝开票申请`,
  'account-closing.confirm': msg`确认注销账号`,
  'account-closing.refuse': msg`拒绝注销申请`,
} as const satisfies Record<string, MessageDescriptor>;

export type AuditAction = keyof typeof AUDIT_ACTIONS;
export const AUDIT_ACTION_VALUES = Object.keys(AUDIT_ACTIONS) as [AuditAction, ...AuditAction[]];

/** What an action was done to, each named for the console. */
export const AUDIT_SUBJECTS = {
  'card-refund': msg`退卡申请`,
  transfer: msg`转让申请`,
  photo: msg`会员照片`,
  account: msg`账号`,
  'bind-code': msg`绑定码`,
  complaint: msg`投诉`,
  invoice: msg`发票申请`,
  'teacher-request': msg`新老师申请`,
  class: msg({ message: '课程', context: 'audit subject' }),
  booking: msg`预约`,
  refund: msg`退款`,
  'account-closing': msg`注销申请`,
} as const satisfies Record<string, MessageDescriptor>;
export type AuditSubject = keyof typeof AUDIT_SUBJECTS;
export const AUDIT_SUBJECT_VALUES = Object.keys(AUDIT_SUBJECTS) as [AuditSubject, ...AuditSubject[]];
