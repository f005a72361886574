import { describe, expect, it } from 'vitest';
import { isOk, OK } from '../../src/domain/envelope';

describe('the response envelope (spec §7: success needs code 200 and status true)', () => {
  it('success is code 200 with status true', () => {
    expect(OK).toBe(200);
    expect(isOk({ code: 200, status: true })).toBe(true);
  });

  it('anything else is a refusal: a catalogue code, a 401 in the body, or status false', () => {
    expect(isOk({ code: 10001, status: false })).toBe(false);
    expect(isOk({ code: 401, status: false })).toBe(false);
    expect(isOk({ code: 200, status: false })).toBe(false);
    expect(isOk({ code: 10001, status: true })).toBe(false);
  });
});
