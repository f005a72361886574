import { describe, expect, it } from 'vitest';
import { orderRefusal, partRefusal } from '../../../machines/domain/order-offers';
import { Errors } from '../../../src/domain/errors';
import { ORDER_ACTIONS, PART_ACTIONS, type OrderAction, type PartAction } from '../../../src/domain/orders';
import { offerFacts } from '../../../src/server/services/orders/offer-facts';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { issueOpenId } from '../payments/support';
import { startTestServer } from '../support/harness';
import { create, credit, newGoods, newMember, orderRow } from './support';

/**
 * Offers are exactly what is accepted (decision 058): orders are brought to every state the order and
 * part charts reach (whole and split, a part held by the member's trade, a friend's link or a friend's
 * trade, a part failed, paid, cancelled, past its deadline); in each, every order action and every
 * action on every part is tried on a fresh copy. What the order or part offers must be accepted; what
 * the rule refuses must be refused with the rule's code; and the answers are the handlers' own (the
 * rule read from the stored rows is what the handlers check, so a handler that disagrees fails here).
 */
const s = await startTestServer({ seed: true });
let friends = 0;

type Member = Awaited<ReturnType<typeof newMember>>;
interface Built {
  m: Member;
  no: string;
}

const post = (m: Member, path: string, body: unknown) => s.call('POST', `/api/orders/${path}`, { token: m.token, body });
const ok = (r: { body: { code: number } }, what: string) => {
  if (r.body.code !== 200) throw new Error(`${what}: ${JSON.stringify(r.body)}`);
};

async function friendPays(no: string, m: Member, seq: number | undefined): Promise<void> {
  const r = await post(m, 'friend/invite', { orderNo: no, partSeqs: seq === undefined ? undefined : [seq] });
  ok(r, 'invite');
  const openId = `o_offers_walk_${++friends}`;
  await issueOpenId(s, openId);
  await payAsFriend(s.deps, r.body.data.invitation.token as string, { openId, nickname: null, avatar: null });
}

