import { describe, expect, it } from 'vitest';
import * as limits from '../../src/domain/limits';

describe('business constants of spec §9 (and the login limits of DESIGN.md §7)', () => {
  it('cookies last 300 days, in seconds for Set-Cookie Max-Age', () => {
    expect(limits.COOKIE_MAX_AGE_DAYS).toBe(300);
    expect(limits.COOKIE_MAX_AGE_SECONDS).toBe(300 * 86_400);
    expect(limits.TOKEN_TTL_DAYS).toBe(300);
  });

  it('request time-out 10 s, redirect delay after HTTP 401 2 s, toast 2000 ms, input focus delay 300 ms', () => {
    expect(limits.REQUEST_TIMEOUT_MS).toBe(10_000);
    expect(limits.HTTP_401_REDIRECT_DELAY_MS).toBe(2_000);
    expect(limits.TOAST_DURATION_MS).toBe(2_000);
    expect(limits.CONFIRM_INPUT_FOCUS_DELAY_MS).toBe(300);
  });

  it('home activity list page size 3; password 6 to 15 characters; real name at most 20; survey skip 7 days', () => {
    expect(limits.HOME_ACTIVITY_PAGE_SIZE).toBe(3);
    expect([limits.PASSWORD_MIN, limits.PASSWORD_MAX]).toEqual([6, 15]);
    expect(limits.REAL_NAME_MAX).toBe(20);
    expect(limits.SURVEY_SKIP_DAYS).toBe(7);
  });

  it('SMS codes: 6 digits, valid 5 minutes, one a minute per phone (10007); tickets last 10 minutes (decision 003); 5 tries a code and 10 wrong passwords an hour (10015)', () => {
    expect(limits.SMS_CODE_LENGTH).toBe(6);
    expect(limits.SMS_CODE_TTL_MS).toBe(300_000);
    expect(limits.SMS_CODE_MAX_TRIES).toBe(5);
    expect(limits.SMS_RESEND_COOLDOWN_S).toBe(60);
    expect(limits.RESET_TICKET_TTL_MS).toBe(600_000);
    expect(limits.OPENID_TICKET_TTL_MS).toBe(600_000);
    expect(limits.WRONG_PASSWORD_LIMIT_PER_HOUR).toBe(10);
  });

  it('every calendar rule runs in Asia/Shanghai', () => {
    expect(limits.TIME_ZONE).toBe('Asia/Shanghai');
  });
});
