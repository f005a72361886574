import { createRoute, z } from '@hono/zod-openapi';
import { and, arrayContains, asc, eq, type SQL } from 'drizzle-orm';
import { Errors } from '../../domain/errors';
import { clubs, teachers } from '../db/schema/index';
import { greatCircleMetres } from '../gateways/maps';
import { ApiError } from '../http/api-error';
import { cachedOk, PUBLIC } from '../http/catalog-cache';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { clubOut, loc, teacherOut } from '../services/catalog';
import { IdQuery } from '../../contracts/common';
import { Club, ClubDetail, ClubDistance, Teacher, TeacherDetail } from '../../contracts/catalog';
import { DistanceQuery, TeachersQuery } from '../../contracts/catalog-queries';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const tags = ['school'];

/** Clubs and teachers (spec §7 GET /school/clubs; the rest designed in its style). */
export const school = createRouter()
  .openapi(createRoute({ method: 'get', path: '/clubs', tags, summary: 'All clubs', responses: { 200: json(z.array(Club)) } }), (c) =>
    cachedOk(c, { audience: PUBLIC }, async () => {
      const rows = await c.var.deps.db.select().from(clubs).orderBy(asc(clubs.sort), asc(clubs.id));
      return { data: rows.map((r) => clubOut(r, c.var.locale)) };
    }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/clubs/detail',
      tags,
      summary: 'One club with its teachers',
      request: { query: IdQuery },
      responses: { 200: json(ClubDetail), 400: refusals[400], 404: refusals[404] },
    }),
    (c) =>
      cachedOk(c, { audience: PUBLIC }, async () => {
        const { id } = c.req.valid('query');
        const { db } = c.var.deps;
        const locale = c.var.locale;
        const [club] = await db.select().from(clubs).where(eq(clubs.id, id));
        if (!club) throw new ApiError(Errors.notFound);
        const staff = await db.select().from(teachers).where(eq(teachers.clubId, id)).orderBy(asc(teachers.sort), asc(teachers.id));
        return {
          data: {
            ...clubOut(club, locale),
            intro: loc(locale, club.intro, club.introEn),
            teachers: staff.map((t) => teacherOut(t, club, locale)),
          },
        };
      }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/clubs/distance',
      tags,
      summary: 'Distance in metres from a point to each club (maps provider; straight line if it fails)',
      request: { query: DistanceQuery },
      responses: { 200: json(z.array(ClubDistance)), 400: refusals[400] },
    }),
    async (c) => {
      const from = c.req.valid('query');
      const { db, gateways, log } = c.var.deps;
      const rows = await db.select().from(clubs).orderBy(asc(clubs.sort), asc(clubs.id));
      const to = rows.map((r) => ({ lat: r.lat, lng: r.lng }));
      let metres: number[];
      try {
        metres = to.length ? await gateways.maps.distances(from, to) : [];
      } catch (err) {
        log.warn('maps distance failed, using straight-line distance', { error: err instanceof Error ? err.message : String(err) });
        metres = to.map((p) => greatCircleMetres(from, p));
      }
      return ok(
        c,
        rows.map((r, i) => ({
          id: r.id,
          name: loc(c.var.locale, r.name, r.nameEn),
          distance: Math.round(metres[i] ?? greatCircleMetres(from, to[i]!)),
        })),
      );
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/teachers',
      tags,
      summary: 'Teachers, optionally of one club or one style',
      request: { query: TeachersQuery },
      responses: { 200: json(z.array(Teacher)), 400: refusals[400] },
    }),
    (c) =>
      cachedOk(c, { audience: PUBLIC }, async () => {
        const { clubId, style } = c.req.valid('query');
        const where: SQL[] = [];
        if (clubId !== undefined) where.push(eq(teachers.clubId, clubId));
        if (style !== undefined) where.push(arrayContains(teachers.styles, [style]));
        const rows = await c.var.deps.db
          .select({ t: teachers, club: { name: clubs.name, nameEn: clubs.nameEn } })
          .from(teachers)
          .leftJoin(clubs, eq(clubs.id, teachers.clubId))
          .where(and(...where))
          .orderBy(asc(teachers.sort), asc(teachers.id));
        return { data: rows.map((r) => teacherOut(r.t, r.club, c.var.locale)) };
      }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/teachers/detail',
      tags,
      summary: "One teacher with the teacher's club",
      request: { query: IdQuery },
      responses: { 200: json(TeacherDetail), 400: refusals[400], 404: refusals[404] },
    }),
    (c) =>
      cachedOk(c, { audience: PUBLIC }, async () => {
        const { id } = c.req.valid('query');
        const locale = c.var.locale;
        const [row] = await c.var.deps.db
          .select({ t: teachers, club: clubs })
          .from(teachers)
          .leftJoin(clubs, eq(clubs.id, teachers.clubId))
          .where(eq(teachers.id, id));
        if (!row) throw new ApiError(Errors.notFound);
        return {
          data: {
            ...teacherOut(row.t, row.club, locale),
            bio: loc(locale, row.t.bio, row.t.bioEn),
            club: row.club ? clubOut(row.club, locale) : null,
          },
        };
      }),
  );
