import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { Errors } from '../../../domain/errors';
import { refusalMessage } from '../../ui/refusal-message';

/** What each field-error tag of the auth machines says (spec §5); `unreachable` is the network error. */
export const fieldMessages = {
  phoneInvalid: Errors.invalidPhone.message,
  codeMissing: msg`请输入验证码`,
  passwordMissing: msg`请输入密码`,
  agreementMissing: msg`请先阅读并同意《会员服务协议》和《隐私政策》`,
  oldMissing: msg`请输入旧密码`,
  lengthInvalid: Errors.passwordLength.message,
  mismatch: msg`两次输入的密码不一致`,
  sameAsOld: Errors.samePassword.message,
  unreachable: Errors.network.message,
} satisfies Record<string, MessageDescriptor>;

/** A tag that puts a line under an auth form: a field error, the network error, or the server's refusal. */
export type FeedbackTag = keyof typeof fieldMessages | 'refused';

const fieldTags = Object.keys(fieldMessages) as (keyof typeof fieldMessages)[];

/**
 * The line under an auth form, from the tags of its chart's snapshot: the server's refusal (by its
 * code), or the field error or network error its tag names; none while the member types. A method
 * in the type, so a chart that carries only some of these tags fits.
 */
export function feedbackOf(snapshot: { hasTag(tag: FeedbackTag): boolean }, code: number | undefined): MessageDescriptor | undefined {
  if (snapshot.hasTag('refused')) return refusalMessage(code);
  const tag = fieldTags.find((t) => snapshot.hasTag(t));
  return tag && fieldMessages[tag];
}

/** The message of a form's feedback state: a field error, a refusal (by code) or the network error. */
export function feedbackMessage(state: string | undefined, code: number | undefined): MessageDescriptor | undefined {
  if (!state || state === 'clean') return undefined;
  if (state === 'refused') return refusalMessage(code);
  return fieldMessages[state as keyof typeof fieldMessages];
}
