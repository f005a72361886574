import { assign, fromPromise, setup } from 'xstate';
import type { ScheduleMoved } from '../src/api/schedule';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';

export interface TeacherAssignInput {
  classId: number;
}

export interface TeacherAssignContext extends TeacherAssignInput {
  /** the teacher chosen in the row's list */
  teacherId: number | null;
  /** one per tap, reused by its retries: a double tap assigns (and asks the teacher) once */
  idempotencyKey?: string;
  /** the server's refusal, e.g. 60051 the class has started */
  errorCode?: number;
}

export type TeacherAssignEvent = { type: 'teacher.choose'; teacherId: number } | { type: 'teacher.assign' } | { type: 'network.retry' };

/**
 * Staff assigning (or reassigning) the teacher of one class on /staff/classes (decision
 * 029): choose a teacher, assign, which asks that teacher to confirm; a refusal shows the server's code
 * and the choice may be changed; a network failure offers a retry under the same key. Effects are
 * provided: actor assign; action changed (the week is read again).
 * Tags say what the row shows (ready carries none: the choice and the assign button): `submitting`
 * the button is working, `refused` the server's reason (assign waits for another choice),
 * `unreachable` "network unreachable" and the button says retry, `assigned` the choice is done.
 */
export const scheduleTeacherAssignMachine = setup({
  types: {
    context: {} as TeacherAssignContext,
    events: {} as TeacherAssignEvent,
    input: {} as TeacherAssignInput,
    tags: {} as 'submitting' | 'refused' | 'unreachable' | 'assigned',
  },
  actors: {
    assign: fromPromise<Envelope<ScheduleMoved>, { classId: number; teacherId: number; idempotencyKey: string }>(async () => {
      throw new Error('assign is provided by the app');
    }),
  },
  actions: {
    choose: assign({ teacherId: (_, params: { teacherId: number }) => params.teacherId, errorCode: undefined }),
    newIntent: assign({ idempotencyKey: () => newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, params: { code: number }) => params.code }),
    changed: () => {},
  },
  guards: {
    chosen: ({ context }) => context.teacherId !== null,
    refused: (_, params: { envelope: Envelope<unknown> }) => !isOk(params.envelope),
  },
}).createMachine({
  id: 'scheduleTeacherAssign',
  context: ({ input }) => ({ classId: input.classId, teacherId: null }),
  initial: 'ready',
  states: {
    ready: {
      description:
        'The class with its teacher and confirmation state, a list of teachers and an assign button (working once a teacher is chosen).',
      on: {
        'teacher.choose': { actions: { type: 'choose', params: ({ event }) => ({ teacherId: event.teacherId }) } },
        'teacher.assign': { guard: 'chosen', target: 'assigning', actions: 'newIntent' },
      },
    },
    assigning: {
      tags: ['submitting'],
      description: 'The assignment was sent: the button shows it is working and cannot be tapped again.',
      invoke: {
        id: 'assign',
        src: 'assign',
        input: ({ context }) => ({
          classId: context.classId,
          teacherId: context.teacherId ?? 0,
          idempotencyKey: context.idempotencyKey ?? '',
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'assigned', actions: 'changed' },
        ],
        onError: 'unreachable',
      },
    },
    refused: {
      tags: ['refused'],
      description: 'The server refused (the class has started, an unknown teacher): the reason is shown; another teacher may be chosen.',
      on: { 'teacher.choose': { target: 'ready', actions: { type: 'choose', params: ({ event }) => ({ teacherId: event.teacherId }) } } },
    },
    unreachable: {
      tags: ['unreachable'],
      description: 'The assignment did not reach the server: "network unreachable" with a retry that sends the same assignment again.',
      on: { 'network.retry': 'assigning' },
    },
    assigned: { tags: ['assigned'], description: 'Assigned: the class now waits for the chosen teacher’s confirmation.', type: 'final' },
  },
});
