import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { OrderState, PayMethod } from '../../../domain/orders';

/** Spec §4 order states as the member reads them. */
export const ORDER_STATE_LABELS: Record<OrderState, MessageDescriptor> = {
  unpaid: msg`待支付`,
  paying: msg`支付中`,
  paid: msg`已支付`,
  payment_failed: msg`支付失败`,
  cancelled: msg`已取消`,
  refunding: msg`退款中`,
  refunded: msg`退款完成`,
  refund_failed: msg`退款失败`,
  friend_paying: msg`好友代付中`,
  fully_paid: msg`已全部支付`,
};

/** The payment methods' names (spec §1: messaging-app payment, mobile payment service, balance). */
export const PAY_METHOD_LABELS: Record<PayMethod, MessageDescriptor> = {
  wechat: msg`微信支付`,
  alipay: msg`支付宝`,
  balance: msg`余额支付`,
};
