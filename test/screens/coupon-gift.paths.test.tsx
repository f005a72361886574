// @vitest-environment jsdom
import { act, fireEvent } from '@testing-library/react';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { couponGiftMachine, type CouponGiftContext } from '../../machines/coupon-gift.machine';
import { accounts, memberCoupons } from '../../src/server/db/schema/index';
import { newMember } from '../server/booking/support';
import { couponRow, giveCoupon } from '../server/buying/support';
import { phoneOf } from '../server/cards/transfer-support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Gifting a coupon on /mine/coupons/all/Donation (spec §2, §5 "coupon gift needs agreement and a
 * phone", §8 "coupon transfer limit reached"; decisions 032, 035): the friend's phone and the gifting
 * terms (on the page) accepted; a phone that is not a mobile number and terms not accepted are said
 * before anything is sent; the phone is looked up (no such member said at the phone before anything
 * is asked) and the gift asked once, naming the friend (masked) and the coupon (decision 102), not now
 * sending nothing; the server's refusals are said naming the field: myself
 * (the phone), the coupon gifted meanwhile on another phone (not giftable), the gift limit used up
 * meanwhile; a lost gift sent again is the same request (one Idempotency-Key) and made once. Gifted,
 * the coupon left the member (transferred) and arrived unused with the friend.
 */
const h = await startScreenHarness({ seed: true });

/** the friend every gift goes to (王小明), a phone nobody has, one that is not a mobile number */
// outside the phone ranges the test helpers hand out (the end-state test runs many files on one server)
const FRIEND = '13500000002';
const NOBODY = '13500000998';
const BAD = '1360000';
/** stands for the member's own phone (each path's member has their own): typed as theirs */
const SELF = '13999999999';
const [friend] = await h.server.deps.db
  .insert(accounts)
  .values({ phone: FRIEND, name: '王小明', role: 'member', createdAt: h.server.clock.now() })
  .returning();
/** a third member the coupon is gifted to on another phone meanwhile */
const third = await newMember(h.server);
const thirdPhone = await phoneOf(h.server, third.id);

interface Member {
  token: string;
  accountId: number;
  ownPhone: string;
  couponId: number;
  /** what the member typed into the phone field (their own real phone for SELF) and whether the terms are ticked */
  typed: { phone: string; agreed: boolean };
  /** whether "gift" was tapped since the form last changed (a problem is said only then) */
  giftTapped: boolean;
  /** gift taps that sent a request (a retry of a lost gift is one) */
  gifts: number;
}
type W = World<Member>;

const gifted = { code: 200, status: true, data: null };
const found = { code: 200, status: true, data: { name: '**明' } };
const noSuchMember = { code: 30036, status: false, data: null };
const toSelf = { code: 70112, status: false, data: null };
const notGiftable = { code: 70110, status: false, data: null };
const limitReached = { code: 70111, status: false, data: null };

const input = (name: string) => document.querySelector<HTMLInputElement>(`[data-coupon-gift] input[name="${name}"]`);
const giftButton = () => document.querySelector<HTMLButtonElement>('[data-action="gift-submit"]');
const alert = () => screen.queryByRole('alert');
const alertText = () => alert()?.textContent ?? null;
const sends = (w: W) => sentBy(w, 'giftCoupon');
const lookups = (w: W) => sentBy(w, 'lookupMember');
/** the last lookup or gift sent: the one whose answer the form says */
const lastAsked = (w: W) => w.sent.filter((r) => r.invoke === 'giftCoupon' || r.invoke === 'lookupMember').at(-1);
const dialog = () => screen.queryByRole('dialog');
/** whom the confirm names: the friend's masked name and phone; a member with no name by the phone alone */
const maskedPhone = (p: string) => `${p.slice(0, 3)}****${p.slice(-4)}`;
const mine = async (w: W) => couponRow(h.server, w.couponId);
const arrivedWithFriend = (w: W) =>
  h.server.deps.db
    .select()
    .from(memberCoupons)
    .where(and(eq(memberCoupons.accountId, friend!.id), eq(memberCoupons.giftedFromCouponId, w.couponId)));

/** Not gifted: the coupon is the member's, unused, and nothing arrived with the friend. */
async function notGifted(w: W) {
  expect((await mine(w)).state).toBe('unused');
  expect(await arrivedWithFriend(w)).toEqual([]);
}

