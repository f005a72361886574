import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { orderMachine } from '../../../machines/domain/order.machine';
import { friendInvitations, paymentAttempts, payments, refunds } from '../../../src/server/db/schema/index';
import { REFUND_RETRY_EVERY_MS } from '../../../src/server/services/refunds/run';
import { payAsFriend } from '../../../src/server/services/orders/friend-pay';
import { askRefund, staffRefund } from '../cards/refund-support';
import { allDueJobs, dev } from '../orders/refund-support';
import { cardsOf, create, credit, goodsRow, newGoods, newMember, newStaff, orderRow, pay } from '../orders/support';
import { issueOpenId } from '../payments/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The order chart (spec §4 order states, decision 013) against the server: pay by balance at once,
 * pay through a provider (Alipay's stand-in: its cashier, its signed notification of success or of a
 * closed trade), pay again after a failure, cancel, send it to a friend and withdraw that (decision 021). Each state is read back from GET /orders/detail
 * and the orders table, with what it promises: the card issued exactly once when paid, the stock and
 * the balance back when cancelled.
 *
 * Four worlds (decision 025): `whole`, an order paid as one; `split`, the order split in two parts
 * before anything is paid (a part paid while the other is owed: `part.paid`; a trade opened or failed
 * for one part, which holds that part only: `part.pay`, `part.failed`, decision 058); `lastPart`, split
 * in two with the first part paid from the balance already (the last part paid: `split.paid`, or a
 * friend's `friend.paid`); `failedSplit`, whose whole payment failed before it was split (it starts
 * in payment_failed). Each world meets only the events its order can: a whole order has no parts to
 * pay one by one, a split order's payment is never the whole order's. In every state the order's
 * `actions` and each part's holder and actions are what the test knows it accepts.
 *
 * Two more worlds refund what was paid (a card refund, decision 030: the member asks, staff approve):
 * `refund`, a whole order paid with WeChat Pay, and `refundSplit`, the `lastPart` order whose last part
 * is paid with WeChat Pay. A refund of money paid at a provider is under way until the provider says
 * how it ended, so the WeChat Pay stand-in is told first what the refund does (`/refunds/arrange`):
 * processing (`refund.request`: the order refunding), then paid out (`refund.succeeded`), or closed
 * and, asked again, refused (`refund.failed`: the order refund failed, for staff); the hourly retry
 * asks again (`refund.request` from refund failed). Money paid from the balance comes back at once.
 */
const s = await startTestServer({ seed: true });

const BALANCE = 1_000_000;
const STOCK = 5;
/** the card's member price, and the split worlds' two parts (seq 2 and 3: seq 1 was the whole share) */
const PRICE = 19_900;
const PARTS = [10_000, 9_900];

type World = 'whole' | 'split' | 'lastPart';
/** the worlds by name: the ways to pay, and two of them paid at WeChat Pay and refunded */
const WORLDS = {
  whole: 'whole',
  split: 'split',
  lastPart: 'lastPart',
  failedSplit: 'split',
  refund: 'whole',
  refundSplit: 'lastPart',
} as const satisfies Record<string, World>;
type WorldName = keyof typeof WORLDS;
const refunded = (name: string) => name === 'refund' || name === 'refundSplit';

interface Order {
  world: World;
  /** the member's provider: Alipay, or WeChat Pay in the refund worlds (its stand-in's refunds can be closed) */
  provider: 'alipay' | 'wechat';
  /** the open WeChat Pay trade's prepay id */
  prepayId?: string;
  /** staff who decide the card refund */
  staff?: { id: number; token: string };
  token: string;
  accountId: number;
  goodsId: number;
  orderNo: string;
  /** provider payments opened so far (the stand-in's trade numbers are `<orderNo>-<n>`) */
  attempts: number;
  /** the friend-pay invitation's token, once one was made */
  invitation?: string;
  /** the part the invitation is for (split worlds) */
  invitedSeq?: number;
  /** the member's own trade open at the provider: its part (seq 1 for the whole order's) and amount */
  trade?: { seq: number; amountCents: number };
  /** what the test saw accepted: cents the member paid from the balance, cents paid at a provider (by the member or a friend) */
  balancePaid: number;
  providerPaid: number;
}

let friends = 0;

const balance = async (w: Order) => (await s.call('GET', '/api/customers/balance', { token: w.token })).body.data.balanceCents as number;

