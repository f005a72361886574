import { assign, fromPromise, setup } from 'xstate';
import type { MemberByPhone, MyTransfer } from '../src/api/card-transfers';
import { validIdNumber, validRealName } from '../src/domain/identity';
import { transferRecipientRefusal } from '../src/domain/card-transfer';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';
import { isValidPhone } from '../src/domain/validation';

export interface CardTransferInput {
  cardId: number;
  /** my own phone, when the page knows it: a card is never transferred to oneself */
  ownPhone: string | null;
}

export interface CardTransferContext extends CardTransferInput {
  phone: string;
  /** the recipient's masked name the lookup answered; null: found, but they have given no name */
  recipient?: string | null;
  name: string;
  idNumber: string;
  /** the chosen images, prepared (base64) */
  idPhoto?: string;
  photo?: string;
  /** one per intent (the member's submit), reused by its retries */
  idempotencyKey?: string;
  /** the server's refusal of the application (e.g. 30035 bookings ahead) */
  errorCode?: number;
  /** the server's words for it (they may name the club's phone: 30030, 30031) */
  errorMessage?: string;
}

export interface TransferSubmission {
  cardId: number;
  phone: string;
  name: string;
  idNumber: string;
  idPhoto: string;
  photo: string;
  idempotencyKey: string;
}

export type CardTransferEvent =
  | { type: 'phone.change'; phone: string }
  | { type: 'phone.lookup' }
  | { type: 'name.change'; name: string }
  | { type: 'idNumber.change'; idNumber: string }
  | { type: 'idPhoto.ready'; image: string }
  | { type: 'photo.ready'; image: string }
  | { type: 'transfer.submit' }
  | { type: 'network.retry' }
  | { type: 'form.edit' };

/**
 * Applying to transfer one of my cards (/mine/transferapply?id=, after the policy was accepted on
 * /mine/transfer; spec §3 transfer, §5; decision 026). The recipient's phone first: the lookup answers
 * a masked name or "no such member"; then the recipient's name, ID number, ID photo and photo (sent
 * only when the name and ID number are well-formed and both images chosen); the application is sent
 * under one Idempotency-Key per intent and, accepted, the member goes to its state page; refused, the
 * server's code is said in the form; lost, a retry. Effects are provided: actors lookupMember and
 * submitTransfer (the images uploaded, then the application); action showState.
 * Tags say what the page shows: `lookup` the "look up" button, `form` the rest of the form (the
 * member found), `busy` a request in flight (its button says it is working), `unreachable` a retry.
 */
