import { describe, expect, it } from 'vitest';
import { activeTabFor, FOOTER_TABS } from '../../src/app/layout/tabs';

describe('footer tabs (spec §2)', () => {
  it('has the five tabs with the spec paths, in order', () => {
    expect(FOOTER_TABS.map((t) => [t.key, t.to])).toEqual([
      ['home', '/'],
      ['book', '/takecourse/takelistm'],
      ['cards', '/vipcard'],
      ['courses', '/mycourse'],
      ['mine', '/mine'],
    ]);
  });

  it('the active tab follows the path', () => {
    expect(activeTabFor('/')).toBe('home');
    expect(activeTabFor('/takecourse/takelistm')).toBe('book');
    expect(activeTabFor('/vipcard')).toBe('cards');
    expect(activeTabFor('/vipcard/vipcarddetail')).toBe('cards');
    expect(activeTabFor('/mycourse')).toBe('courses');
    expect(activeTabFor('/mine')).toBe('mine');
    expect(activeTabFor('/mine/coupons/all')).toBe('mine');
  });

  it('booking is also active on /takecourse and below it', () => {
    expect(activeTabFor('/takecourse')).toBe('book');
    expect(activeTabFor('/takecourse/')).toBe('book');
    expect(activeTabFor('/takecourse/bookcourse/bookcourseconfirm')).toBe('book');
  });

  it('other paths have no active tab, and prefixes must end at a segment', () => {
    expect(activeTabFor('/club')).toBeUndefined();
    expect(activeTabFor('/tutor/tutorDetail/1')).toBeUndefined();
    expect(activeTabFor('/mineral')).toBeUndefined();
    expect(activeTabFor('/vipcards')).toBeUndefined();
  });
});
