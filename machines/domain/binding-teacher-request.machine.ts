import { setup } from 'xstate';

/** What happens to a new teacher's request. */
export type TeacherRequestEvent = { type: 'request.submit' } | { type: 'request.confirm' } | { type: 'request.refuse' };

/**
 * A teacher not yet in the system asks to be added and bound (spec §5 binding, decision 028): they
 * fill the form (name, phone checked by SMS, club, styles, photo) from the messaging app; staff
 * confirm it (the teacher and their login are created and the open id bound to it) or refuse it
 * with the reason the teacher reads ("bind info wrong", spec §8). A refused teacher may send a new
 * request (the open id's latest request is the one that counts); a pending one holds the open id, so
 * a second one is refused. The server checks every
 * decision against this chart (`teacher_requests.state`).
 */
export const bindingTeacherRequestMachine = setup({
  types: { events: {} as TeacherRequestEvent },
}).createMachine({
  id: 'bindingTeacherRequest',
  initial: 'none',
  states: {
    none: { description: 'No request yet: the form is offered. Never stored.', tags: ['noRecord'], on: { 'request.submit': 'pending' } },
    pending: {
      description: 'Sent: staff see it in their queue; the teacher sees it waiting and cannot send another.',
      tags: ['open'],
      on: { 'request.confirm': 'confirmed', 'request.refuse': 'refused' },
    },
    confirmed: { description: 'Staff confirmed: the teacher exists, their open id is bound and logs them in as a teacher.' },
    refused: {
      description:
        'Staff refused with a reason the teacher reads ("bind info wrong"); the teacher may send the form again, a new request that waits.',
      on: { 'request.submit': 'pending' },
    },
  },
});
