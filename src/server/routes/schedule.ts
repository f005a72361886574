import { createRoute, z } from '@hono/zod-openapi';
import {
  AssignBody,
  CheckinLink,
  ClassBody,
  ClassCancelled,
  ClassEditBody,
  ClassIdPath,
  ClassSaved,
  ConfirmWeekAnswer,
  ConfirmWeekBody,
  DeclineBody,
  StaffWeek,
  TeacherHome,
  TeacherWeek,
  WeekQuery,
} from '../../contracts/schedule';
import type { Caller } from '../env';
import { requireAuth } from '../http/auth';
import { auditOf } from '../http/audit';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { cancelClass, createClass, editClass } from '../services/schedule/class-admin';
import { teacherCheckinLink } from '../services/schedule/checkin-link';
import {
  assignTeacher,
  confirmClass,
  confirmWeek,
  declineClass,
  staffWeek,
  teacherHome,
  teacherWeek,
} from '../services/schedule/teacher-schedule';
import { staffOnly } from './staff-guard';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const body = <T extends z.ZodTypeAny>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });
const tags = ['teacher schedule'];
const Moved = z.object({ id: z.number().int(), state: z.string() });
const answerRefusals = { 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404], 409: refusals[409] } as const;
const teacherOnly = staffOnly(['teacher']);

/**
 * The teacher schedule (decision 029): a teacher's week of classes and their answers
 * (confirm one, confirm the week, decline one with a reason), and staff's week with teacher
 * assignment. Teacher calls answer 403 to anyone but a teacher, and to a teacher for another
 * teacher's class; staff calls to anyone but staff.
 */
export const scheduleRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: 'Teacher: my classes of a week (Monday to Sunday), each with its confirmation state',
      middleware: [requireAuth, teacherOnly] as const,
      request: { query: WeekQuery },
      responses: { 200: json(TeacherWeek), 400: refusals[400], 401: refusals[401], 403: refusals[403] },
    }),
    async (c) =>
      ok(
        c,
        await teacherWeek(
          c.var.deps.db,
          c.var.deps.clock.now(),
          (c.var.caller as Caller).accountId,
          c.req.valid('query').week,
          c.var.locale,
        ),
      ),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/home',
      tags,
      summary: "Teacher: my home, today's classes (Shanghai day) and every class still waiting for my answer, soonest deadline first",
      middleware: [requireAuth, teacherOnly] as const,
      responses: { 200: json(TeacherHome), 401: refusals[401], 403: refusals[403] },
    }),
    async (c) => ok(c, await teacherHome(c.var.deps.db, c.var.deps.clock.now(), (c.var.caller as Caller).accountId, c.var.locale)),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/confirm',
      tags,
      summary: 'Teacher: confirm a class I was asked to teach. Idempotency-Key accepted.',
      middleware: [requireAuth, teacherOnly, idempotent] as const,
      request: { params: ClassIdPath },
      responses: { 200: json(Moved), ...answerRefusals },
    }),
    async (c) =>
      ok(
        c,
        await confirmClass(c.var.deps.db, c.var.deps.clock.now(), (c.var.caller as Caller).accountId, c.req.valid('param').id, auditOf(c)),
      ),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/decline',
      tags,
      summary: 'Teacher: decline a class I was asked to teach, with a reason (staff are told). Idempotency-Key accepted.',
      middleware: [requireAuth, teacherOnly, idempotent] as const,
      request: { params: ClassIdPath, ...body(DeclineBody) },
      responses: { 200: json(Moved), ...answerRefusals },
    }),
    async (c) =>
      ok(
        c,
        await declineClass(
          c.var.deps.db,
          c.var.deps.clock.now(),
          (c.var.caller as Caller).accountId,
          c.req.valid('param').id,
          c.req.valid('json').reason,
          auditOf(c),
        ),
      ),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/confirm-week',
      tags,
      summary: 'Teacher: confirm every class of the week still waiting for me. Idempotency-Key accepted.',
      middleware: [requireAuth, teacherOnly, idempotent] as const,
      request: body(ConfirmWeekBody),
      responses: { 200: json(ConfirmWeekAnswer), 400: refusals[400], 401: refusals[401], 403: refusals[403] },
    }),
    async (c) =>
      ok(
        c,
        await confirmWeek(c.var.deps.db, c.var.deps.clock.now(), (c.var.caller as Caller).accountId, c.req.valid('json').week, auditOf(c)),
      ),
  );

