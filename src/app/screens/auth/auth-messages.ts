import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Errors } from '../../../domain/errors';
import { refusalMessage } from '../../ui/refusal-message';

/** What each named field-error state of the auth machines says (spec §5). */
export const fieldMessages: Record<string, MessageDescriptor> = {
  phoneInvalid: Errors.invalidPhone.message,
  codeMissing: msg`请输入验证码`,
  passwordMissing: msg`请输入密码`,
  agreementMissing: msg`请先阅读并同意《会员服务协议》和《隐私政策》`,
  oldMissing: msg`请输入旧密码`,
  lengthInvalid: Errors.passwordLength.message,
  mismatch: msg`两次输入的密码不一致`,
  sameAsOld: Errors.samePassword.message,
  unreachable: Errors.network.message,
};

/** The message of a form's feedback state: a field error, a refusal (by code) or the network error. */
export function feedbackMessage(state: string | undefined, code: number | undefined): MessageDescriptor | undefined {
  if (!state || state === 'clean') return undefined;
  if (state === 'refused') return refusalMessage(code);
  return fieldMessages[state];
}
