import pino, { type DestinationStream } from 'pino';

/**
 * The server's logger (pino): one JSON line per event, info and warnings on stdout, errors on
 * stderr. Code logs through this port, `log.info(msg, fields)`, so tests can swap in `memoryLogger`.
 * A request is handled with `log.forRequest(id)` (its deps' logger, set in app.ts), so each line of
 * the request carries the request's id (`reqId`). Passed, not found: an AsyncLocalStorage would find
 * it from anywhere, but on node 20 it turns on promise hooks for every promise of the process, which
 * cost a sixth of the booking race's decisions (decision 048).
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** the same logger, each of its lines carrying this request's id */
  forRequest(reqId: string): Logger;
}

/**
 * A pino logger behind the Logger port. `silent` writes nothing (LOG=0); `destination` replaces
 * stdout and stderr with one stream (tests read what was written).
 */
export function createLogger(opts: { silent?: boolean; destination?: DestinationStream } = {}): Logger {
  const streams = opts.destination
    ? opts.destination
    : pino.multistream(
        [
          { level: 'info', stream: process.stdout },
          { level: 'error', stream: process.stderr },
        ],
        // each line to the stream of the highest level it reaches: errors only on stderr
        { dedupe: true },
      );
  const p = pino(
    {
      level: opts.silent ? 'silent' : 'info',
      base: undefined,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    streams,
  );
  const logger = (reqId?: string): Logger => {
    const fieldsOf = (f: Record<string, unknown> | undefined) => (reqId === undefined ? (f ?? {}) : { reqId, ...f });
    return {
      info: (m, f) => p.info(fieldsOf(f), m),
      warn: (m, f) => p.warn(fieldsOf(f), m),
      error: (m, f) => p.error(fieldsOf(f), m),
      forRequest: (id) => logger(id),
    };
  };
  return logger();
}

/** A logger that keeps lines in memory, for tests that read what was logged (with the request id, if any). */
export function memoryLogger(): Logger & { lines: { level: string; msg: string; fields?: Record<string, unknown>; reqId?: string }[] } {
  const lines: { level: string; msg: string; fields?: Record<string, unknown>; reqId?: string }[] = [];
  const logger = (reqId?: string): Logger => {
    const keep = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
      lines.push({ level, msg, fields, ...(reqId ? { reqId } : {}) });
    };
    return { info: keep('info'), warn: keep('warn'), error: keep('error'), forRequest: (id) => logger(id) };
  };
  return Object.assign(logger(), { lines });
}
