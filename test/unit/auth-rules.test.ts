import { describe, expect, it } from 'vitest';
import { cleanAvatarUrl, cleanNickname, safeReturnPath } from '../../src/server/services/auth/rules';
import { shanghaiDayStart } from '../../src/domain/time';

describe('shanghaiDayStart: the daily SMS cap counts from midnight in Asia/Shanghai', () => {
  it.each([
    ['2026-11-20T02:00:00Z', '2026-11-19T16:00:00.000Z'], // 10:00 Shanghai
    ['2026-11-20T15:59:59Z', '2026-11-19T16:00:00.000Z'], // 23:59:59 Shanghai
    ['2026-11-20T16:00:00Z', '2026-11-20T16:00:00.000Z'], // midnight Shanghai
    ['2026-11-19T16:00:00.001Z', '2026-11-19T16:00:00.000Z'],
  ])('%s -> %s', (now, start) => {
    expect(shanghaiDayStart(new Date(now)).toISOString()).toBe(start);
  });
});

describe('safeReturnPath: OAuth comes back to a same-origin path only', () => {
  const base = 'https://club.example';
  it.each([
    ['/vipcard', '/vipcard'],
    ['/mine/coupons/all?x=1#top', '/mine/coupons/all?x=1#top'],
    ['/takecourse/../mine', '/mine'],
    ['https://evil.example/x', '/'],
    ['https://club.example/mine', '/'],
    ['//evil.example/x', '/'],
    ['/\\evil.example', '/'],
    ['\\\\evil.example', '/'],
    ['javascript:alert(1)', '/'],
    ['mine', '/'],
    ['/x\r\nSet-Cookie: a=b', '/'],
    ['', '/'],
    [undefined, '/'],
  ])('%j -> %s', (from, expected) => {
    expect(safeReturnPath(from, base)).toBe(expected);
  });
});

describe('client-given messaging profile', () => {
  it('keeps only http(s) avatars of sane length', () => {
    expect(cleanAvatarUrl(' https://wx.example/a.png ')).toBe('https://wx.example/a.png');
    expect(cleanAvatarUrl('http://wx.example/a.png')).toBe('http://wx.example/a.png');
    expect(cleanAvatarUrl('javascript:alert(1)')).toBeUndefined();
    expect(cleanAvatarUrl('data:image/png;base64,AAAA')).toBeUndefined();
    expect(cleanAvatarUrl(`https://wx.example/${'a'.repeat(1000)}`)).toBeUndefined();
    expect(cleanAvatarUrl('')).toBeUndefined();
  });

  it('trims nicknames, drops control characters, keeps at most 64 characters', () => {
    expect(cleanNickname('  小林 ')).toBe('小林');
    expect(cleanNickname('a\u0000b\nc')).toBe('abc');
    expect(cleanNickname('瑜'.repeat(100))).toBe('瑜'.repeat(64));
    expect(cleanNickname('   ')).toBeUndefined();
  });
});