const detail = (w: Order) => s.call('GET', `/api/orders/detail?orderNo=${w.orderNo}`, { token: w.token });
const simulate = (w: Order, outcome: 'pay' | 'fail') =>
  (w.provider === 'wechat'
    ? s.call('POST', '/api/dev/pay/wechat/simulate', { body: { prepayId: w.prepayId, outcome } })
    : s.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: `${w.orderNo}-${w.attempts}`, outcome } })
  ).then((r) => accepted(r, `simulate ${outcome}`));

async function expectActions(w: Order, actions: string[]) {
  expect((await detail(w)).body.data.actions).toEqual(actions);
}

/** The order's live shares as the server stores their money (unpaid or paid), by seq. */
async function sharesOf(
  w: Order,
): Promise<Array<{ seq: number; state: string; amountCents: number; holder: string | null; actions: string[] }>> {
  const parts = (await detail(w)).body.data.parts as Array<{
    seq: number;
    kind: string;
    state: string;
    amountCents: number;
    holder: string | null;
    actions: string[];
  }>;
  return parts.filter((p) => p.kind === 'share' && (p.state === 'unpaid' || p.state === 'paid'));
}

/**
 * What the order and each share must offer in `state`, from what the test did (the trade it opened,
 * the part it sent to a friend) and the shares' money: a share with a friend is the friend's, one being
 * paid is paid again (the same trade or another way), a free one may be paid or sent to a friend.
 */
async function expectOffers(w: Order, state: string) {
  const shares = await sharesOf(w);
  const unpaid = shares.filter((p) => p.state === 'unpaid');
  const mine = unpaid.filter((p) => p.seq !== w.invitedSeq);
  const free = mine.filter((p) => p.seq !== w.trade?.seq);
  const split = shares.length > 1;
  const order: string[] = [];
  if (mine.length > 0) order.push('pay');
  order.push('cancel');
  if (!split && free.length === 1 && state !== 'paying') order.push('split');
  if (split) order.push('unsplit');
  if (free.length > 0 && state !== 'paying') order.push('invite');
  await expectActions(w, order);
  for (const p of shares) {
    const [holder, actions] =
      p.state === 'paid'
        ? [null, []]
        : p.seq === w.invitedSeq
          ? ['friendLink', ['withdraw']]
          : p.seq === w.trade?.seq
            ? ['memberTrade', ['pay']]
            : [null, ['pay', 'invite']];
    expect({ seq: p.seq, holder: p.holder, actions: p.actions }, `part ${p.seq} in ${state}`).toEqual({ seq: p.seq, holder, actions });
  }
}

/** The seqs of the order's unpaid shares not sent to a friend, by seq. */
async function ownUnpaid(w: Order): Promise<Array<{ seq: number; amountCents: number }>> {
  return (await sharesOf(w)).filter((p) => p.state === 'unpaid' && p.seq !== w.invitedSeq);
}

/** The member pays their first unpaid part (not with a friend) from the balance. */
async function payPartByBalance(w: Order): Promise<void> {
  const [part] = await ownUnpaid(w);
  if (!part) throw new Error("no part of the member's to pay");
  accepted(
    await s.call('POST', '/api/orders/pay', { token: w.token, body: { orderNo: w.orderNo, method: 'balance', partSeq: part.seq } }),
    'pay a part by balance',
  );
  w.balancePaid += part.amountCents;
}

/** The member opens the provider's cashier: for the whole order, or for their first unpaid part of a split one. */
async function openTrade(w: Order, whole: boolean): Promise<void> {
  const [part] = await ownUnpaid(w);
  if (!part) throw new Error("no part of the member's to pay");
  const r = await s.call('POST', '/api/orders/pay', {
    token: w.token,
    body: { orderNo: w.orderNo, method: w.provider, partSeq: whole ? undefined : part.seq },
  });
  accepted(r, `pay by ${w.provider}`);
  w.attempts++;
  w.trade = { seq: part.seq, amountCents: part.amountCents };
  if (w.provider === 'wechat') w.prepayId = r.body.data.payment.prepayId as string;
  else expect((await s.app.request(r.body.data.payment.url)).status).toBe(200);
}

/** The open trade's part is paid at the provider (the stand-in's signed notification). */
async function providerPays(w: Order): Promise<void> {
  if (!w.trade) throw new Error('no trade open');
  await simulate(w, 'pay');
  w.providerPaid += w.trade.amountCents;
  w.trade = undefined;
}

/** A part paid: at the provider when the member's trade is open for it, else from the balance. */
const partPaid = (w: Order) => (w.trade ? providerPays(w) : payPartByBalance(w));