export const cardTransferMachine = setup({
  types: {
    context: {} as CardTransferContext,
    events: {} as CardTransferEvent,
    input: {} as CardTransferInput,
    tags: {} as 'lookup' | 'form' | 'busy' | 'unreachable',
  },
  actors: {
    lookupMember: fromPromise<Envelope<MemberByPhone>, { phone: string }>(async () => {
      throw new Error('lookupMember is provided by the app');
    }),
    submitTransfer: fromPromise<Envelope<MyTransfer>, TransferSubmission>(async () => {
      throw new Error('submitTransfer is provided by the app');
    }),
  },
  actions: {
    setPhone: assign({ phone: (_, p: { phone: string }) => p.phone, recipient: undefined, errorCode: undefined, errorMessage: undefined }),
    keepRecipient: assign({ recipient: (_, p: { name: string | null }) => p.name }),
    setName: assign({ name: (_, p: { name: string }) => p.name, errorCode: undefined, errorMessage: undefined }),
    setIdNumber: assign({ idNumber: (_, p: { idNumber: string }) => p.idNumber, errorCode: undefined, errorMessage: undefined }),
    setIdPhoto: assign({ idPhoto: (_, p: { image: string }) => p.image, errorCode: undefined, errorMessage: undefined }),
    setPhoto: assign({ photo: (_, p: { image: string }) => p.image, errorCode: undefined, errorMessage: undefined }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined, errorMessage: undefined }),
    keepCode: assign({
      errorCode: (_, p: { code: number; message?: string }) => p.code,
      errorMessage: (_, p: { code: number; message?: string }) => p.message,
    }),
    showState: () => {},
  },
  guards: {
    // a valid mobile number that is not my own (the server's transferToSelf, told before the lookup and the uploads)
    phoneValid: ({ context }) => isValidPhone(context.phone) && transferRecipientRefusal(context.phone, context.ownPhone) === null,
    complete: ({ context }) =>
      validRealName(context.name) && validIdNumber(context.idNumber) && Boolean(context.idPhoto) && Boolean(context.photo),
    refused: (_, p: { envelope: Envelope<unknown> }) => !isOk(p.envelope),
  },
}).createMachine({
  id: 'cardTransfer',
  context: ({ input }) => ({ ...input, phone: '', name: '', idNumber: '' }),
  initial: 'phone',
  states: {
    phone: {
      tags: ['lookup'],
      description:
        'The recipient’s phone first: "look up" is offered once it is a valid mobile number and not the member’s own (that is said at the phone: a card is not transferred to oneself); nothing else of the form is shown yet.',
      on: {
        'phone.change': { target: 'phone', actions: { type: 'setPhone', params: ({ event }) => ({ phone: event.phone }) } },
        'phone.lookup': { guard: 'phoneValid', target: 'lookingUp' },
      },
    },
    lookingUp: {
      tags: ['lookup', 'busy'],
      description: 'The phone was sent to find the member: the page says it is looking.',
      invoke: {
        id: 'lookupMember',
        src: 'lookupMember',
        input: ({ context }) => ({ phone: context.phone }),
        onDone: [
          { guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) }, target: 'notFound' },
          { target: 'form', actions: { type: 'keepRecipient', params: ({ event }) => ({ name: event.output.data.name }) } },
        ],
        onError: 'lookupUnreachable',
      },
    },
    notFound: {
      description: 'No member has this phone: the page says so; changing the phone starts again.',
      on: { 'phone.change': { target: 'phone', actions: { type: 'setPhone', params: ({ event }) => ({ phone: event.phone }) } } },
    },
    lookupUnreachable: {
      tags: ['unreachable'],
      description: 'The lookup did not reach the server: retry, or change the phone.',
      on: {
        'network.retry': 'lookingUp',
        'phone.change': { target: 'phone', actions: { type: 'setPhone', params: ({ event }) => ({ phone: event.phone }) } },
      },
    },
    form: {
      tags: ['form'],
      description:
        'The member found (their masked name shown, or that they have given no name): the recipient’s name, ID number, ID photo and photo; "apply" is offered once the name and ID number are well-formed and both images chosen; a refusal from the server is said here; changing the phone starts again.',
      on: {
        'phone.change': { target: 'phone', actions: { type: 'setPhone', params: ({ event }) => ({ phone: event.phone }) } },
        'name.change': { target: 'form', actions: { type: 'setName', params: ({ event }) => ({ name: event.name }) } },
        'idNumber.change': { target: 'form', actions: { type: 'setIdNumber', params: ({ event }) => ({ idNumber: event.idNumber }) } },
        'idPhoto.ready': { target: 'form', actions: { type: 'setIdPhoto', params: ({ event }) => ({ image: event.image }) } },
        'photo.ready': { target: 'form', actions: { type: 'setPhoto', params: ({ event }) => ({ image: event.image }) } },
        'transfer.submit': { guard: 'complete', target: 'submitting', actions: 'newIntent' },
      },
    },
    submitting: {
      tags: ['form', 'busy'],
      description: 'The images and the application were sent: the form says it is working and cannot be sent again.',
      invoke: {
        id: 'submitTransfer',
        src: 'submitTransfer',
        input: ({ context }) => ({
          cardId: context.cardId,
          phone: context.phone,
          name: context.name,
          idNumber: context.idNumber,
          idPhoto: context.idPhoto!,
          photo: context.photo!,
          idempotencyKey: context.idempotencyKey!,
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'form',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code, message: event.output.message }) },
          },
          { target: 'submitted', actions: 'showState' },
        ],
        onError: 'unreachable',
      },
    },
    unreachable: {
      tags: ['form', 'unreachable'],
      description: 'The application did not reach the server: retry (the same request, so it is made once), or close to change the form.',
      on: { 'network.retry': 'submitting', 'form.edit': 'form' },
    },
    submitted: { description: 'Applied: the member is taken to the application’s state (pending review).', type: 'final' },
  },
});
