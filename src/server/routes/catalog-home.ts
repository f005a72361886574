import { createRoute, z } from '@hono/zod-openapi';
import { and, asc, count, desc, eq, gt, ilike, isNull, lte, min, or } from 'drizzle-orm';
import { FIXED_DICTS, dictLabel } from '../../domain/catalog';
import { HOME_ACTIVITY_PAGE_SIZE } from '../../domain/limits';
import { Errors } from '../../domain/errors';
import { activities, banners, classTypes, clubs, goods, notifications, styles, teachers } from '../db/schema/index';
import { optionalAuth, requireAuth } from '../http/auth';
import { idempotent } from '../http/idempotency';
import { activityDetail, signUp } from '../services/activities/signup';
import { cachedOk, PUBLIC } from '../http/catalog-cache';
import { createRouter, envelope, ok, refusals } from '../http/router';
import { activityOut, bannerOut, clubOut, containsPattern, loc, teacherOut } from '../services/catalog';
import { searchClasses } from '../services/booking/views';
import { goodsOut } from '../services/catalog-goods';
import { IdQuery, paged, pagingQuery } from '../../contracts/common';
import { Activity, ActivityDetail, ActivitySignupBody, Banner, DictItem, Notice, SearchResult } from '../../contracts/catalog';
import { DictQuery, SearchQuery } from '../../contracts/catalog-queries';

const json = <T extends z.ZodTypeAny>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema: envelope(schema) } },
});
const SEARCH_LIMIT = 20;
const NOTICE_LIMIT = 50;

/** Home page: banners, notices, activities, search and dictionaries (spec §7). */
export const home = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/banner',
      tags: ['home'],
      summary: 'Home carousel',
      responses: { 200: json(z.array(Banner)) },
    }),
    (c) =>
      cachedOk(c, { audience: PUBLIC }, async () => {
        const rows = await c.var.deps.db.select().from(banners).where(eq(banners.active, true)).orderBy(asc(banners.sort), asc(banners.id));
        return { data: rows.map((b) => bannerOut(b, c.var.locale)) };
      }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/search',
      tags: ['home'],
      summary:
        'Classes of the next week, clubs, teachers, goods on shelf and live activities matching the keywords (Chinese or English), grouped',
      middleware: [optionalAuth] as const,
      request: { query: SearchQuery },
      responses: { 200: json(SearchResult), 400: refusals[400] },
    }),
    async (c) => {
      const { keywords } = c.req.valid('query');
      const { db, clock } = c.var.deps;
      const locale = c.var.locale;
      const p = containsPattern(keywords);
      const caller = c.var.caller;
      const [classRows, clubRows, teacherRows, goodsRows, activityRows] = await Promise.all([
        searchClasses(
          db,
          clock.now(),
          keywords,
          caller ? { accountId: caller.accountId, level: caller.level } : undefined,
          locale,
          SEARCH_LIMIT,
        ),
        db
          .select()
          .from(clubs)
          .where(or(ilike(clubs.name, p), ilike(clubs.nameEn, p), ilike(clubs.address, p), ilike(clubs.addressEn, p)))
          .orderBy(asc(clubs.sort), asc(clubs.id))
          .limit(SEARCH_LIMIT),
        db
          .select({ t: teachers, club: { name: clubs.name, nameEn: clubs.nameEn } })
          .from(teachers)
          .leftJoin(clubs, eq(clubs.id, teachers.clubId))
          .where(or(ilike(teachers.name, p), ilike(teachers.nameEn, p)))
          .orderBy(asc(teachers.sort), asc(teachers.id))
          .limit(SEARCH_LIMIT),
        db
          .select()
          .from(goods)
          .where(and(eq(goods.onShelf, true), or(ilike(goods.name, p), ilike(goods.nameEn, p))))
          .orderBy(asc(goods.sort), asc(goods.id))
          .limit(SEARCH_LIMIT),
        db
          .select()
          .from(activities)
          .where(and(gt(activities.endsAt, clock.now()), or(ilike(activities.title, p), ilike(activities.titleEn, p))))
          .orderBy(asc(activities.sort), asc(activities.id))
          .limit(SEARCH_LIMIT),
      ]);
      const member = c.var.caller !== undefined;
      return ok(c, {
        classes: classRows,
        clubs: clubRows.map((r) => clubOut(r, locale)),
        teachers: teacherRows.map((r) => teacherOut(r.t, r.club, locale)),
        goods: goodsRows.map((g) => goodsOut(g, locale, member)),
        activities: activityRows.map((a) => activityOut(a, locale)),
      });
    },
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/dict/select',
      tags: ['home'],
      summary: 'A dictionary (card types, goods kinds, class types, styles, difficulty, time of day, effect)',
      request: { query: DictQuery },
      responses: { 200: json(z.array(DictItem)), 400: refusals[400] },
    }),
    (c) =>
      cachedOk(c, { audience: PUBLIC }, async () => {
        const { type } = c.req.valid('query');
        const locale = c.var.locale;
        const fixed = FIXED_DICTS[type];
        if (fixed) return { data: fixed.map((e) => ({ value: e.value, label: dictLabel(e, locale) })) };
        const table = type === 'classType' ? classTypes : styles;
        const rows = await c.var.deps.db.select().from(table).orderBy(asc(table.sort), asc(table.id));
        return { data: rows.map((r) => ({ value: r.key, label: loc(locale, r.name, r.nameEn) })) };
      }),
  );