/** The money and goods around the order, as the server stored them. */
async function money(w: Order) {
  const o = await orderRow(s, w.orderNo);
  const attempts = await s.deps.db.select({ state: paymentAttempts.state }).from(paymentAttempts).where(eq(paymentAttempts.orderId, o.id));
  // the balance's payments are rows too (decision 021): the deduction's and a payment by balance
  const all = await s.deps.db
    .select({ status: payments.status, provider: payments.provider, amountCents: payments.amountCents })
    .from(payments)
    .where(eq(payments.orderId, o.id))
    .orderBy(payments.id);
  const paid = all.filter((p) => p.provider !== 'balance');
  return {
    open: attempts.filter((a) => a.state === 'open').length,
    attempts: attempts.length,
    /** cents collected at providers (the member's trades and friends') */
    providerPaid: paid.filter((p) => p.status === 'paid').reduce((n, p) => n + p.amountCents, 0),
    providerFailed: paid.filter((p) => p.status === 'failed').length,
    /** what the last payment recorded for the order said (a failure, or money taken), if any */
    lastPayment: all.at(-1)?.status ?? null,
    balance: await balance(w),
    cards: (await cardsOf(s, w.accountId)).length,
    stock: (await goodsRow(s, w.goodsId)).stock,
  };
}

/** The trades at WeChat Pay that took money for the order (a refund of each is asked of the stand-in). */
async function wechatTrades(w: Order): Promise<string[]> {
  const o = await orderRow(s, w.orderNo);
  const rows = await s.deps.db
    .select({ outTradeNo: paymentAttempts.outTradeNo })
    .from(payments)
    .innerJoin(paymentAttempts, eq(paymentAttempts.id, payments.attemptId))
    .where(and(eq(payments.orderId, o.id), eq(payments.provider, 'wechat'), eq(payments.status, 'paid')));
  return rows.map((r) => r.outTradeNo);
}

/** What the WeChat Pay stand-in does with each trade's next refund (or with its processing refund: `/refunds/simulate`). */
async function standIn(w: Order, path: '/refunds/arrange' | '/refunds/simulate', body: Record<string, unknown>): Promise<void> {
  const trades = await wechatTrades(w);
  if (trades.length === 0) throw new Error('nothing was paid at WeChat Pay');
  for (const outTradeNo of trades) {
    const r = await dev(s, 'wechat', path, { outTradeNo, ...body });
    if (r.status !== 200) throw new Error(`${path}: ${r.status} ${JSON.stringify(r.body)}`);
  }
}

/** The order's refunds, by state, and the card it issued. */
async function refundsOf(w: Order) {
  const o = await orderRow(s, w.orderNo);
  const rows = await s.deps.db
    .select({ id: refunds.id, state: refunds.state, amountCents: refunds.amountCents })
    .from(refunds)
    .innerJoin(payments, eq(payments.id, refunds.paymentId))
    .where(eq(payments.orderId, o.id));
  const card = o.issuedCardId === null ? null : ((await cardsOf(s, w.accountId)).find((c) => c.id === o.issuedCardId) ?? null);
  return { states: rows.map((r) => r.state).sort(), cents: rows.reduce((n, r) => n + r.amountCents, 0), card, ids: rows.map((r) => r.id) };
}

/** What a paid order promises of its goods: the card is the member's to use, nothing is being given back. */
async function kept(w: Order) {
  const r = await refundsOf(w);
  expect(r.states, 'no refund asked').toEqual([]);
  expect(r.card?.status, 'the card can be used').toBe('inactive');
}

/** What every refunding state promises: the card ended, each payer's share asked back once (all of what was paid). */
async function refundAsked(w: Order) {
  await expectActions(w, []);
  const r = await refundsOf(w);
  expect(r.card?.status, 'the card ended').toBe('invalid');
  expect(r.cents, 'all that was paid is asked back, once').toBe(w.balancePaid + w.providerPaid);
  return r;
}

/** How many shares the order's amount is in now (1 whole, or its split parts). */
async function liveShareCount(w: Order): Promise<number> {
  const parts = (await detail(w)).body.data.parts as Array<{ kind: string; state: string }>;
  return parts.filter((p) => p.kind === 'share' && (p.state === 'unpaid' || p.state === 'paid')).length;
}

/** The order's friend-pay invitations' states. */
async function invitationStates(w: Order): Promise<string[]> {
  const o = await orderRow(s, w.orderNo);
  return (await s.deps.db.select().from(friendInvitations).where(eq(friendInvitations.orderId, o.id))).map((i) => i.state);
}

