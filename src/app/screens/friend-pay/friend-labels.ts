import { msg } from '@lingui/core/macro';
import { Errors } from '../../../domain/errors';
import type { RefusalOverrides } from '../../ui/refusal-message';

/** Why an invitation could not be made, in the member's words (spec §8; decision 021), for refusalMessage. */
export const INVITE_REFUSALS: RefusalOverrides = {
  // a split order's parts: which one must be named (the split page sends one part at a time)
  [Errors.invalidField.code]: msg`这个订单已拆分，请在拆分支付页选择要请好友支付的一份`,
  [Errors.notFound.code]: msg`没有找到这个订单`,
  [Errors.orderNotPayable.code]: msg`订单正在支付中，请等待支付结果后再请好友代付`,
};