/** Notices for a visitor or member (/api/sys/notification). */
export const noticeRoutes = createRouter().openapi(
  createRoute({
    method: 'get',
    path: '/',
    tags: ['home'],
    summary: "System notices; with a valid token also the member's own",
    middleware: [optionalAuth] as const,
    responses: { 200: json(z.array(Notice)) },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const caller = c.var.caller;
    const notices = async (now: Date) => {
      const mine = caller
        ? or(isNull(notifications.accountId), eq(notifications.accountId, caller.accountId))
        : isNull(notifications.accountId);
      const rows = await db
        .select()
        .from(notifications)
        .where(and(mine, lte(notifications.createdAt, now)))
        .orderBy(desc(notifications.createdAt), desc(notifications.id))
        .limit(NOTICE_LIMIT);
      return rows.map((n) => ({
        id: n.id,
        title: loc(c.var.locale, n.title, n.titleEn),
        body: loc(c.var.locale, n.body, n.bodyEn),
        createdAt: n.createdAt.toISOString(),
        personal: n.accountId !== null,
        read: n.readAt !== null,
      }));
    };
    // a member's own notices and read marks are never cached (decision 043)
    if (caller) {
      c.header('Cache-Control', 'private, no-store');
      return ok(c, await notices(clock.now()));
    }
    return cachedOk(c, { audience: PUBLIC, personal: true }, async () => {
      const now = clock.now();
      // a system notice dated ahead appears when its time comes
      const [next] = await db
        .select({ at: min(notifications.createdAt) })
        .from(notifications)
        .where(and(isNull(notifications.accountId), gt(notifications.createdAt, now)));
      return { data: await notices(now), until: next?.at ?? undefined };
    });
  },
);

/** Activities on the Homepage and their detail (/api/activity). */
export const activityRoutes = createRouter()
  .openapi(
    createRoute({
      method: 'get',
      path: '/goods',
      tags: ['home'],
      summary: 'Current and coming activities, paged (home shows page 0 of 3)',
      request: { query: z.object(pagingQuery(HOME_ACTIVITY_PAGE_SIZE)) },
      responses: { 200: json(paged(Activity)), 400: refusals[400] },
    }),
    (c) =>
      cachedOk(c, { audience: PUBLIC }, async () => {
        const { pagenum, pagesize } = c.req.valid('query');
        const { db, clock } = c.var.deps;
        const live = gt(activities.endsAt, clock.now());
        // the list changes by itself when the first live activity ends
        const [total] = await db
          .select({ n: count(), firstEnd: min(activities.endsAt) })
          .from(activities)
          .where(live);
        const rows = await db
          .select()
          .from(activities)
          .where(live)
          .orderBy(asc(activities.sort), asc(activities.startsAt), asc(activities.id))
          .limit(pagesize)
          .offset(pagenum * pagesize);
        return {
          data: { list: rows.map((a) => activityOut(a, c.var.locale)), total: total?.n ?? 0, pagenum, pagesize },
          until: total?.firstEnd ?? undefined,
        };
      }),
  )
  .openapi(
    createRoute({
      method: 'get',
      path: '/detail',
      tags: ['home'],
      summary:
        'One activity with its full text; one that takes sign-ups says its places left and (with a token) whether I have one or may sign up',
      middleware: [optionalAuth] as const,
      request: { query: IdQuery },
      responses: { 200: json(ActivityDetail), 400: refusals[400], 404: refusals[404] },
    }),
    async (c) => {
      const d = await activityDetail(c.var.deps.db, c.var.deps.clock.now(), c.req.valid('query').id, c.var.locale, c.var.caller?.accountId);
      // a visitor is asked to log in first
      return ok(c, c.var.caller || !d.signup ? d : { ...d, signup: { allowed: false, code: Errors.pleaseLogin.code } });
    },
  );

/** A member signs up for an activity (/api/customers/activities). */
export const activitySignupRoutes = createRouter().openapi(
  createRoute({
    method: 'post',
    path: '/signup',
    tags: ['home'],
    summary:
      'Sign up to an activity that takes sign-ups: places never over (the activity locked while counted); 70150 no sign-up, 70153 over, 70152 already signed up, 70151 full; 404 unknown. Idempotency-Key accepted.',
    middleware: [requireAuth, idempotent] as const,
    request: { body: { content: { 'application/json': { schema: ActivitySignupBody } }, required: true } },
    responses: { 200: json(ActivityDetail), 400: refusals[400], 401: refusals[401], 404: refusals[404], 409: refusals[409] },
  }),
  async (c) => {
    const { db, clock } = c.var.deps;
    const id = c.req.valid('json').id;
    const me = c.var.caller!.accountId;
    await signUp(db, clock, me, id);
    return ok(c, await activityDetail(db, clock.now(), id, c.var.locale, me));
  },
);