/** The member opens Alipay's cashier (its page visited, as the stand-in needs) and Alipay says no. */
async function alipayFails(m: Member, no: string, partSeq?: number): Promise<void> {
  const r = await post(m, 'pay', { orderNo: no, method: 'alipay', partSeq });
  ok(r, 'pay');
  await s.app.request(r.body.data.payment.url as string);
  ok(await s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${no}-1`, outcome: 'fail' } }), 'fail');
}

/** An order as the scenario leaves it: each step is an API call a member or a friend makes. */
const SCENARIOS: Record<string, (m: Member, no: string) => Promise<void>> = {
  'whole, unpaid': async () => {},
  'whole, paying at Alipay': async (m, no) => ok(await post(m, 'pay', { orderNo: no, method: 'alipay' }), 'pay'),
  'whole, its payment failed': (m, no) => alipayFails(m, no),
  'whole, a friend has the link': async (m, no) => ok(await post(m, 'friend/invite', { orderNo: no }), 'invite'),
  "whole, a friend's trade open": async (m, no) => friendPays(no, m, undefined),
  'whole, paid by balance': async (m, no) => ok(await post(m, 'pay', { orderNo: no, method: 'balance' }), 'pay'),
  cancelled: async (m, no) => ok(await post(m, 'cancel', { orderNo: no }), 'cancel'),
  'split, unpaid': async (m, no) => ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split'),
  "split, the member's trade open for part 2": async (m, no) => {
    ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split');
    ok(await post(m, 'pay', { orderNo: no, method: 'alipay', partSeq: 2 }), 'pay part 2');
  },
  "split, part 2's trade failed": async (m, no) => {
    ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split');
    await alipayFails(m, no, 2);
  },
  'split, part 2 paid': async (m, no) => {
    ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split');
    ok(await post(m, 'pay', { orderNo: no, method: 'balance', partSeq: 2 }), 'pay part 2');
  },
  'split, a friend has the link for part 3': async (m, no) => {
    ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split');
    ok(await post(m, 'friend/invite', { orderNo: no, partSeqs: [3] }), 'invite');
  },
  "split, a friend's trade open for part 3 and the member's for part 2": async (m, no) => {
    ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split');
    await friendPays(no, m, 3);
    ok(await post(m, 'pay', { orderNo: no, method: 'alipay', partSeq: 2 }), 'pay part 2');
  },
  'split, fully paid': async (m, no) => {
    ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split');
    ok(await post(m, 'pay', { orderNo: no, method: 'balance', partSeq: 2 }), 'pay part 2');
    ok(await post(m, 'pay', { orderNo: no, method: 'balance', partSeq: 3 }), 'pay part 3');
  },
  'its whole payment failed, then split': async (m, no) => {
    await alipayFails(m, no);
    ok(await post(m, 'split', { orderNo: no, parts: [9_900, 10_000] }), 'split');
  },
  // last: the clock moves on for every order made after
  'past its pay deadline': async () => s.clock.advance(16 * 60_000),
};

async function build(name: string): Promise<Built> {
  const m = await newMember(s);
  await credit(s, m.id, 100_000);
  const g = await newGoods(s);
  const r = await create(s, m.token, { goodsId: g.id });
  ok(r, 'create');
  const no = r.body.data.orderNo as string;
  await SCENARIOS[name]!(m, no);
  return { m, no };
}

/** The request an action is (a split order's part named by its seq). */
function request(b: Built, action: OrderAction | PartAction, seq?: number) {
  const orderNo = b.no;
  switch (action) {
    case 'pay':
      return post(b.m, 'pay', { orderNo, method: 'balance', partSeq: seq });
    case 'cancel':
      return post(b.m, 'cancel', { orderNo });
    case 'split':
      return post(b.m, 'split', { orderNo, parts: [9_900, 10_000] });
    case 'unsplit':
      return post(b.m, 'unsplit', { orderNo });
    case 'invite':
      return post(b.m, 'friend/invite', { orderNo, partSeqs: seq === undefined ? undefined : [seq] });
    case 'withdraw':
      return post(b.m, 'friend/withdraw', { orderNo, partSeq: seq });
  }
}

const codeOf = (r: ReturnType<typeof orderRefusal>) => (r === null ? 200 : Errors[r].code);

describe('what an order and its parts offer is what they accept', { timeout: 300_000 }, () => {
  for (const name of Object.keys(SCENARIOS)) {
    it(name, async () => {
      const seen = await build(name);
      const detail = (await s.call('GET', `/api/orders/detail?orderNo=${seen.no}`, { token: seen.m.token })).body.data as {
        state: string;
        actions: OrderAction[];
        parts: Array<{ seq: number; kind: string; state: string; actions: PartAction[] }>;
      };
      const facts = await offerFacts(s.deps.db, await orderRow(s, seen.no), s.clock.now());
      const shares = facts.shares;
      const tried: string[] = [];
      // the whole order's actions; paying is tried per part when the order is split
      for (const action of ORDER_ACTIONS) {
        if (action === 'pay' && shares.length > 1) continue;
        const expected = codeOf(orderRefusal(facts, action));
        if (detail.actions.includes(action)) expect(expected, `${name}: '${action}' offered, so the rule accepts it`).toBe(200);
        const r = await request(await build(name), action);
        expect(r.body.code, `${name}: order ${action}`).toBe(expected);
        tried.push(`${action}:${r.body.code}`);
      }
      for (const p of shares) {
        const shown = detail.parts.find((x) => x.seq === p.seq)!;
        for (const action of PART_ACTIONS) {
          const expected = codeOf(partRefusal(facts, p, action));
          if (shown.actions.includes(action))
            expect(expected, `${name}: part ${p.seq} offers '${action}', so the rule accepts it`).toBe(200);
          const r = await request(await build(name), action, p.seq);
          expect(r.body.code, `${name}: part ${p.seq} ${action}`).toBe(expected);
          tried.push(`${p.seq}.${action}:${r.body.code}`);
        }
      }
      // the walk tried something accepted and something refused over all its states (below), and every offer here was tried
      expect(tried.length).toBeGreaterThan(0);
    });
  }

  it('over all the states, every action is both accepted somewhere and refused somewhere', async () => {
    const accepted = new Set<string>();
    const refused = new Set<string>();
    for (const name of Object.keys(SCENARIOS)) {
      if (name === 'past its pay deadline') continue;
      const b = await build(name);
      const facts = await offerFacts(s.deps.db, await orderRow(s, b.no), s.clock.now());
      for (const a of ORDER_ACTIONS) (orderRefusal(facts, a) ? refused : accepted).add(a);
      for (const p of facts.shares) for (const a of PART_ACTIONS) (partRefusal(facts, p, a) ? refused : accepted).add(`part ${a}`);
    }
    const all = [...ORDER_ACTIONS, ...PART_ACTIONS.map((a) => `part ${a}`)];
    expect(
      all.filter((a) => !accepted.has(a)),
      'never accepted',
    ).toEqual([]);
    expect(
      all.filter((a) => !refused.has(a)),
      'never refused',
    ).toEqual([]);
  });
});
