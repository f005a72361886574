import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import { checkoutRefusal } from '../orders/checkout-labels';

/** Why an invitation could not be made, in the member's words (spec §8; decision 021). */
export function inviteRefusal(code: number | undefined): MessageDescriptor {
  // a split order's parts: which one must be named (the split page sends one part at a time)
  if (code === 70003) return msg`这个订单已拆分，请在拆分支付页选择要请好友支付的一份`;
  if (code === 70004) return msg`没有找到这个订单`;
  if (code === 40002) return msg`订单正在支付中，请等待支付结果后再请好友代付`;
  return checkoutRefusal(code);
}
