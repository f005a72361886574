import { setup } from 'xstate';

/** What happens to a class's teacher confirmation. */
export type TeacherScheduleEvent =
  | { type: 'schedule.assign' }
  | { type: 'schedule.confirm' }
  | { type: 'schedule.decline' }
  | { type: 'schedule.deadline' };

/**
 * A class's teacher schedule state (spec §4 teacher schedule: not started, waiting for confirmation,
 * confirmed, unconfirmed; decision 029). Staff assign a teacher, which asks that teacher;
 * the teacher confirms or declines with a reason; a class still waiting at its confirmation deadline
 * (a setting, 24 hours before the start unless set otherwise) becomes unconfirmed by the time-passing
 * job. Staff may reassign an unconfirmed, waiting or confirmed class: the new teacher is asked and the
 * class waits again. State names are the stored `classes.teacher_state` values (snake_case).
 */
export const scheduleTeacherConfirmationMachine = setup({
  types: { events: {} as TeacherScheduleEvent },
}).createMachine({
  id: 'scheduleTeacherConfirmation',
  initial: 'notStarted',
  states: {
    notStarted: {
      description: 'Published, no teacher asked yet: staff see it among the classes needing a teacher; members see no teacher.',
      tags: ['needsTeacher'],
      on: { 'schedule.assign': 'waiting' },
    },
    waiting: {
      description: 'A teacher is assigned and asked: it is in that teacher’s week to confirm or decline, until its confirmation deadline.',
      tags: ['asked'],
      on: {
        'schedule.confirm': 'confirmed',
        'schedule.decline': 'unconfirmed',
        'schedule.deadline': 'unconfirmed',
        'schedule.assign': 'waiting',
      },
    },
    confirmed: {
      description: 'The teacher confirmed: members see the teacher on the class; staff may still reassign it, which asks the new teacher.',
      tags: ['teacherShown'],
      on: { 'schedule.assign': 'waiting' },
    },
    unconfirmed: {
      description:
        'The teacher declined with a reason, or the deadline passed unanswered: staff are told and may reassign; members see no teacher.',
      tags: ['needsTeacher'],
      on: { 'schedule.assign': 'waiting' },
    },
  },
});
