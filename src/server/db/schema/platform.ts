import { index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** Idempotency keys of DESIGN.md §4: the first answer is kept 24 h and replayed for a retry. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: serial('id').primaryKey(),
    /** "a:<accountId>" or "v:<ip>" so two callers never share a key */
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    bodyHash: text('body_hash').notNull(),
    /** null while the first request is still running */
    status: integer('status'),
    response: jsonb('response'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    /** while running: the request that owns the key (a retry that took it over has its own) */
    owner: text('owner'),
    /** while running: the owner extends it; past it the owner is gone and a retry takes the key over */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
  },
  (t) => [uniqueIndex('idempotency_scope_key').on(t.scope, t.key), index('idempotency_created').on(t.createdAt)],
);

/** Page views (spec §2: every navigation reports one). */
export const pageViews = pgTable(
  'page_views',
  {
    id: serial('id').primaryKey(),
    path: text('path').notNull(),
    accountId: integer('account_id'),
    visitorId: text('visitor_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('page_views_at').on(t.at)],
);

/** Jobs any process may claim with FOR UPDATE SKIP LOCKED, run by the injected clock. */
export const jobs = pgTable(
  'jobs',
  {
    id: serial('id').primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    runAt: timestamp('run_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    doneAt: timestamp('done_at', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [index('jobs_due').on(t.runAt)],
);

/**
 * Rate-limit counters of the open endpoints (decision 047): one row per key and fixed window, counted
 * up by one upsert, so every server process shares the count. Old windows go with housekeeping.
 */
export const rateHits = pgTable(
  'rate_hits',
  {
    /** "<rule>:<what is limited>", e.g. "notify:ip:203.0.113.9" */
    key: text('key').notNull(),
    windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
    hits: integer('hits').notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index('rate_hits_window').on(t.windowStart)],
);
