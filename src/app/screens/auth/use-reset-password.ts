import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { fromPromise } from 'xstate';
import { authPasswordResetMachine, type ResetPasswordInput } from '../../../../machines/auth-password-reset.machine';
import { browserApiOrThrow } from '../../api-context';
import { actorTimers } from '../../app-clock';
import { feedbackOf } from './auth-messages';
import { smsCodeWithApi } from './sms-code';

/** The reset-password actor with the real API (both reset screens use it). */
export function useResetPassword(input: ResetPasswordInput) {
  const logic = useMemo(
    () =>
      authPasswordResetMachine.provide({
        actors: {
          smsCode: smsCodeWithApi(),
          verifyCode: fromPromise(({ input }) => browserApiOrThrow().auth.resetPasswordVerify(input.phone, input.code)),
          resetPassword: fromPromise(({ input }) => browserApiOrThrow().auth.resetPassword(input.ticket, input.password)),
        },
      }),
    [],
  );
  return useActorRef(logic, { input, ...actorTimers() });
}

export type ResetActor = ReturnType<typeof useResetPassword>;

/** The feedback message of the step the actor is in (from its chart's field-error, refusal and network tags). */
export function useResetFeedback(reset: ResetActor) {
  return useSelector(reset, (s) => feedbackOf(s, s.context.errorCode));
}
