// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { newMember } from '../server/booking/support';
import { giveCoupon } from '../server/buying/support';
import { phoneOf } from '../server/cards/transfer-support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * /mine/coupons and its tabs (spec §2, §3 coupon, §4 coupon tabs; decision 032): the redirect to the
 * unused tab, each coupon's discount, minimum spend, validity and where it applies, the tab a coupon
 * is in after it is used, expired or gifted, each tab's empty state, and English.
 */
const h = await startScreenHarness({ seed: true });
const DAY = 86_400_000;
const FROM = new Date('2026-12-01T02:00:00Z');

const shown = (tab: string) => [...document.querySelectorAll<HTMLElement>(`[data-list="coupons-${tab}"] [data-coupon]`)];
const text = (el: Element | null | undefined) => el?.textContent?.replace(/\s+/g, ' ').trim();

async function member() {
  const m = await newMember(h.server);
  h.jar.setClientCookie('token', m.token);
  return m;
}

describe('my coupons', () => {
  it('/mine/coupons lands on the unused tab: each coupon with its discount, minimum spend, validity (Shanghai days) and where it applies, and "gift"', async () => {
    const m = await member();
    const off = await giveCoupon(h.server, m.id, { name: '满100减20', validFrom: FROM, validUntil: new Date(FROM.getTime() + 30 * DAY) });
    const pct = await giveCoupon(h.server, m.id, {
      name: '私教九折',
      offCents: 0,
      percentOff: 10,
      minSpendCents: 0,
      appliesTo: ['private', 'open'],
    });
    const ui = await h.open('/mine/coupons');
    await ui.waitForPath('/mine/coupons/all');
    expect(document.querySelector('[data-tab="all"]')?.getAttribute('aria-current')).toBe('page');
    expect([...document.querySelectorAll('[data-coupons] [data-tab]')].map((t) => t.textContent)).toEqual([
      '未使用',
      '已使用',
      '已过期',
      '已转赠',
    ]);
    expect(
      shown('all')
        .map((r) => Number(r.dataset.coupon))
        .sort(),
    ).toEqual([off.id, pct.id].sort());
    const a = document.querySelector(`[data-coupon="${off.id}"]`)!;
    expect(text(a.querySelector('[data-coupon-discount]'))).toBe('减¥20满¥100可用');
    expect(text(a.querySelector('[data-coupon-validity]'))).toBe('有效期 2026-12-01 至 2026-12-31');
    expect(text(a.querySelector('[data-coupon-applies]'))).toBe('适用于全部商品（优惠券除外）');
    expect(a.querySelector('[data-action="coupon-gift"]')?.getAttribute('href')).toBe(`/mine/coupons/all/Donation?id=${off.id}`);
    const b = document.querySelector(`[data-coupon="${pct.id}"]`)!;
    expect(text(b.querySelector('[data-coupon-discount]'))).toBe('优惠10%无门槛');
    expect(text(b.querySelector('[data-coupon-applies]'))).toBe('适用于：私教课、公开课');
  });

  it('used, expired and gifted coupons are in their own tabs, each saying what happened; nothing in a tab says so', async () => {
    const m = await member();
    const friend = await newMember(h.server);
    const used = await giveCoupon(h.server, m.id, { state: 'used', usedAt: new Date(FROM.getTime() + DAY) });
    const expired = await giveCoupon(h.server, m.id, { state: 'expired' });
    const gift = await giveCoupon(h.server, m.id);
    const friendPhone = await phoneOf(h.server, friend.id);
    expect(
      (
        await h.server.call('POST', '/api/customers/coupons/gift', {
          token: m.token,
          body: { couponId: gift.id, phone: friendPhone, agreed: true },
        })
      ).body.code,
    ).toBe(200);

    const ui = await h.open('/mine/coupons/all');
    expect(text(document.querySelector('[data-empty="coupons-all"]'))).toBe('没有可以使用的优惠券');
    await ui.user.click(document.querySelector('[data-tab="waitPay"]')!);
    await ui.waitForPath('/mine/coupons/waitPay');
    expect(shown('waitPay').map((r) => Number(r.dataset.coupon))).toEqual([used.id]);
    expect(text(shown('waitPay')[0]!.querySelector('[data-coupon-note]'))).toBe('2026-12-02 已使用');
    expect(shown('waitPay')[0]!.querySelector('[data-action="coupon-gift"]')).toBe(null);
    await ui.user.click(document.querySelector('[data-tab="waitComment"]')!);
    await ui.waitForPath('/mine/coupons/waitComment');
    expect(shown('waitComment').map((r) => Number(r.dataset.coupon))).toEqual([expired.id]);
    await ui.user.click(document.querySelector('[data-tab="refunder"]')!);
    await ui.waitForPath('/mine/coupons/refunder');
    expect(shown('refunder').map((r) => Number(r.dataset.coupon))).toEqual([gift.id]);
    expect(text(shown('refunder')[0]!.querySelector('[data-coupon-note]'))).toContain(
      `已赠送给 ${friendPhone.slice(0, 3)}****${friendPhone.slice(-4)}`,
    );

    // the friend's unused tab: the coupon arrived, from whom; their other tabs are empty
    h.jar.setClientCookie('token', friend.token);
    await h.open('/mine/coupons/all');
    const mPhone = await phoneOf(h.server, m.id);
    expect(shown('all')).toHaveLength(1);
    expect(text(shown('all')[0]!.querySelector('[data-coupon-note]'))).toBe(`来自 ${mPhone.slice(0, 3)}****${mPhone.slice(-4)} 的赠送`);
    for (const [tab, empty] of [
      ['waitPay', '还没有使用过优惠券'],
      ['waitComment', '没有过期的优惠券'],
      ['refunder', '还没有转赠过优惠券'],
    ]) {
      await h.open(`/mine/coupons/${tab}`);
      expect(text(document.querySelector(`[data-empty="coupons-${tab}"]`))).toBe(empty);
    }
  });

  it('a tab the spec does not have is not found; English', async () => {
    const m = await member();
    await giveCoupon(h.server, m.id, { validFrom: FROM, validUntil: new Date(FROM.getTime() + 30 * DAY) });
    await h.open('/mine/coupons/nope');
    expect(document.querySelector('[data-not-found]')).not.toBe(null);
    await h.open('/mine/coupons/all', { locale: 'en' });
    expect([...document.querySelectorAll('[data-coupons] [data-tab]')].map((t) => t.textContent)).toEqual([
      'Unused',
      'Used',
      'Expired',
      'Transferred',
    ]);
    expect(text(document.querySelector('[data-coupon-discount]'))).toBe('¥20 offOn spends of ¥100 or more');
    expect(text(document.querySelector('[data-coupon-validity]'))).toBe('Valid 2026-12-01 to 2026-12-31');
    expect(screen.getByRole('link', { name: 'Gift to a friend' })).toBeTruthy();
  });

  it("the gift page: a coupon no longer unused says why instead of the form; another member's coupon is not found, as absent", async () => {
    const m = await member();
    const other = await newMember(h.server);
    const used = await giveCoupon(h.server, m.id, { state: 'used', usedAt: FROM });
    const theirs = await giveCoupon(h.server, other.id, { name: '别人的满100减20' });
    await h.open(`/mine/coupons/all/Donation?id=${used.id}`);
    expect(text(document.querySelector('[data-gift-unavailable]'))).toBe('这张优惠券不能赠送（已使用、已过期或已转赠）');
    expect(document.querySelector('input[name="phone"]')).toBe(null);
    await h.open(`/mine/coupons/all/Donation?id=${theirs.id}`);
    expect(text(document.querySelector('[data-not-found] h1'))).toBe('没有找到这张优惠券');
    expect(document.body.textContent).not.toContain(theirs.name);
  });
});
