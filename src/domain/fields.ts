import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';

/**
 * Human names of request fields, so "a bad field" reads as "手机号 填写不正确" / "Mobile number is not
 * valid" in the member's language rather than as a schema key. Unknown keys are shown as they are.
 */
export const FIELD_LABELS: Record<string, MessageDescriptor> = {
  username: msg`手机号`,
  phone: msg`手机号`,
  password: msg`密码`,
  code: msg`验证码`,
  loginType: msg`登录方式`,
  openid: msg`微信授权`,
  oldPassword: msg`旧密码`,
  newPassword: msg`新密码`,
  token: msg`登录凭证`,
  id: msg`编号`,
  from: msg`开始日期`,
  until: msg`结束日期`,
  pagenum: msg`页码`,
  pagesize: msg`每页条数`,
  keywords: msg`关键词`,
  lat: msg`纬度`,
  lng: msg`经度`,
  body: msg`请求内容`,
  bindCode: msg`绑定码`,
  name: msg`姓名`,
  clubId: msg`门店`,
  styles: msg`擅长的课程类型`,
  photo: msg`照片`,
  smsCode: msg`验证码`,
  teacherId: msg`老师`,
  reason: msg`原因`,
  ttlHours: msg`有效时长`,
  title: msg`发票抬头`,
  taxNumber: msg`纳税人识别号`,
  address: msg`地址`,
  bankName: msg`开户银行`,
  bankAccount: msg`银行账号`,
  orderIds: msg`订单`,
};