defineServerPaths<Order>(s, {
  machine: orderMachine,
  record: 'an order for a card',
  inputs: {
    whole: 'whole',
    split: 'split',
    lastPart: 'lastPart',
    failedSplit: 'failedSplit',
    refund: 'refund',
    refundSplit: 'refundSplit',
  },
  startIn: { failedSplit: 'payment_failed' },
  offer: ({ type }, snapshot, name) => {
    const at = snapshot.value as string;
    // the refund worlds pay at WeChat Pay (the whole order, or the last part) and meet the refund's events
    if (refunded(name)) {
      if (type === 'refund.request') return true;
      if (name === 'refundSplit') return type === 'split.paid' && at === 'unpaid';
      if (type === 'order.pay') return at === 'unpaid';
      if (type === 'payment.succeeded') return at === 'paying';
      return type === 'refund.succeeded' || type === 'refund.failed';
    }
    // the others pay by balance or Alipay, so nothing of theirs is refunded through a provider
    if (type.startsWith('refund.')) return false;
    // the whole order's events are never a split order's, and a split order's parts are not a whole order's
    const wholeEvent = type === 'order.pay' || type === 'payment.succeeded' || type === 'payment.failed';
    const partEvent = type === 'part.pay' || type === 'part.failed' || type === 'part.paid' || type === 'split.paid';
    if (name === 'whole') return !partEvent;
    if (wholeEvent) return false;
    // its payment failed before it was split: a part paid or a part's trade opened takes it back to unpaid
    if (name === 'failedSplit') return at === 'payment_failed' && (type === 'part.pay' || type === 'part.paid');
    if (name === 'split') return type !== 'split.paid' && type !== 'friend.paid';
    // one part left: it is the last; with a friend, the member has no part of their own to pay
    return type !== 'part.paid' && !(at === 'friend_paying' && (type === 'part.pay' || type === 'part.failed'));
  },
  async start(_s, input) {
    const m = await newMember(s);
    await credit(s, m.id, BALANCE);
    const g = await newGoods(s, { stock: STOCK });
    const r = await create(s, m.token, { goodsId: g.id });
    accepted(r, 'create');
    const name = input as WorldName;
    const w: Order = {
      world: WORLDS[name],
      provider: refunded(name) ? 'wechat' : 'alipay',
      ...(refunded(name) ? { staff: await newStaff(s) } : {}),
      token: m.token,
      accountId: m.id,
      goodsId: g.id,
      orderNo: r.body.data.orderNo as string,
      attempts: 0,
      balancePaid: 0,
      providerPaid: 0,
    };
    if (name === 'failedSplit') {
      // paid as one at the provider, which said no
      await openTrade(w, true);
      await simulate(w, 'fail');
      w.trade = undefined;
    }
    if (w.world !== 'whole')
      accepted(await s.call('POST', '/api/orders/split', { token: w.token, body: { orderNo: w.orderNo, parts: PARTS } }), 'split');
    if (w.world === 'lastPart') await payPartByBalance(w);
    return w;
  },
  events: {
    // a provider payment of the whole order: the member opens the cashier
    'order.pay': (w) => openTrade(w, true),
    // a split order's part: the member opens the cashier for their first unpaid part (the order keeps waiting for its parts)
    'part.pay': (w) => openTrade(w, false),
    // the provider says no to the trade open for a part (one is opened first when none is)
    'part.failed': async (w) => {
      if (!w.trade) await openTrade(w, false);
      await simulate(w, 'fail');
      w.trade = undefined;
    },
    // by the provider's notification while paying; by the balance, at once, otherwise
    'payment.succeeded': async (w, from) => {
      if (from === 'paying') return providerPays(w);
      accepted(await pay(s, w.token, w.orderNo, 'balance'), 'pay by balance');
      w.balancePaid += PRICE;
    },
    // a part paid while another is owed (or with a friend): at the provider when its trade is open, else from the balance
    'part.paid': (w) => partPaid(w),
    // the last part paid, the same two ways (at WeChat Pay in the refund world)
    'split.paid': async (w) => {
      if (!w.trade && w.provider === 'wechat') await openTrade(w, false);
      return partPaid(w);
    },
    'payment.failed': async (w) => {
      await simulate(w, 'fail');
      w.trade = undefined;
    },
    // a trade of the member's still open is ended at the provider first
    'order.cancel': async (w) => {
      accepted(await s.call('POST', '/api/orders/cancel', { token: w.token, body: { orderNo: w.orderNo } }), 'cancel');
      w.trade = undefined;
    },
    // the member sends the order to a friend (a split order's last unpaid part nobody holds); asked again while open: the same invitation
    'friend.invite': async (w) => {
      const free = (await ownUnpaid(w)).filter((p) => p.seq !== w.trade?.seq);
      const partSeqs = w.world === 'whole' ? undefined : [free.at(-1)?.seq ?? w.invitedSeq];
      const r = await s.call('POST', '/api/orders/friend/invite', { token: w.token, body: { orderNo: w.orderNo, partSeqs } });
      accepted(r, 'invite a friend');
      w.invitation = r.body.data.invitation.token as string;
      w.invitedSeq = r.body.data.invitation.partSeq as number;
    },
    // a friend pays what the invitation asks (WeChat Pay JSAPI with the friend's open id)
    'friend.paid': async (w) => {
      if (!w.invitation) throw new Error('no invitation to pay');
      const openId = `o_order_paths_friend_${++friends}`;
      await issueOpenId(s, openId);
      const start = await payAsFriend(s.deps, w.invitation, { openId, nickname: null, avatar: null });
      accepted(
        await s.call('POST', '/api/dev/pay/wechat/simulate', {
          body: { prepayId: (start.payment as { prepayId: string }).prepayId, outcome: 'pay' },
        }),
        'the friend pays',
      );
      w.providerPaid += start.amountCents;
      w.invitedSeq = undefined;
    },
    // the last open invitation ends unpaid: the member withdraws it
    'invitation.ended': async (w) => {
      accepted(
        await s.call('POST', '/api/orders/friend/withdraw', { token: w.token, body: { orderNo: w.orderNo } }),
        'withdraw the invitation',
      );
      w.invitedSeq = undefined;
    },
    // the member asks for the card's refund and staff approve it (the provider's refund processing);
    // after a failure, the hourly retry asks the provider again (processing this time)
    'refund.request': async (w, from) => {
      await standIn(w, '/refunds/arrange', { status: 'processing' });
      if (from === 'refund_failed') {
        s.clock.advance(REFUND_RETRY_EVERY_MS);
        return allDueJobs(s);
      }
      const { card } = await refundsOf(w);
      if (!card || !w.staff) throw new Error('no card to refund');
      const asked = await askRefund(s, w.token, card.id);
      accepted(asked, 'ask for the refund');
      accepted(await staffRefund(s, w.staff.token, 'approve', asked.body.data.id as number), 'staff approve');
    },
    // WeChat Pay paid the refund out (its signed notification)
    'refund.succeeded': (w) => standIn(w, '/refunds/simulate', { outcome: 'success' }),
    // WeChat Pay closed the refund unpaid; asked again under the next number, it refuses (NOT_ENOUGH)
    'refund.failed': async (w) => {
      await standIn(w, '/refunds/arrange', { refuse: 'NOT_ENOUGH' });
      await standIn(w, '/refunds/simulate', { outcome: 'closed' });
      await allDueJobs(s);
    },
  },
  async read(w) {
    return { stored: (await orderRow(s, w.orderNo)).state, shown: (await detail(w)).body.data.state as string };
  },
  states: {
    // nothing asked of anyone now; what was paid of a split order's parts stays paid
    unpaid: async (w) => {
      // and split it into parts (decision 025), or undo the split; a part being paid holds only that part
      await expectOffers(w, 'unpaid');
      // the goods are held for the order from its creation
      expect(await money(w)).toMatchObject({
        open: w.trade ? 1 : 0,
        providerPaid: w.providerPaid,
        balance: BALANCE - w.balancePaid,
        cards: 0,
        stock: STOCK - 1,
      });
      expect(await invitationStates(w), 'no friend has a link open').not.toContain('open');
    },
    // one trade open at the provider for the whole order, nothing more collected; paying again answers it (or switches)
    paying: async (w) => {
      await expectOffers(w, 'paying');
      expect(await money(w)).toMatchObject({
        open: 1,
        providerPaid: w.providerPaid,
        balance: BALANCE - w.balancePaid,
        cards: 0,
        stock: STOCK - 1,
      });
    },
    // the provider said no; nothing open, nothing more collected; it can be paid again
    payment_failed: async (w) => {
      await expectOffers(w, 'payment_failed');
      const m = await money(w);
      expect(m).toMatchObject({ open: 0, providerPaid: w.providerPaid, balance: BALANCE - w.balancePaid, cards: 0, stock: STOCK - 1 });
      expect(m.providerFailed, 'a failed payment is recorded').toBeGreaterThan(0);
      expect(m.lastPayment, 'the last word on the order is that failure').toBe('failed');
      expect(await invitationStates(w), 'no friend has a link open').not.toContain('open');
    },
    // collected once (by the provider or the balance) from the member alone, the card issued once, the stock taken
    paid: async (w) => {
      await expectActions(w, []);
      expect(await money(w)).toMatchObject({
        open: 0,
        providerPaid: w.providerPaid,
        balance: BALANCE - w.balancePaid,
        cards: 1,
        stock: STOCK - 1,
      });
      expect(w.providerPaid + w.balancePaid, 'paid exactly once').toBe(PRICE);
      expect(await invitationStates(w)).not.toContain('paid');
      // paid as one: the order is one share, not parts
      expect(await liveShareCount(w), 'one share').toBe(1);
      await kept(w);
    },
    // nothing kept, nothing open: every payment given back to its payer, the stock and the balance back
    cancelled: async (w) => {
      await expectActions(w, []);
      expect(await money(w)).toMatchObject({ open: 0, balance: BALANCE, cards: 0, stock: STOCK });
      const { refundedCents, refundingCents } = (await detail(w)).body.data.money;
      expect(refundedCents + refundingCents, 'what was paid goes back').toBe(w.balancePaid + w.providerPaid);
    },
    // a friend has a link (the whole order, or a split order's part), the goods held; the member may cancel, undo a split, and pay or send on their own parts by any way meanwhile
    friend_paying: async (w) => {
      await expectOffers(w, 'friend_paying');
      expect(await money(w)).toMatchObject({
        open: w.trade ? 1 : 0,
        providerPaid: w.providerPaid,
        balance: BALANCE - w.balancePaid,
        cards: 0,
        stock: STOCK - 1,
      });
      expect(
        (await invitationStates(w)).filter((st) => st === 'open'),
        'one open invitation',
      ).toHaveLength(1);
    },
    // paid by several payers (the parts' payers, or a friend): all of it collected once, the card issued once
    fully_paid: async (w) => {
      await expectActions(w, []);
      expect(await money(w)).toMatchObject({
        open: 0,
        providerPaid: w.providerPaid,
        balance: BALANCE - w.balancePaid,
        cards: 1,
        stock: STOCK - 1,
      });
      expect(w.providerPaid + w.balancePaid, 'paid exactly once').toBe(PRICE);
      expect((await detail(w)).body.data.money).toMatchObject({ outstandingCents: 0, refundedCents: 0, refundingCents: 0 });
      // a whole order is fully paid only by a friend; a split one by its parts' payers (a friend's the last, or none)
      const invs = await invitationStates(w);
      if (w.world === 'whole') expect(invs).toEqual(['paid']);
      else expect(invs.filter((st) => st === 'open')).toEqual([]);
      await kept(w);
    },
    // the money on its way back: what was paid from the balance is back, the provider's share not yet, nothing failed
    refunding: async (w) => {
      const r = await refundAsked(w);
      expect(
        r.states.filter((st) => st === 'pending' || st === 'processing'),
        "the provider's share is on its way",
      ).not.toHaveLength(0);
      expect(r.states, 'nothing failed').not.toContain('failed');
      expect(await balance(w), "the balance's share is back").toBe(BALANCE);
    },
    // every share back with its payer
    refunded: async (w) => {
      const r = await refundAsked(w);
      expect(
        r.states.every((st) => st === 'succeeded' || st === 'settled'),
        `all returned: ${r.states.join(', ')}`,
      ).toBe(true);
      expect(await balance(w)).toBe(BALANCE);
      const { refundedCents, refundingCents } = (await detail(w)).body.data.money;
      expect([refundedCents, refundingCents]).toEqual([w.balancePaid + w.providerPaid, 0]);
    },
    // the provider refused: staff see it with the provider's reason, and it is tried again
    refund_failed: async (w) => {
      const r = await refundAsked(w);
      expect(r.states, 'a refund failed').toContain('failed');
      const attention = (await s.call('GET', '/api/staff/refunds/attention', { token: w.staff!.token })).body.data as Array<{
        refundId: number;
        failureCode: string;
      }>;
      expect(
        attention.filter((a) => r.ids.includes(a.refundId)).map((a) => a.failureCode),
        'listed for staff with the reason',
      ).toEqual(['NOT_ENOUGH']);
    },
  },
});
