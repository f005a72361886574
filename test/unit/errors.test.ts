import { describe, expect, it } from 'vitest';
import { allErrors, errorByCode, Errors } from '../../src/domain/errors';

describe('the error catalogue (DESIGN.md §4, §7)', () => {
  it('defines each code once', () => {
    const codes = allErrors().map((e) => e.code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('finds a definition by code', () => {
    expect(errorByCode(10006)).toBe(Errors.banned);
    expect(errorByCode(10006)?.http).toBe(403);
    expect(errorByCode(99999)).toBeUndefined();
  });

  it('never answers a login refusal with HTTP 401', () => {
    for (const e of allErrors().filter((x) => x.code >= 10001 && x.code < 11000)) expect(e.http).not.toBe(401);
  });

  it('keeps codes in their ranges', () => {
    for (const e of allErrors()) {
      const ok = e.code === 401 || (e.code >= 10000 && e.code < 80000);
      expect(ok, `code ${e.code}`).toBe(true);
    }
  });

  it('gives every code a message', () => {
    for (const e of allErrors()) expect(e.message.message ?? e.message.id, `code ${e.code}`).toBeTruthy();
  });
});
