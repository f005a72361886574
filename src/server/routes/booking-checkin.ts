import { createRoute, type z } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import { classes } from '../db/schema/index';
import type { Caller } from '../env';
import { ApiError } from '../http/api-error';
import { requireAuth } from '../http/auth';
import { auditOf } from '../http/audit';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { checkIn } from '../services/booking/checkin';
import { BookingIdBody, CheckinAnswer, CheckinBody, CheckinCode, ClassIdQuery } from '../../contracts/booking';
import { staffOnly } from './staff-guard';

const json = <T extends z.ZodTypeAny>(schema: T) => ({ description: 'OK', content: { 'application/json': { schema: envelope(schema) } } });
const tags = ['check-in'];
const body = <T extends z.ZodTypeAny>(schema: T) => ({ body: { content: { 'application/json': { schema } }, required: true } });

const checkinRefusals = { 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] } as const;

/**
 * Check-in (decision 007): a member scans the class's code (the teacher shows it as a QR code), or
 * front-desk staff mark a booking. Both go through the booking chart (`checkin` from booked only).
 */
export const checkinRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags,
    summary: 'Check in to a class I booked by scanning its code (from an hour before the start to the end). Idempotency-Key accepted.',
    middleware: [requireAuth, idempotent] as const,
    request: body(CheckinBody),
    responses: { 200: json(CheckinAnswer), ...checkinRefusals },
  }),
  async (c) => {
    const { classId, code } = c.req.valid('json');
    const caller = c.var.caller as Caller;
    return ok(c, await checkIn(c.var.deps.db, c.var.deps.clock, { kind: 'member', accountId: caller.accountId, classId, code }));
  },
);

/** Staff check a member in (/api/staff/classes/checkin). */
export const staffCheckinRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/',
    tags,
    summary: "Front desk: mark a member's booking checked in. Idempotency-Key accepted.",
    middleware: [requireAuth, staffOnly(), idempotent] as const,
    request: body(BookingIdBody),
    responses: { 200: json(CheckinAnswer), ...checkinRefusals, 403: refusals[403] },
  }),
  async (c) => {
    const caller = c.var.caller as Caller;
    return ok(
      c,
      await checkIn(
        c.var.deps.db,
        c.var.deps.clock,
        { kind: 'staff', accountId: caller.accountId, bookingId: c.req.valid('json').bookingId },
        auditOf(c),
      ),
    );
  },
);

/** Staff: a class's check-in code (/api/staff/classes/checkin-code). */
export const staffCheckinCodeRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags,
    summary: "Teacher or front desk: a class's check-in code (what its QR code carries)",
    middleware: [requireAuth, staffOnly(['staff', 'teacher'])] as const,
    request: { query: ClassIdQuery },
    responses: { 200: json(CheckinCode), 400: refusals[400], 401: refusals[401], 403: refusals[403], 404: refusals[404] },
  }),
  async (c) => {
    const { classId } = c.req.valid('query');
    const [row] = await c.var.deps.db.select({ code: classes.checkinCode }).from(classes).where(eq(classes.id, classId));
    if (!row) throw new ApiError(Errors.notFound, { field: 'classId' });
    return ok(c, { classId, code: row.code });
  },
);
