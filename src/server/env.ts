import type { Clock } from '../domain/clock';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Gateways } from './gateways/index';
import type { Locale } from './i18n';
import type { Logger } from './logger';

/** What every handler can reach through the context (no globals: tests swap each one). */
export interface Deps {
  db: Db;
  dbKind: 'pglite' | 'postgres';
  clock: Clock;
  config: Config;
  gateways: Gateways;
  log: Logger;
}

/** The authenticated caller, set by requireAuth. */
export interface Caller {
  accountId: number;
  sessionId: number;
  role: 'member' | 'teacher' | 'staff';
  level: string;
  phone: string;
  /** the session came from a login with an initial password (decision 054): it may only set a new one */
  passwordChangeOnly: boolean;
}

/** Hono's Env for every sub-app. */
export interface AppEnv {
  Variables: {
    deps: Deps;
    locale: Locale;
    caller?: Caller;
    /** set by hono/request-id; every log line of the request carries it */
    requestId: string;
  };
}