/** A teacher's check-in link for a class (/api/teacher/checkin-link). */
export const teacherCheckinLinkRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags,
    summary:
      'Teacher: the check-in link of my current or next class, signed and valid two minutes (the QR code members scan; renew it every minute)',
    middleware: [requireAuth, teacherOnly] as const,
    responses: { 200: json(CheckinLink), 401: refusals[401], 403: refusals[403] },
  }),
  async (c) => {
    const { deps } = c.var;
    return ok(
      c,
      await teacherCheckinLink(deps.db, deps.clock.now(), (c.var.caller as Caller).accountId, deps.config.publicUrl, c.var.locale),
    );
  },
);

/** Staff: the week's teacher schedule and assigning a teacher (/api/staff/schedule). */
export const staffScheduleRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/',
      tags,
      summary: "Staff: the week's classes with their teachers and confirmations, and the teachers to assign",
      middleware: [requireAuth, staffOnly()] as const,
      request: { query: WeekQuery },
      responses: { 200: json(StaffWeek), 400: refusals[400], 401: refusals[401], 403: refusals[403] },
    }),
    async (c) =>
      ok(
        c,
        await staffWeek(c.var.deps.db, c.var.deps.clock.now(), (c.var.caller as Caller).accountId, c.req.valid('query').week, c.var.locale),
      ),
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/teacher',
      tags,
      summary: 'Staff: assign or reassign the teacher of a class, which asks that teacher to confirm. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { params: ClassIdPath, ...body(AssignBody) },
      responses: { 200: json(Moved.extend({ teacherId: z.number().int(), confirmBy: z.string() })), ...answerRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      return ok(
        c,
        await assignTeacher(
          deps.db,
          deps.clock.now(),
          deps.config.teacherConfirmHours,
          c.req.valid('param').id,
          c.req.valid('json').teacherId,
          auditOf(c),
        ),
      );
    },
  );

/** Staff: classes created, changed and cancelled (/api/staff/classes). */
export const staffClassRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'post',
      path: '/',
      tags,
      summary:
        'Staff: create a class at one of my clubs (Shanghai day, start and end); a teacher given is asked to confirm. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: body(ClassBody),
      responses: { 200: json(ClassSaved), ...answerRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      return ok(
        c,
        await createClass(
          deps.db,
          deps.clock.now(),
          deps.config.teacherConfirmHours,
          (c.var.caller as Caller).accountId,
          c.req.valid('json'),
          auditOf(c),
        ),
      );
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}',
      tags,
      summary:
        "Staff: change a class's time, capacity or teacher before it starts (a new time or teacher asks the teacher again; members are told of a new time). Idempotency-Key accepted.",
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { params: ClassIdPath, ...body(ClassEditBody) },
      responses: { 200: json(ClassSaved), ...answerRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      return ok(
        c,
        await editClass(
          deps.db,
          deps.clock.now(),
          deps.config.teacherConfirmHours,
          (c.var.caller as Caller).accountId,
          c.req.valid('param').id,
          c.req.valid('json'),
          auditOf(c),
        ),
      );
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/{id}/cancel',
      tags,
      summary:
        'Staff: cancel a class before it starts: every booking cancelled with its uses given back, the queue cleared, each member told. Idempotency-Key accepted.',
      middleware: [requireAuth, staffOnly(), idempotent] as const,
      request: { params: ClassIdPath },
      responses: { 200: json(ClassCancelled), ...answerRefusals },
    }),
    async (c) =>
      ok(
        c,
        await cancelClass(c.var.deps.db, c.var.deps.clock.now(), (c.var.caller as Caller).accountId, c.req.valid('param').id, auditOf(c)),
      ),
  );
