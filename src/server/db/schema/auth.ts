import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** One account table with roles (DESIGN.md §4). Phone is the login name. */
export const accounts = pgTable(
  'accounts',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').notNull(),
    /** scrypt$N$r$p$salt$hash, or null for a member who only ever logged in by code */
    passwordHash: text('password_hash'),
    /** member | teacher | staff */
    role: text('role').notNull().default('member'),
    /** spec §6: level '1' has the shorter booking window */
    level: text('level').notNull().default('2'),
    name: text('name'),
    avatarUrl: text('avatar_url'),
    wxNickname: text('wx_nickname'),
    wxAvatar: text('wx_avatar'),
    banned: boolean('banned').notNull().default(false),
    /**
     * the password is an initial one the front desk handed over (decision 054): a password login opens
     * a session that may only set a new one; setting one (change or reset) clears this
     */
    passwordMustChange: boolean('password_must_change').notNull().default(false),
    /** the account was closed at the member's request (decision 057): its personal data erased, no login reaches it */
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [uniqueIndex('accounts_phone').on(t.phone)],
);

/** A login session: the token is only stored as its SHA-256. */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    /** opened by a password login with an initial password (decision 054): it may only set a new password and log out */
    passwordChangeOnly: boolean('password_change_only').notNull().default(false),
  },
  (t) => [uniqueIndex('sessions_token').on(t.tokenHash), index('sessions_account').on(t.accountId)],
);

/** SMS verification codes (stored hashed), also the ledger the send caps count. */
export const smsCodes = pgTable(
  'sms_codes',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    ip: text('ip').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    tries: integer('tries').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('sms_codes_phone').on(t.phone, t.createdAt), index('sms_codes_ip').on(t.ip, t.createdAt)],
);

/**
 * Wrong passwords and wrong codes, counted per phone and per network (login-guard.ts): past a few
 * a security check is asked for, then tries wait longer and longer; 10 wrong passwords an hour lock
 * the phone (10015).
 */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').notNull(),
    /** the network the try came from (client-ip.ts); null for rows older than this column */
    ip: text('ip'),
    /** password | code */
    kind: text('kind').notNull().default('password'),
    at: timestamp('at', { withTimezone: true }).notNull(),
  },
  (t) => [index('login_failures_phone').on(t.phone, t.at), index('login_failures_ip').on(t.ip, t.at)],
);

/** Single-use password-reset tickets (10 min), stored hashed. */
export const resetTickets = pgTable(
  'reset_tickets',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    ticketHash: text('ticket_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('reset_tickets_hash').on(t.ticketHash)],
);

/** A messaging-app open id bound to an account. */
export const openIdBindings = pgTable(
  'openid_bindings',
  {
    openId: text('open_id').primaryKey(),
    accountId: integer('account_id')
      .notNull()
      .references(() => accounts.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('openid_bindings_account').on(t.accountId)],
);

/**
 * Short-lived ticket for an open id (decision 003). Scope `base`: an open id not yet bound, single use,
 * the next phone login binds it. Scope `userinfo`: a friend who authorized with the user-info scope to
 * pay a member's order, with the nickname and avatar the provider gave; not spent by paying.
 */
export const openIdTickets = pgTable(
  'openid_tickets',
  {
    id: serial('id').primaryKey(),
    ticketHash: text('ticket_hash').notNull(),
    openId: text('open_id').notNull(),
    avatar: text('avatar'),
    nickname: text('nickname'),
    /** base | userinfo */
    scope: text('scope').$type<'base' | 'userinfo'>().notNull().default('base'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('openid_tickets_hash').on(t.ticketHash),
    check('openid_tickets_scope_check', sql`${t.scope} in ('base', 'userinfo')`),
  ],
);

/** In-app notices: accountId null means a system notice for everyone. */
export const notifications = pgTable(
  'notifications',
  {
    id: serial('id').primaryKey(),
    accountId: integer('account_id').references(() => accounts.id),
    title: text('title').notNull(),
    titleEn: text('title_en'),
    body: text('body').notNull(),
    bodyEn: text('body_en'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    readAt: timestamp('read_at', { withTimezone: true }),
  },
  (t) => [index('notifications_account').on(t.accountId, t.createdAt)],
);

/** OAuth round trips in flight: the state we sent (stored hashed) carries the same-origin path to return to. */
export const oauthStates = pgTable(
  'oauth_states',
  {
    id: serial('id').primaryKey(),
    stateHash: text('state_hash').notNull(),
    returnTo: text('return_to').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('oauth_states_hash').on(t.stateHash)],
);

/** Demo mode only: the codes the local SMS adapter "sent", so /api/dev/sms/:phone can show the last one. */
export const devSmsOutbox = pgTable(
  'dev_sms_outbox',
  {
    id: serial('id').primaryKey(),
    phone: text('phone').notNull(),
    code: text('code').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('dev_sms_outbox_phone').on(t.phone, t.id)],
);

/** Demo mode only: tickets the captcha stand-in's widget issued, spent by one verification each. */
export const devCaptchaTickets = pgTable('dev_captcha_tickets', {
  id: serial('id').primaryKey(),
  ticketHash: text('ticket_hash').notNull().unique(),
  randstr: text('randstr').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/** Demo mode only: authorization codes issued by the local messaging-app OAuth stand-in (single use). */
export const wechatStandInCodes = pgTable('wechat_standin_codes', {
  code: text('code').primaryKey(),
  appId: text('app_id').notNull(),
  openId: text('open_id').notNull(),
  /** the scope the code was authorized for: snsapi_base | snsapi_userinfo */
  scope: text('scope').notNull().default('snsapi_base'),
  /** the nickname /sns/userinfo answers for this authorization (null: the open id's default) */
  nickname: text('nickname'),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * Demo mode only: the open ids the local messaging-app OAuth stand-in has issued, per app (as WeChat
 * issues one open id per user and app). The WeChat Pay stand-in takes only these as payers.
 */
export const wechatStandInOpenIds = pgTable(
  'wechat_standin_openids',
  {
    appId: text('app_id').notNull(),
    openId: text('open_id').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.openId] })],
);
