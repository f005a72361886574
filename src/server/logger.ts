import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream } from 'pino';

/**
 * The server's logger (pino): one JSON line per event, info and warnings on stdout, errors on
 * stderr, each line of a request carrying that request's id (`reqId`, see `inRequest`). Code logs
 * through this port, `log.info(msg, fields)`, so tests can swap in `memoryLogger`.
 */
export interface Logger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

/** What every log line written while handling one request carries. */
interface RequestScope {
  reqId: string;
}

const scope = new AsyncLocalStorage<RequestScope>();

/** Runs a request's handling with its id, so every line logged on the way carries it. */
export function inRequest<T>(reqId: string, run: () => T): T {
  return scope.run({ reqId }, run);
}

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return scope.getStore()?.reqId;
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
      mixin: () => ({ ...scope.getStore() }),
    },
    streams,
  );
  return {
    info: (m, f) => p.info(f ?? {}, m),
    warn: (m, f) => p.warn(f ?? {}, m),
    error: (m, f) => p.error(f ?? {}, m),
  };
}

/** A logger that keeps lines in memory, for tests that read what was logged (with the request id, if any). */
export function memoryLogger(): Logger & { lines: { level: string; msg: string; fields?: Record<string, unknown>; reqId?: string }[] } {
  const lines: { level: string; msg: string; fields?: Record<string, unknown>; reqId?: string }[] = [];
  const keep = (level: string) => (msg: string, fields?: Record<string, unknown>) => {
    const reqId = currentRequestId();
    lines.push({ level, msg, fields, ...(reqId ? { reqId } : {}) });
  };
  return { lines, info: keep('info'), warn: keep('warn'), error: keep('error') };
}
