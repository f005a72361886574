import { assign, fromPromise, sendTo, setup } from 'xstate';
import type { Envelope } from '../src/domain/envelope';
import { firstMissingField, type NewTeacherField } from '../src/domain/binding';
import { isOk } from '../src/domain/envelope';
import { Errors } from '../src/domain/errors';
import { isValidPhone, trimInput } from '../src/domain/validation';
import { authSmsCodeMachine } from './auth-sms-code.machine';

export interface NewTeacherContext {
  name: string;
  phone: string;
  smsCode: string;
  clubId: number | null;
  styles: string[];
  /** the photo, base64 (already scaled down by the screen) */
  photo: string;
  /** the first field left empty when send was tapped */
  missing?: NewTeacherField;
  /** the server's refusal and the field it names */
  errorCode?: number;
  errorField?: string;
}

export type NewTeacherEvent =
  | { type: 'request.name.change'; value: string }
  | { type: 'request.phone.change'; value: string }
  | { type: 'request.code.change'; value: string }
  | { type: 'request.club.change'; clubId: number | null }
  | { type: 'request.style.toggle'; style: string }
  | { type: 'request.photo.change'; photo: string }
  | { type: 'request.code.send' }
  | { type: 'request.submit' };

export interface NewTeacherRequestBody {
  name: string;
  phone: string;
  smsCode: string;
  clubId: number;
  styles: string[];
  photo: string;
}

/**
 * A teacher not yet in the system asks to be added and bound (/bindPage/newteacherBind, spec §5,
 * decision 028): name, phone with an SMS code (the code sender is the child machine `smsCode`, invoked
 * as `sms`), club, styles and a photo; then POST /bind/new-teacher with the open id of the silent
 * login. Sent: the teacher follows the request on /bindPage/newteacherConfirm (requestSent). A field
 * left empty is said before sending ("fill form", the field named); without an open id (60001) the
 * page offers to run the silent login again; the server's other refusals (wrong code, bind info
 * wrong, a request pending, already bound) are said by their code.
 * Effects are provided: actors sendRequest and smsCode (with its sendCode), action requestSent.
 */
export const bindingNewTeacherMachine = setup({
  types: { context: {} as NewTeacherContext, events: {} as NewTeacherEvent },
  actors: {
    smsCode: authSmsCodeMachine,
    sendRequest: fromPromise<Envelope<unknown>, NewTeacherRequestBody>(async () => {
      throw new Error('sendRequest is provided by the app');
    }),
  },
  actions: {
    setName: assign({ name: ({ event }) => (event.type === 'request.name.change' ? event.value : '') }),
    setPhone: assign({ phone: ({ event }) => (event.type === 'request.phone.change' ? event.value : '') }),
    setCode: assign({ smsCode: ({ event }) => (event.type === 'request.code.change' ? event.value : '') }),
    setClub: assign({ clubId: ({ event }) => (event.type === 'request.club.change' ? event.clubId : null) }),
    toggleStyle: assign({
      styles: ({ context, event }) =>
        event.type !== 'request.style.toggle'
          ? context.styles
          : context.styles.includes(event.style)
            ? context.styles.filter((s) => s !== event.style)
            : [...context.styles, event.style],
    }),
    setPhoto: assign({ photo: ({ event }) => (event.type === 'request.photo.change' ? event.photo : '') }),
    keepMissing: assign({ missing: ({ context }) => firstMissingField(context) }),
    keepRefusal: assign((_, params: { code: number; field?: string }) => ({ errorCode: params.code, errorField: params.field })),
    askCode: sendTo('sms', ({ context }) => ({ type: 'sms.send' as const, phone: trimInput(context.phone) })),
    phoneChanged: sendTo('sms', { type: 'sms.phone.change' as const }),
    requestSent: () => {},
  },
  guards: {
    incomplete: ({ context }) => firstMissingField(context) !== undefined,
    phoneInvalid: ({ context }) => !isValidPhone(trimInput(context.phone)),
    accepted: (_, params: { envelope: Envelope<unknown> }) => isOk(params.envelope),
    noOpenId: (_, params: { envelope: Envelope<unknown> }) => params.envelope.code === Errors.emptyOpenId.code,
  },
}).createMachine({
  id: 'bindingNewTeacher',
  context: { name: '', phone: '', smsCode: '', clubId: null, styles: [], photo: '' },
  initial: 'active',
  states: {
    active: {
      description: 'The new-teacher form: name, phone and its SMS code, club, styles, photo, and send.',
      invoke: { id: 'sms', src: 'smsCode' },
      on: { 'request.code.send': { actions: 'askCode' } },
      initial: 'editing',
      states: {
        editing: {
          description: 'The teacher fills the form; send can be tapped.',
          initial: 'clean',
          states: {
            clean: { description: 'Nothing said about the form.' },
            incomplete: {
              description: 'Send was tapped with a field left empty: "please fill in" with that field is said, nothing is sent.',
            },
            phoneInvalid: {
              description: 'Send or get code was tapped with a phone that is not 11 digits: "enter a correct phone number" is said.',
            },
            noOpenId: {
              description:
                'The server has no messaging identity for this browser (empty open id): this is said, with a button that runs the silent login again.',
            },
            refused: {
              description:
                'The server refused (wrong code, bind info wrong, a request already waiting, already bound): the reason is said.',
            },
            unreachable: {
              description: 'The request did not reach the server: "network unreachable" is said; the teacher can send again.',
            },
          },
          on: {
            'request.name.change': { target: '.clean', actions: 'setName' },
            'request.phone.change': { target: '.clean', actions: ['setPhone', 'phoneChanged'] },
            'request.code.change': { target: '.clean', actions: 'setCode' },
            'request.club.change': { target: '.clean', actions: 'setClub' },
            'request.style.toggle': { target: '.clean', actions: 'toggleStyle' },
            'request.photo.change': { target: '.clean', actions: 'setPhoto' },
            'request.code.send': { guard: 'phoneInvalid', target: '.phoneInvalid' },
            'request.submit': [
              { guard: 'incomplete', target: '.incomplete', actions: 'keepMissing' },
              { guard: 'phoneInvalid', target: '.phoneInvalid' },
              { target: 'sending' },
            ],
          },
        },
        sending: {
          description: 'The form was sent: the send button shows it is working.',
          invoke: {
            id: 'sendRequest',
            src: 'sendRequest',
            input: ({ context }) => ({
              name: trimInput(context.name),
              phone: trimInput(context.phone),
              smsCode: trimInput(context.smsCode),
              clubId: context.clubId ?? 0,
              styles: context.styles,
              photo: context.photo,
            }),
            onDone: [
              { guard: { type: 'accepted', params: ({ event }) => ({ envelope: event.output }) }, target: '#bindingNewTeacher.sent' },
              { guard: { type: 'noOpenId', params: ({ event }) => ({ envelope: event.output }) }, target: 'editing.noOpenId' },
              {
                target: 'editing.refused',
                actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code, field: event.output.field }) },
              },
            ],
            onError: 'editing.unreachable',
          },
        },
      },
    },
    sent: { description: 'Sent: the teacher sees the request waiting for the studio to confirm.', type: 'final', entry: 'requestSent' },
  },
});
