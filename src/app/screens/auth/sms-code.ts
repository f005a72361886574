import type { MessageDescriptor } from '@lingui/core';
import { useSelector } from '@xstate/react';
import { fromPromise, type ActorRefFrom, type AnyActorRef } from 'xstate';
import { authSmsCodeMachine } from '../../../../machines/auth-sms-code.machine';
import { browserApiOrThrow } from '../../api-context';
import { refusalMessage } from '../../ui/refusal-message';
import { feedbackMessage } from './auth-messages';

/** The code sender with the real API, for the forms that invoke it as `sms` (login, reset step one). */
export function smsCodeWithApi() {
  return authSmsCodeMachine.provide({
    actors: { sendCode: fromPromise(({ input }: { input: { phone: string } }) => browserApiOrThrow().auth.sendCode(input.phone)) },
  });
}

type SmsCodeActor = ActorRefFrom<typeof authSmsCodeMachine>;

/**
 * What the code button and the line under the form show of the form's code sender (its child `sms`):
 * sending, the seconds left before a code can be sent again, and why the last code was not sent.
 */
export function useSmsCode(form: AnyActorRef): { sending: boolean; remaining: number | undefined; problem: MessageDescriptor | undefined } {
  const sms = useSelector(form, (s) => (s as { children: Record<string, unknown> }).children.sms as SmsCodeActor | undefined);
  const sending = useSelector(sms, (s) => s?.matches('sending') ?? false);
  const remaining = useSelector(sms, (s) => (s?.matches('coolingDown') ? s.context.remaining : undefined));
  const problem = useSelector(sms, (s) =>
    s?.matches({ ready: 'refused' })
      ? { ...refusalMessage(s.context.sendErrorCode), values: { seconds: s.context.retryAfter } }
      : s?.matches({ ready: 'unreachable' })
        ? feedbackMessage('unreachable', undefined)
        : undefined,
  );
  return { sending, remaining, problem };
}
