import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, memoryLogger } from '../../src/server/logger';

/** A destination that keeps each JSON line pino writes. */
function lines() {
  const out: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n').filter(Boolean)) out.push(JSON.parse(l) as Record<string, unknown>);
      done();
    },
  });
  return { out, stream };
}

describe('the server logger (pino)', () => {
  it('writes one JSON line per event: level, ISO time, message and fields', () => {
    const { out, stream } = lines();
    createLogger({ destination: stream }).warn('payment close failed', { orderNo: 'N1' });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ level: 'warn', msg: 'payment close failed', orderNo: 'N1' });
    expect(String(out[0]!.time)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('puts the request id on every line of a request’s logger, and none on the server’s', () => {
    const { out, stream } = lines();
    const log = createLogger({ destination: stream });
    const request = log.forRequest('req-1');
    request.info('first');
    request.error('after an await', { error: 'x' });
    log.info('outside');
    expect(out.map((l) => [l.msg, l.reqId, l.error])).toEqual([
      ['first', 'req-1', undefined],
      ['after an await', 'req-1', 'x'],
      ['outside', undefined, undefined],
    ]);
  });

  it('keeps the request id in memory the same way (the tests’ logger)', () => {
    const log = memoryLogger();
    log.forRequest('req-2').warn('mine', { n: 1 });
    log.warn('theirs');
    expect(log.lines).toEqual([
      { level: 'warn', msg: 'mine', fields: { n: 1 }, reqId: 'req-2' },
      { level: 'warn', msg: 'theirs', fields: undefined },
    ]);
  });

  it('writes nothing when silent (LOG=0)', () => {
    const { out, stream } = lines();
    createLogger({ silent: true, destination: stream }).error('boom');
    expect(out).toEqual([]);
  });
});
