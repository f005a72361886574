import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, inRequest } from '../../src/server/logger';

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

  it('puts the request id on every line logged while a request is handled, and none outside one', async () => {
    const { out, stream } = lines();
    const log = createLogger({ destination: stream });
    await inRequest('req-1', async () => {
      log.info('first');
      await new Promise((r) => setTimeout(r, 1));
      log.error('after an await', { error: 'x' });
    });
    log.info('outside');
    expect(out.map((l) => [l.msg, l.reqId])).toEqual([
      ['first', 'req-1'],
      ['after an await', 'req-1'],
      ['outside', undefined],
    ]);
  });

  it('writes nothing when silent (LOG=0)', () => {
    const { out, stream } = lines();
    createLogger({ silent: true, destination: stream }).error('boom');
    expect(out).toEqual([]);
  });
});
