import { assign, fromPromise, setup } from 'xstate';
import type { ValidCodeEnvelope } from '../src/api/auth';
import { isOk } from '../src/domain/envelope';
import { SMS_RESEND_COOLDOWN_S } from '../src/domain/limits';

export interface SmsCodeContext {
  /** the phone the last code was asked for (trimmed, already checked by the form) */
  phone: string;
  /** seconds left before a code can be sent again, counted down from the server's `resendAfter` */
  remaining: number;
  /** the server's refusal to send a code (10007, 10008, 10009, 10010) */
  sendErrorCode?: number;
  /** with 10007: the seconds left before a code can be sent (the refusal says them) */
  retryAfter?: number;
}

export type SmsCodeEvent =
  /** the member tapped "get code" with a valid phone (the form that invokes this checks it) */
  | { type: 'sms.send'; phone: string }
  /** the member typed the phone: a failure said about the old one is no longer said */
  | { type: 'sms.phone.change' };

/** The wait before the next code, as the server answered it (`resendAfter`, seconds). */
function resendAfter(envelope: ValidCodeEnvelope): number {
  const s = envelope.data && 'resendAfter' in envelope.data ? envelope.data.resendAfter : undefined;
  // an answer without it (an older server) waits as long as the server's default
  return typeof s === 'number' && s > 0 ? Math.ceil(s) : SMS_RESEND_COOLDOWN_S;
}

/**
 * The SMS code sender with its resend countdown (spec §5, §7), one child machine for every form that
 * texts a code (login, reset password step one): get code → sending → a countdown of the seconds
 * the server answered (`resendAfter`) → ready to send again; a refusal or a network failure leaves
 * it ready, with the reason said. Effects are provided: actor sendCode.
 */
export const authSmsCodeMachine = setup({
  types: {
    context: {} as SmsCodeContext,
    events: {} as SmsCodeEvent,
  },
  actors: {
    sendCode: fromPromise<ValidCodeEnvelope, { phone: string }>(async () => {
      throw new Error('sendCode is provided by the app');
    }),
  },
  actions: {
    keepPhone: assign({ phone: ({ event }) => (event.type === 'sms.send' ? event.phone : '') }),
    keepSendRefusal: assign((_, params: { envelope: ValidCodeEnvelope }) => {
      const data = params.envelope.data;
      return { sendErrorCode: params.envelope.code, retryAfter: data && 'retryAfter' in data ? data.retryAfter : undefined };
    }),
    startCooldown: assign((_, params: { envelope: ValidCodeEnvelope }) => ({
      remaining: resendAfter(params.envelope),
      sendErrorCode: undefined,
      retryAfter: undefined,
    })),
    tick: assign({ remaining: ({ context }) => context.remaining - 1 }),
  },
  guards: {
    codeSent: (_, params: { envelope: ValidCodeEnvelope }) => isOk(params.envelope),
    cooldownLeft: ({ context }) => context.remaining > 1,
  },
}).createMachine({
  id: 'authSmsCode',
  context: { phone: '', remaining: 0 },
  initial: 'ready',
  states: {
    ready: {
      description: 'The "get code" button is enabled. The member can tap it to have a code texted to the phone they typed.',
      initial: 'idle',
      states: {
        idle: { description: 'Nothing is said about the code: either none was asked yet or the phone was typed again since.' },
        refused: {
          description:
            'The server refused to text a code (asked less than a minute ago, too many codes this hour or day, or an invalid phone); the reason is said under the form. The member can tap "get code" again.',
        },
        unreachable: {
          description:
            'The request to text a code did not reach the server; "network unreachable" is said under the form. The member can tap "get code" again.',
        },
      },
      on: {
        'sms.phone.change': '.idle',
        'sms.send': { target: 'sending', actions: 'keepPhone' },
      },
    },
    sending: {
      description: 'The code is being asked for: the button reads "sending…" and is disabled until the server answers.',
      invoke: {
        id: 'sendCode',
        src: 'sendCode',
        input: ({ context }) => ({ phone: context.phone }),
        onDone: [
          {
            guard: { type: 'codeSent', params: ({ event }) => ({ envelope: event.output }) },
            target: 'coolingDown',
            actions: { type: 'startCooldown', params: ({ event }) => ({ envelope: event.output }) },
          },
          {
            target: 'ready.refused',
            actions: { type: 'keepSendRefusal', params: ({ event }) => ({ envelope: event.output }) },
          },
        ],
        onError: 'ready.unreachable',
      },
    },
    coolingDown: {
      description:
        'A code was texted. The button counts the seconds the server asked to wait ("59 s to resend") and is disabled; when it reaches zero the member can ask again. Nothing is sent by itself.',
      after: {
        1000: [{ guard: 'cooldownLeft', target: 'coolingDown', reenter: true, actions: 'tick' }, { target: 'ready' }],
      },
    },
  },
});
