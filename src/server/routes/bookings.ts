import { createRoute, z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { Errors } from '../../domain/errors';
import type { AppEnv, Caller } from '../env';
import { ApiError } from '../http/api-error';
import { optionalAuth, requireAuth, requireAuthOrCookie } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { cancelBooking, cancelQueue } from '../services/booking/decide';
import { bookClassTogether } from '../services/booking/together';
import { icsFile } from '../services/booking/ics';
import {
  bookedCount,
  bookingForCalendar,
  bookingWindow,
  cardsForClass,
  classDetail,
  myBookings,
  schedule,
} from '../services/booking/views';
import { loc } from '../services/catalog';
import {
  BookAnswer,
  BookBody,
  BookingIdBody,
  BookingIdQuery,
  BookingWindow,
  CancelAnswer,
  CardForClass,
  ClassDetail,
  ClassIdQuery,
  MineQuery,
  MyBooking,
  ScheduleItem,
  ScheduleQuery,
} from '../../contracts/booking';
import { IdQuery, paged } from '../../contracts/common';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['bookings'];

/** Spec §8 booking refusals: 400 rule, 404 not yours, 409 capacity or state. */
const bookingRefusals = { 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] } as const;

function member(c: Context<AppEnv>): { accountId: number; level: string } {
  const caller = c.var.caller as Caller;
  return { accountId: caller.accountId, level: caller.level };
}

const asMember = (caller: Caller | undefined) => (caller ? { accountId: caller.accountId, level: caller.level } : undefined);

/**
 * Booking calls: the schedule with the caller's state per class, a class, the caller's
 * cards for a class, book (seat or queue), cancel a seat, leave a queue, my bookings, my cards, a
 * calendar file, and the footer badge's count. Decisions live in services/booking/decide.ts.
 */
export const bookings = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/schedule/booked/count',
      tags,
      summary: 'How many upcoming classes I have booked (the footer badge)',
      middleware: [requireAuth] as const,
      responses: { 200: json(z.number().int()), 401: refusals[401] },
    }),
    async (c) => ok(c, await bookedCount(c.var.deps.db, c.var.deps.clock.now(), member(c).accountId)),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/schedule',
      tags,
      summary: "One day's classes (Shanghai), filtered; with a token, the caller's state per class",
      middleware: [optionalAuth] as const,
      request: { query: ScheduleQuery },
      responses: { 200: json(z.array(ScheduleItem)), 400: refusals[400] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      return ok(c, await schedule(deps.db, deps.clock.now(), c.req.valid('query'), asMember(c.var.caller), locale));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/window',
      tags,
      summary: "The caller's booking window (level and cards, decision 014); null for a visitor",
      middleware: [optionalAuth] as const,
      responses: { 200: json(BookingWindow.nullable()) },
    }),
    async (c) => {
      const caller = asMember(c.var.caller);
      return ok(c, caller ? await bookingWindow(c.var.deps.db, c.var.deps.clock.now(), caller) : null);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/detail',
      tags,
      summary: "One class; with a token, the caller's state",
      middleware: [optionalAuth] as const,
      request: { query: IdQuery },
      responses: { 200: json(ClassDetail), 400: refusals[400], 404: refusals[404] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const detail = await classDetail(deps.db, deps.clock.now(), c.req.valid('query').id, asMember(c.var.caller), locale);
      if (!detail) throw new ApiError(Errors.notFound);
      return ok(c, detail);
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/cards',
      tags,
      summary: 'My cards for a class: usable or why not (code), and the reminders of the confirm step',
      middleware: [requireAuth] as const,
      request: { query: ClassIdQuery },
      responses: { 200: json(z.array(CardForClass)), 400: refusals[400], 401: refusals[401], 404: refusals[404] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const cards = await cardsForClass(deps.db, deps.clock.now(), c.req.valid('query').classId, member(c), locale);
      if (!cards) throw new ApiError(Errors.notFound, { field: 'classId' });
      return ok(c, cards);
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/book',
      tags,
      summary: 'Book a class with a card (a full class: join its queue). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: BookBody } }, required: true } },
      responses: { 200: json(BookAnswer), ...bookingRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      const me = member(c);
      const result = await bookClassTogether(deps.db, deps.clock, me, c.req.valid('json'));
      const bookedNum = await bookedCount(deps.db, deps.clock.now(), me.accountId);
      return ok(c, { ...result, bookedNum });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/cancel',
      tags,
      summary: 'Cancel my booking before the class starts (the use comes back; the queue moves up). Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: BookingIdBody } }, required: true } },
      responses: { 200: json(CancelAnswer), ...bookingRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      const me = member(c);
      const r = await cancelBooking(deps.db, deps.clock, me, c.req.valid('json').bookingId);
      const bookedNum = await bookedCount(deps.db, deps.clock.now(), me.accountId);
      return ok(c, { bookingId: r.bookingId, state: r.state, usesReturned: r.usesReturned, bookedNum });
    },
  )
  .openapi(
    createRoute({
      method: 'post',
      path: '/queue/cancel',
      tags,
      summary: 'Leave the queue of a class before it starts. Idempotency-Key accepted.',
      middleware: [requireAuth, idempotent] as const,
      request: { body: { content: { 'application/json': { schema: BookingIdBody } }, required: true } },
      responses: { 200: json(CancelAnswer), ...bookingRefusals },
    }),
    async (c) => {
      const { deps } = c.var;
      const me = member(c);
      const r = await cancelQueue(deps.db, deps.clock, me, c.req.valid('json').bookingId);
      const bookedNum = await bookedCount(deps.db, deps.clock.now(), me.accountId);
      return ok(c, { ...r, bookedNum });
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/mine',
      tags,
      summary: 'My bookings and queue entries: upcoming (soonest first) or past (latest first), paged',
      middleware: [requireAuth] as const,
      request: {
        query: MineQuery,
      },
      responses: { 200: json(paged(MyBooking)), 400: refusals[400], 401: refusals[401] },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const { scope, pagenum, pagesize, month } = c.req.valid('query');
      return ok(c, await myBookings(deps.db, deps.clock.now(), member(c).accountId, scope, pagenum, pagesize, locale, month));
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/ics',
      tags,
      summary: 'My booking as an iCalendar file (Asia/Shanghai); the token cookie also works, so a plain link downloads it',
      middleware: [requireAuthOrCookie] as const,
      request: { query: BookingIdQuery },
      responses: {
        200: { description: 'text/calendar', content: { 'text/calendar': { schema: z.string() } } },
        400: refusals[400],
        401: refusals[401],
        404: refusals[404],
      },
    }),
    async (c) => {
      const { deps, locale } = c.var;
      const { bookingId } = c.req.valid('query');
      const row = await bookingForCalendar(deps.db, member(c).accountId, bookingId);
      if (!row) throw new ApiError(Errors.notFound, { field: 'bookingId' });
      const title = loc(locale, row.c.title, row.c.titleEn);
      const club = loc(locale, row.club.name, row.club.nameEn);
      const body = icsFile({
        uid: `booking-${row.b.id}@yoga-club`,
        title: `${title} · ${club}`,
        location: `${club}, ${loc(locale, row.club.address, row.club.addressEn)}`,
        description: `${loc(locale, row.c.room, row.c.roomEn)}`,
        start: row.c.startsAt,
        end: new Date(row.c.startsAt.getTime() + row.c.durationMin * 60_000),
        stamp: deps.clock.now(),
      });
      return c.body(body, 200, {
        'Content-Type': 'text/calendar; charset=utf-8',
        'Content-Disposition': `attachment; filename="booking-${row.b.id}.ics"`,
      });
    },
  );
