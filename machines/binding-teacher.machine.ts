import { assign, fromPromise, setup } from 'xstate';
import type { LoginEnvelope } from '../src/api/auth';
import { isBindCodeShape, normalizeBindCode } from '../src/domain/binding';
import { isOk } from '../src/domain/envelope';
import { Errors } from '../src/domain/errors';

export interface TeacherBindContext {
  code: string;
  /** the server's refusal (spec §8 binding codes) */
  errorCode?: number;
}

export type TeacherBindEvent = { type: 'bind.code.change'; value: string } | { type: 'bind.submit' };

/**
 * A teacher binds their messaging identity with the bind code staff gave them (/bindPage/teacherBind,
 * spec §5, decision 028): the code typed (8 characters, dashes and case ignored), then POST
 * /bind/teacher with the open id of the silent login. Bound: logged in as the teacher (handOver).
 * Without an open id (60001) the page offers to run the silent login again; other refusals (invalid,
 * expired, teacher missing, already bound, bind failed) are said by their code.
 * Effects are provided: actor bindTeacher, action handOver.
 */
export const bindingTeacherMachine = setup({
  types: { context: {} as TeacherBindContext, events: {} as TeacherBindEvent },
  actors: {
    bindTeacher: fromPromise<LoginEnvelope, { code: string }>(async () => {
      throw new Error('bindTeacher is provided by the app');
    }),
  },
  actions: {
    setCode: assign({ code: ({ event }) => (event.type === 'bind.code.change' ? event.value : '') }),
    keepRefusal: assign({ errorCode: (_, params: { code: number }) => params.code }),
    handOver: (_, _params: { envelope: LoginEnvelope }) => {},
  },
  guards: {
    codeMissing: ({ context }) => normalizeBindCode(context.code) === '',
    codeMalformed: ({ context }) => !isBindCodeShape(normalizeBindCode(context.code)),
    accepted: (_, params: { envelope: LoginEnvelope }) => isOk(params.envelope),
    noOpenId: (_, params: { envelope: LoginEnvelope }) => params.envelope.code === Errors.emptyOpenId.code,
  },
}).createMachine({
  id: 'bindingTeacher',
  context: { code: '' },
  initial: 'editing',
  states: {
    editing: {
      description: 'The bind-code form: the code staff gave the teacher, and bind.',
      initial: 'clean',
      states: {
        clean: { description: 'Nothing said under the form: the teacher types the code.' },
        codeMissing: { description: 'Bind was tapped without a code: "enter the bind code" is said.' },
        codeMalformed: {
          description: 'What was typed cannot be a bind code (8 letters and digits): "the bind code is invalid" is said, nothing is sent.',
        },
        noOpenId: {
          description:
            'The server has no messaging identity for this browser (empty open id): this is said, with a button that runs the silent login again and comes back here.',
        },
        refused: {
          description:
            'The server refused the code (invalid, expired, teacher missing, already bound, bind failed): the reason is said; the teacher can try again.',
        },
        unreachable: { description: 'The request did not reach the server: "network unreachable" is said; the teacher can bind again.' },
      },
      on: {
        'bind.code.change': { target: '.clean', actions: 'setCode' },
        'bind.submit': [
          { guard: 'codeMissing', target: '.codeMissing' },
          { guard: 'codeMalformed', target: '.codeMalformed' },
          { target: 'binding' },
        ],
      },
    },
    binding: {
      description: 'The code was sent: the bind button shows it is working.',
      invoke: {
        id: 'bindTeacher',
        src: 'bindTeacher',
        input: ({ context }) => ({ code: normalizeBindCode(context.code) }),
        onDone: [
          {
            guard: { type: 'accepted', params: ({ event }) => ({ envelope: event.output }) },
            target: 'done',
            actions: { type: 'handOver', params: ({ event }) => ({ envelope: event.output }) },
          },
          { guard: { type: 'noOpenId', params: ({ event }) => ({ envelope: event.output }) }, target: 'editing.noOpenId' },
          { target: 'editing.refused', actions: { type: 'keepRefusal', params: ({ event }) => ({ code: event.output.code }) } },
        ],
        onError: 'editing.unreachable',
      },
    },
    done: { description: 'Bound: the teacher is logged in as the teacher and sees their binding.', type: 'final' },
  },
});