/** The form: what was typed, the terms readable, "gift" ready, nothing held, this said naming its field. */
function form(w: W, said: string | null, field?: 'phone' | 'agreed' | 'coupon') {
  expect(w.ui.path()).toBe(`/mine/coupons/all/Donation?id=${w.couponId}`);
  expect(input('phone')?.value).toBe(w.typed.phone);
  expect(input('phone')?.disabled).toBe(false);
  expect(input('agreed')?.checked).toBe(w.typed.agreed);
  expect(document.querySelector('[data-gift-terms]')?.textContent).toContain('不能赠送给自己');
  expect(document.querySelector(`[data-gift-coupon="${w.couponId}"] [data-coupon-discount]`)?.textContent).toBe('减¥20满¥100可用');
  expect(giftButton()?.textContent).toBe('赠送');
  expect(giftButton()?.disabled).toBe(false);
  expect(w.held.get('giftCoupon') ?? []).toEqual([]);
  expect(w.held.get('lookupMember') ?? []).toEqual([]);
  expect(dialog(), 'nothing asked').toBe(null);
  expect(alertText()).toBe(said);
  if (field) expect(alert()?.getAttribute('data-error-field')).toBe(field);
  expect(document.querySelector('[data-gift-done]')).toBe(null);
}

defineScreenPaths<Member>(h, {
  machine: couponGiftMachine,
  screen: '/mine/coupons/all/Donation',
  inputs: { 'an unused coupon': { couponId: 1 } },
  cases: {
    'phone.change': [{ phone: FRIEND }, { phone: NOBODY }, { phone: SELF }, { phone: BAD }],
    'terms.change': [{ agreed: true }],
    'xstate.done.actor.lookupMember': [
      { output: found, answer: { server: true } },
      { output: noSuchMember, answer: { server: true } },
    ],
    'xstate.error.actor.lookupMember': [{ error: new Error('network') }],
    'xstate.done.actor.giftCoupon': [
      { output: gifted, answer: { server: true } },
      { output: toSelf, answer: { server: true } },
      {
        output: notGiftable,
        answer: {
          server: true,
          // the member gifts the same coupon to someone else on another phone while this gift is on its way
          arrange: async (w: W) => {
            const r = await h.server.call('POST', '/api/customers/coupons/gift', {
              token: w.token,
              body: { couponId: w.couponId, phone: thirdPhone, agreed: true },
            });
            expect(r.body.code).toBe(200);
          },
        },
      },
      {
        output: limitReached,
        answer: {
          server: true,
          // the member uses up the period's gifts (3) with other coupons on another phone meanwhile
          arrange: async (w: W) => {
            for (let i = 0; i < 3; i++) {
              const other = await giveCoupon(h.server, w.accountId);
              const r = await h.server.call('POST', '/api/customers/coupons/gift', {
                token: w.token,
                body: { couponId: other.id, phone: thirdPhone, agreed: true },
              });
              expect(r.body.code).toBe(200);
            }
          },
        },
      },
    ],
    'xstate.error.actor.giftCoupon': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as CouponGiftContext;
    const p = e as unknown as { phone?: string; output?: { code: number } };
    // any phone typed first; afterwards only corrected to the friend's
    if (e.type === 'phone.change') return c.phone === '' || (p.phone === FRIEND && c.phone !== FRIEND);
    if (e.type === 'terms.change') return !c.agreed;
    // the same tap again on a form that says why changes nothing (the lost gift's retry is the exception)
    if (e.type === 'gift.submit')
      return !s.matches({ form: 'phoneInvalid' }) && !s.matches({ form: 'notAgreed' }) && !s.matches({ form: 'refused' });
    // the server's answer to the phone sent; the conditions made meanwhile only on a first try
    // the lookup finds everyone but the phone nobody has
    if (e.type === 'xstate.done.actor.lookupMember') return (p.output!.code === 30036) === (c.phone === NOBODY);
    if (e.type === 'xstate.error.actor.lookupMember') return c.phone === FRIEND && c.errorCode === undefined;
    if (e.type === 'xstate.done.actor.giftCoupon') {
      const code = p.output!.code;
      if (code === 70112) return c.phone === SELF;
      if (c.phone !== FRIEND) return false;
      return code === 200 || c.errorCode === undefined;
    }
    if (e.type === 'xstate.error.actor.giftCoupon') return c.phone === FRIEND && c.errorCode === undefined;
    return true;
  },
  project: (c: CouponGiftContext) => ({ phone: c.phone, agreed: c.agreed, errorCode: c.errorCode ?? null, key: Boolean(c.idempotencyKey) }),
  requests: {
    lookupMember: { method: 'GET', path: /^\/api\/customers\/members\/phone$/ },
    giftCoupon: { method: 'POST', path: /^\/api\/customers\/coupons\/gift$/ },
  },

  async start(hh) {
    const m = await newMember(hh.server);
    const coupon = await giveCoupon(hh.server, m.id);
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/mine/coupons/all/Donation?id=${coupon.id}`);
    return {
      ui,
      token: m.token,
      accountId: m.id,
      ownPhone: await phoneOf(hh.server, m.id),
      couponId: coupon.id,
      typed: { phone: '', agreed: false },
      giftTapped: false,
      gifts: 0,
    };
  },

  events: {
    'phone.change': async (w, e) => {
      const phone = (e as unknown as { phone: string }).phone;
      w.typed.phone = phone === SELF ? w.ownPhone : phone;
      w.giftTapped = false;
      await act(async () => {
        fireEvent.change(input('phone')!, { target: { value: w.typed.phone } });
      });
    },
    'terms.change': async (w) => {
      w.typed.agreed = true;
      w.giftTapped = false;
      await w.ui.user.click(input('agreed')!);
    },
    'gift.submit': async (w) => {
      w.giftTapped = true;
      await w.ui.user.click(giftButton()!);
    },
    'confirm.accept': async (w) => w.ui.user.click(await screen.findByRole('button', { name: '确定赠送' })),
    'confirm.dismiss': async (w) => w.ui.user.click(await screen.findByRole('button', { name: '再想想' })),
  },

  states: {
    'form.clean': async (w) => {
      form(w, null);
      await notGifted(w);
    },
    // said before anything is sent: the phone is not a mobile number
    'form.phoneInvalid': async (w) => {
      expect(w.giftTapped, 'gift was tapped').toBe(true);
      expect(['', BAD], 'an empty phone or not a mobile number').toContain(w.typed.phone);
      form(w, '好友手机号不正确，请输入11位手机号', 'phone');
      expect(sends(w)).toEqual([]);
      await notGifted(w);
    },
    'form.notAgreed': async (w) => {
      expect(w.giftTapped, 'gift was tapped').toBe(true);
      expect(w.typed.agreed).toBe(false);
      expect(w.typed.phone).not.toBe(BAD);
      form(w, '请先阅读并同意《优惠券赠送协议》', 'agreed');
      expect(sends(w)).toEqual([]);
      await notGifted(w);
    },
    // the server's refusal of the last gift, said at its field
    'form.refused': async (w) => {
      const last = lastAsked(w);
      if (last?.invoke === 'lookupMember') {
        // no such member: said at the phone before anything was asked or gifted
        expect(last.path).toBe(`/api/customers/members/phone?phone=${w.typed.phone}`);
        expect(last.answer).toBe(30036);
      } else expect(last?.body).toMatchObject({ couponId: w.couponId, phone: w.typed.phone, agreed: true });
      const said = {
        30036: ['好友手机号还没有注册会员，请核对', 'phone'],
        70112: ['好友手机号不能是您自己的手机号', 'phone'],
        70110: ['这张优惠券不能赠送（已使用、已过期或已转赠）', 'coupon'],
        70111: ['优惠券转赠次数已达上限，暂时不能再赠送', 'coupon'],
      }[last?.answer as 30036];
      expect(said, `a refusal the screen says (${String(last?.answer)})`).toBeDefined();
      form(w, said![0]!, said![1] as 'phone');
      if (last?.answer === 70110) {
        // it went to the other phone, not to the friend
        expect((await mine(w)).state).toBe('transferred');
        expect(await arrivedWithFriend(w)).toEqual([]);
      } else await notGifted(w);
    },
    'form.unreachable': async (w) => {
      expect(lastAsked(w)?.answer).toBe('network');
      form(w, '网络无法连接', 'coupon');
      await notGifted(w);
    },
    // the phone typed is looked up; the form cannot change; nothing asked or gifted yet
    lookingUp: async (w) => {
      expect(giftButton()?.textContent).toBe('正在查询…');
      expect(giftButton()?.disabled).toBe(true);
      expect(input('phone')?.disabled).toBe(true);
      expect(alertText()).toBe(null);
      expect(dialog()).toBe(null);
      expect((w.held.get('lookupMember') ?? []).map((r) => r.path)).toEqual([`/api/customers/members/phone?phone=${w.typed.phone}`]);
      expect(w.held.get('giftCoupon') ?? []).toEqual([]);
      await notGifted(w);
    },
    // asked once: to whom (masked) and which coupon, that it cannot be taken back; nothing gifted yet
    confirming: async (w) => {
      const asked = dialog();
      expect(asked, 'the confirm is open').not.toBe(null);
      const who = w.typed.phone === FRIEND ? `**明（${maskedPhone(FRIEND)}）` : maskedPhone(w.typed.phone);
      expect(asked!.textContent).toContain(`赠送给 ${who}？赠送后不能撤回`);
      expect(asked!.textContent).toContain('减¥20');
      expect(asked!.textContent).toContain((await mine(w)).name);
      expect(lookups(w).at(-1)?.answer).toBe(200);
      expect(w.held.get('giftCoupon') ?? []).toEqual([]);
      expect(input('phone')?.disabled).toBe(true);
      await notGifted(w);
    },
    // sent once, with what was typed and the terms accepted; the form cannot change or be sent again
    submitting: async (w) => {
      expect(dialog(), 'the confirm closed').toBe(null);
      expect(giftButton()?.textContent).toBe('正在赠送…');
      expect(giftButton()?.disabled).toBe(true);
      expect(input('phone')?.disabled).toBe(true);
      expect(input('agreed')?.disabled).toBe(true);
      expect(alertText()).toBe(null);
      expect((w.held.get('giftCoupon') ?? []).map((r) => r.body)).toEqual([{ couponId: w.couponId, phone: w.typed.phone, agreed: true }]);
      await notGifted(w);
    },
    // gifted: to whom (masked) and the gifts left are said; the coupon left the member and arrived once with the friend
    gifted: async (w) => {
      expect(sends(w).at(-1)?.answer).toBe(200);
      expect(w.typed.phone).toBe(FRIEND);
      expect(screen.getByRole('status').textContent).toBe('已赠送给 **明（135****0002）');
      expect(document.querySelector('[data-gift-done] [data-gifts-left]')?.textContent).toBe('本期还可赠送 2 次');
      expect(document.querySelector('form[data-coupon-gift]')).toBe(null);
      expect(alert()).toBe(null);
      const row = await mine(w);
      expect([row.state, row.giftedToAccountId]).toEqual(['transferred', friend!.id]);
      const arrived = await arrivedWithFriend(w);
      expect(arrived.map((c) => [c.state, c.offCents, c.validUntil.getTime()])).toEqual([
        ['unused', row.offCents, row.validUntil.getTime()],
      ]);
    },
  },

  effects: {
    // every request carries a key; a new intent (after the phone or terms changed) a new one, a retry of a lost gift the same
    // a tap on gift looks the phone up (when the form allows it) and gifts nothing
    'gift.submit': (w, _e, before) => {
      expect(sentBy(w, 'giftCoupon', before)).toEqual([]);
      expect(sentBy(w, 'lookupMember', before).length).toBeLessThanOrEqual(1);
    },
    'confirm.dismiss': (w, _e, before) => {
      expect(w.sent.length).toBe(before);
      expect(dialog()).toBe(null);
    },
    // the lookup's answer: no such member said at the phone with nothing asked, else the one question
    'xstate.done.actor.lookupMember': (w, _e, before) => {
      expect(sentBy(w, 'giftCoupon', before)).toEqual([]);
      if (lookups(w).at(-1)?.answer === 30036) {
        expect(alertText()).toBe('好友手机号还没有注册会员，请核对');
        expect(alert()?.getAttribute('data-error-field')).toBe('phone');
        expect(dialog()).toBe(null);
      } else expect(dialog(), 'asked once the phone is found').not.toBe(null);
    },
    // a lookup or a gift that did not reach the server is said, with nothing asked
    'xstate.error.actor.lookupMember': (w, _e, before) => {
      expect(sentBy(w, 'giftCoupon', before)).toEqual([]);
      expect(alertText()).toBe('网络无法连接');
      expect(dialog()).toBe(null);
    },
    'xstate.error.actor.giftCoupon': () => {
      expect(alertText()).toBe('网络无法连接');
      expect(dialog()).toBe(null);
      expect(giftButton()?.textContent).toBe('赠送');
    },
    'confirm.accept': (w, _e, before) => {
      const now = sentBy(w, 'giftCoupon', before);
      expect(now).toHaveLength(1);
      expect(now[0]!.key, 'the gift carries an Idempotency-Key').toBeDefined();
      const previous = sends(w).at(-2);
      if (previous?.answer === 'network') expect(now[0]!.key, 'a lost gift sent again: the same key').toBe(previous.key);
      else
        expect(
          sends(w)
            .slice(0, -1)
            .map((r) => r.key),
          'a new intent: a new key',
        ).not.toContain(now[0]!.key);
    },
    'phone.change': (w, _e, before) => expect(w.sent.length).toBe(before),
    'terms.change': (w, _e, before) => expect(w.sent.length).toBe(before),
  },
});
