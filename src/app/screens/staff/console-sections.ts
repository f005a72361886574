import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { StaffCounts } from '../../../api/binding';

/** One section of the staff console: its page and what it is for. */
export interface ConsoleSection {
  key: string;
  /** the section's page (`/staff/...`), or an existing screen it links to */
  path: string;
  title: MessageDescriptor;
  description: MessageDescriptor;
  /** the queue whose size the home shows on the section (GET /staff/counts), where it has one */
  count?: keyof StaffCounts;
}

/**
 * The staff console's sections, in the order the home shows them: the one home for all staff work,
 * so every `staff/...` page is reachable from it (test/unit/staff-console-reach.test.ts checks the
 * route table against this list). A new staff page adds its section here.
 */
export const CONSOLE_SECTIONS: ConsoleSection[] = [
  { key: 'bind-codes', path: '/staff/bindCodes', title: msg`老师绑定码`, description: msg`为老师发放、查看和作废绑定码` },
  {
    key: 'teacher-requests',
    path: '/staff/teacherRequests',
    title: msg`新老师申请`,
    description: msg`确认或拒绝尚未录入系统的老师的申请`,
    count: 'teacherRequests',
  },
  { key: 'bindings', path: '/staff/bindings', title: msg`已绑定账号`, description: msg`查看老师和员工的微信绑定，需要时解除绑定` },
  {
    key: 'classes',
    path: '/staff/classes',
    title: msg`本周课程与老师确认`,
    description: msg`查看本周课程和老师的确认，为被拒绝或超时未确认的课程另找老师，新建或修改课程`,
    count: 'declinedClasses',
  },
  { key: 'checkin', path: '/staff/checkin', title: msg`前台签到`, description: msg`按预约编号为会员签到` },
  {
    key: 'register-member',
    path: '/staff/members/new',
    title: msg`登记新会员`,
    description: msg`为到店的新会员开通账号，并把一次性显示的初始密码交给会员`,
  },
  { key: 'photos', path: '/staff/photos', title: msg`照片审核`, description: msg`审核会员上传的签到照片`, count: 'photos' },
  { key: 'transfers', path: '/staff/transfers', title: msg`转让审核`, description: msg`审核会员卡转让申请`, count: 'transfers' },
  {
    key: 'card-refunds',
    path: '/staff/cardRefunds',
    title: msg`退款申请`,
    description: msg`审核会员的会员卡退款申请，通过后按原支付方式退款`,
    count: 'cardRefunds',
  },
  {
    key: 'complaints',
    path: '/staff/complaints',
    title: msg`投诉处理`,
    description: msg`回复会员投诉，超过48小时未回复的排在最前`,
    count: 'complaints',
  },
  {
    key: 'invoices',
    path: '/staff/invoices',
    title: msg`开具发票`,
    description: msg`为会员开具发票（生成 PDF）或说明原因拒绝`,
    count: 'invoices',
  },
  {
    key: 'account-closings',
    path: '/staff/accountClosings',
    title: msg`注销申请`,
    description: msg`确认会员的注销申请（删除个人信息，保留财务和法定记录）或说明原因拒绝`,
    count: 'accountClosings',
  },
  { key: 'refunds', path: '/staff/refunds', title: msg`退款处理`, description: msg`处理退款失败或暂缓的退款`, count: 'refunds' },
  { key: 'audit', path: '/staff/audit', title: msg`操作记录`, description: msg`查看员工的审核操作和对会员个人信息的查看记录` },
];
