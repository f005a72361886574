// @vitest-environment jsdom
import { act, fireEvent, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyEventObject } from 'xstate';
import { liveShares, orderSplitMachine, type SplitOrderContext } from '../../machines/order-split.machine';
import type { OrderDetail } from '../../src/api/orders';
import { formatYuan } from '../../src/domain/money';
import { balance, create, credit, newGoods, newMember, pay } from '../server/buying/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { confirmStepEvents, defineScreenPaths, sentBy, type World } from './support/screen-paths';

/**
 * Splitting an order to pay it in parts on /orderdetail/splittopay (spec §4 "orders can be split (max
 * 10 sub-orders); an unpaid split can be cancelled", §5 "split amount below payment amount and order
 * total", §8, §9; decision 021), on the real screen and server. A ¥199 order is proposed as 2 equal
 * parts; the member picks 3 or 10 parts, or types amounts (one too many cents, a zero part, an amount
 * with three decimals, then a fix); the split is sent once (a double tap is one request) and the
 * server stores those parts; each part to pay links to its pay page and to asking a friend; the split
 * is undone after a confirm and a part already paid by balance comes back to the balance. Refusals
 * are made on another phone (split there: 40015; cancelled there: 40014) and said, then the order is
 * read again; a lost answer offers a retry under the same key.
 *
 * Worlds: an unpaid order; the same split in two with the first part paid by balance; split with a
 * part at WeChat Pay (nothing can change); split with every part paid by balance (its parts shown,
 * no undo offered); a paid order (not offered); an order number that is not the member's.
 */
const h = await startScreenHarness({ seed: true });

const PRICE = 19_900;
const HALF = 9_950;

type WorldName = 'unpaid' | 'split' | 'paying' | 'splitPaid' | 'paid' | 'missing';
const WORLDS: Record<string, WorldName> = {
  'an unpaid order': 'unpaid',
  'a split order, a part paid by balance': 'split',
  'a split order, a part being paid': 'paying',
  'a split order, every part paid': 'splitPaid',
  'a paid order': 'paid',
  'not my order': 'missing',
};

interface Member {
  world: WorldName;
  token: string;
  accountId: number;
  orderNo: string;
  /** the count the member chose and the amounts typed, since the form was last fresh */
  count: number;
  typed: Record<number, string>;
  /** how many requests had been sent at the member's last edit of the form */
  editedAt?: number;
  /** the member's last action on the screen (a tap, a choice, typing) */
  did?: string;
  /** how many requests had been sent when the member last closed something (a dialog, a message) */
  closedAt?: number;
}
type W = World<Member>;

/** A part's state as the member reads it while someone holds it. */
const HOLDER_LABELS: Record<string, string> = { memberTrade: '支付中', friendTrade: '好友正在支付', friendLink: '等好友代付' };

// what the walk reads of the server's answers (the checks read the real ones)
const share = (seq: number, state: string, amountCents = HALF, holder: string | null = null) => ({
  seq,
  kind: 'share',
  amountCents,
  state,
  paidBy: state === 'paid' ? 'balance' : null,
  holder,
  actions: state === 'unpaid' ? ['pay'] : [],
  payFailed: false,
});
const detail = (state: string, actions: string[], parts: unknown[]) => ({
  code: 200,
  status: true,
  data: { orderNo: 'sym', state, amountToPayCents: PRICE, actions, parts, refunds: [] },
});
const WHOLE = detail('unpaid', ['pay', 'cancel', 'split'], [share(1, 'unpaid', PRICE)]);
const SPLIT = detail('unpaid', ['pay', 'cancel', 'unsplit'], [share(1, 'dropped', PRICE), share(2, 'paid'), share(3, 'unpaid')]);
const PAYING = detail(
  'unpaid',
  ['pay', 'cancel', 'unsplit', 'invite'],
  [share(1, 'dropped', PRICE), share(2, 'unpaid', HALF, 'memberTrade'), share(3, 'unpaid')],
);
const PAID = detail('paid', [], [share(1, 'paid', PRICE)]);
// paid in full part by part: still shown in its parts, nothing left to undo
const SPLIT_PAID = detail('paid', [], [share(1, 'dropped', PRICE), share(2, 'paid'), share(3, 'paid')]);
const CANCELLED = detail('cancelled', [], [share(1, 'dropped', PRICE)]);
const refusal = (code: number) => ({ code, status: false, data: null });
const SPLIT_ELSEWHERE = 40_015;
const CANCELLED_ELSEWHERE = 40_014;
/** what the order reads as when the page (re)loads it, by world and by what a refusal said happened meanwhile */
const NOT_FOUND = refusal(70_004);
const LOADED: Record<WorldName, unknown> = {
  unpaid: WHOLE,
  split: SPLIT,
  paying: PAYING,
  splitPaid: SPLIT_PAID,
  paid: PAID,
  missing: NOT_FOUND,
};

/** the form's amounts: proposed equal (odd cents on the first), then as typed */
const PROPOSED: Record<number, string[]> = { 2: ['99.50', '99.50'], 3: ['66.34', '66.33', '66.33'], 10: Array(10).fill('19.90') };
/** what the member types into the 2-part form (showing `before`) and what the form then says, part by part and about the total */
const TYPED = [
  { index: 0, text: '100', before: ['99.50', '99.50'], says: ['各份合计须等于待支付金额 ¥199，多了 ¥0.50'] },
  { index: 1, text: '99', before: ['100', '99.50'], says: [] },
  {
    index: 1,
    text: '0',
    before: ['99.50', '99.50'],
    says: ['第 2 份：金额须大于 0 且小于待支付金额 ¥199', '各份合计须等于待支付金额 ¥199，还差 ¥99.50'],
  },
  { index: 0, text: '1.234', before: ['99.50', '99.50'], says: ['第 1 份：请输入金额，最多两位小数'] },
];

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);
const $$ = (sel: string) => [...document.querySelectorAll<HTMLElement>(sel)];
const button = (action: string) => $<HTMLButtonElement>(`[data-action="${action}"]`);
const alertText = () => screen.queryByRole('alert')?.textContent ?? null;
const fields = () => $$('[data-split-form] input[name^="part-"]').map((i) => (i as HTMLInputElement).value);
const said = () => $$('[data-split-problem]').map((p) => p.textContent);
const dialogOpen = () => screen.queryByRole('button', { name: '确定取消分开' }) !== null;

/** an unpaid order of another member */
async function othersOrder(s: typeof h.server, goodsId: number) {
  const other = await newMember(s);
  return (await create(s, other.token, { goodsId })).body.data.orderNo as string;
}
const detailOf = async (w: W) =>
  (await h.server.call('GET', `/api/orders/detail?orderNo=${w.orderNo}`, { token: w.token })).body.data as OrderDetail;
const answered = (w: W, invoke: string, code: number | 'network', since = 0) => sentBy(w, invoke, since).some((r) => r.answer === code);
/** the form was made fresh (the order read into it, or the split undone) after the request `since` */
const resetSince = (w: W, since: number) =>
  w.sent.slice(since).some((r) => (r.invoke === 'loadOrder' || r.invoke === 'unsplitOrder') && r.answer === 200);

/** the amounts the form shows now, from what the member did */
function formNow(w: W): string[] {
  if (w.editedAt === undefined || resetSince(w, w.editedAt)) return PROPOSED[2]!;
  const texts = [...PROPOSED[w.count]!];
  for (const [i, t] of Object.entries(w.typed)) texts[Number(i)] = t;
  return texts;
}
const cents = (texts: string[]) => texts.map((t) => Math.round(Number(t) * 100));
/** what the form says is wrong with these amounts (the messages the member reads) */
const sayingFor = (texts: string[]) =>
  TYPED.find((t) => t.before.map((a, i) => (i === t.index ? t.text : a)).join('|') === texts.join('|'))?.says ?? [];

function edit(w: W) {
  if (w.editedAt !== undefined && resetSince(w, w.editedAt)) Object.assign(w, { count: 2, typed: {} });
  w.editedAt = w.sent.length;
}

/** the server has the order whole (one unpaid share of all that is left to pay), and offers to split it */
async function storedWhole(w: W) {
  const d = await detailOf(w);
  expect(liveShares(d.parts).map((p) => [p.amountCents, p.state])).toEqual([[PRICE, 'unpaid']]);
  expect(d.actions).toContain('split');
}
/** the server has the order split (and did not undo it) */
async function storedSplit(w: W) {
  const d = await detailOf(w);
  expect(liveShares(d.parts).length).toBeGreaterThan(1);
  return d;
}
/** what the order's head says: the server's state, and what is left to pay */
async function headShows(w: W) {
  const d = await detailOf(w);
  expect($('[data-order-state-label]')?.getAttribute('data-order-state-label')).toBe(d.state);
  // the one money breakdown (decision 101): the goods, what was paid and what is still to pay, as the server sums them
  const lines = within(screen.getByRole('list', { name: '金额明细' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);
  expect(lines[0]).toBe('商品金额¥199');
  expect(lines).toContain(`实付金额${formatYuan(d.money.appliedCents)}`);
  expect(lines.includes(`待支付${formatYuan(d.money.outstandingCents)}`)).toBe(d.money.outstandingCents > 0);
  return d;
}
/** the last refusal the server gave this path */
const lastRefusal = (w: W) =>
  [...sentBy(w, 'splitOrder'), ...sentBy(w, 'unsplitOrder')]
    .sort((a, b) => w.sent.indexOf(a) - w.sent.indexOf(b))
    .findLast((r) => typeof r.answer === 'number' && r.answer !== 200)?.answer;

/** The member's actions, each recorded as the last thing the member did (and a close, when). */
function recorded(events: Record<string, (w: W, e: AnyEventObject) => Promise<void>>): typeof events {
  return Object.fromEntries(
    Object.entries(events).map(([type, perform]) => [
      type,
      async (w: W, e: AnyEventObject) => {
        w.did = type;
        if (type === 'confirm.dismiss') w.closedAt = w.sent.length;
        await perform(w, e);
      },
    ]),
  );
}

defineScreenPaths<Member>(h, {
  machine: orderSplitMachine,
  screen: '/orderdetail/splittopay',
  inputs: Object.fromEntries(Object.entries(WORLDS).map(([name, world]) => [name, { orderNo: world }])),
  cases: {
    'count.change': [{ count: 3 }, { count: 10 }],
    'part.change': TYPED.map(({ index, text }) => ({ index, text })),
    'xstate.done.actor.loadOrder': [WHOLE, SPLIT, PAYING, SPLIT_PAID, PAID, CANCELLED, NOT_FOUND].map((output) => ({
      output,
      answer: { server: true },
    })),
    'xstate.error.actor.loadOrder': [{ error: new Error('network') }],
    'xstate.done.actor.splitOrder': [
      { output: SPLIT, answer: { server: true } },
      // split on the member's other phone a moment ago
      {
        output: refusal(SPLIT_ELSEWHERE),
        answer: {
          server: true,
          arrange: async (w: W) =>
            expect(
              (await h.server.call('POST', '/api/orders/split', { token: w.token, body: { orderNo: w.orderNo, parts: [10_000, 9_900] } }))
                .body.code,
            ).toBe(200),
        },
      },
    ],
    'xstate.error.actor.splitOrder': [{ error: new Error('network') }],
    'xstate.done.actor.unsplitOrder': [
      { output: WHOLE, answer: { server: true } },
      // cancelled on the member's other phone a moment ago
      {
        output: refusal(CANCELLED_ELSEWHERE),
        answer: {
          server: true,
          arrange: async (w: W) =>
            expect((await h.server.call('POST', '/api/orders/cancel', { token: w.token, body: { orderNo: w.orderNo } })).body.code).toBe(
              200,
            ),
        },
      },
    ],
    'xstate.error.actor.unsplitOrder': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as SplitOrderContext;
    const world = c.orderNo as WorldName;
    // the page reads what is there: the world, or what the refusal said changed meanwhile
    if (e.type === 'xstate.done.actor.loadOrder') {
      const now = c.errorCode === SPLIT_ELSEWHERE ? SPLIT : c.errorCode === CANCELLED_ELSEWHERE ? CANCELLED : LOADED[world];
      return (e as unknown as { output: unknown }).output === now;
    }
    // the member shapes the first form once: 3 or 10 parts, or one amount typed (and the one fix)
    const fresh = c.idempotencyKey === undefined && c.texts.length === 2;
    if (e.type === 'count.change') return fresh && c.texts.join('|') === PROPOSED[2]!.join('|');
    if (e.type === 'part.change') {
      const t = TYPED.find(
        (x) => x.index === (e as unknown as { index: number }).index && x.text === (e as unknown as { text: string }).text,
      )!;
      return fresh && c.texts.join('|') === t.before.join('|');
    }
    // the member splits a form they shaped (the proposal as it is would split as the 2 parts typed do)
    if (e.type === 'split.submit') return c.texts.join('|') !== PROPOSED[2]!.join('|');
    // after a refusal the order is shown as it is; nothing more is changed on that path
    if (e.type === 'unsplit.ask') return c.errorCode === undefined;
    return true;
  },
  // the form's amounts matter until the order is split or refused; then the walk goes on from any of them alike
  project: (c: SplitOrderContext) => {
    const split = c.order !== undefined && liveShares(c.order.parts).length > 1;
    return {
      texts: split || c.errorCode !== undefined ? null : c.texts,
      errorCode: c.errorCode ?? null,
      order: c.order ? [c.order.state, c.order.actions.join()] : null,
    };
  },
  requests: {
    loadOrder: { method: 'GET', path: /^\/api\/orders\/detail$/ },
    splitOrder: { method: 'POST', path: /^\/api\/orders\/split$/ },
    unsplitOrder: { method: 'POST', path: /^\/api\/orders\/unsplit$/ },
  },

  async start(hh, name) {
    const world = WORLDS[name]!;
    const m = await newMember(hh.server);
    const g = await newGoods(hh.server);
    const orderNo = (await create(hh.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
    const call = (path: string, body: Record<string, unknown>) => hh.server.call('POST', path, { token: m.token, body });
    if (world === 'split' || world === 'paying' || world === 'splitPaid')
      expect((await call('/api/orders/split', { orderNo, parts: [HALF, HALF] })).body.code).toBe(200);
    if (world === 'split') {
      await credit(hh.server, m.id, HALF);
      expect((await call('/api/orders/pay', { orderNo, method: 'balance', partSeq: 2 })).body.data.order.state).toBe('unpaid');
    }
    if (world === 'splitPaid') {
      await credit(hh.server, m.id, PRICE);
      expect((await call('/api/orders/pay', { orderNo, method: 'balance', partSeq: 2 })).body.data.order.state).toBe('unpaid');
      expect((await call('/api/orders/pay', { orderNo, method: 'balance', partSeq: 3 })).body.data.order.state).not.toBe('unpaid');
    }
    // a part's trade holds that part only: the order still waits for its parts (decision 058)
    if (world === 'paying')
      expect((await call('/api/orders/pay', { orderNo, method: 'wechat', partSeq: 2 })).body.data.order.state).toBe('unpaid');
    if (world === 'paid') {
      await credit(hh.server, m.id, PRICE);
      expect((await pay(hh.server, m.token, orderNo, 'balance')).body.data.order.state).toBe('paid');
    }
    hh.jar.setClientCookie('token', m.token);
    // another member's order is no order of this member's: never shown
    const opened = world === 'missing' ? await othersOrder(hh.server, g.id) : orderNo;
    const ui = await hh.open(`/orderdetail/splittopay?orderNo=${opened}`);
    return { ui, world, token: m.token, accountId: m.id, orderNo: opened, count: 2, typed: {} };
  },

  events: recorded({
    'count.change': async (w, e) => {
      edit(w);
      w.count = (e as unknown as { count: number }).count;
      w.typed = {};
      await w.ui.user.selectOptions($<HTMLSelectElement>('select[name="count"]')!, String(w.count));
    },
    'part.change': async (w, e) => {
      const { index, text } = e as unknown as { index: number; text: string };
      edit(w);
      w.typed[index] = text;
      await act(async () => {
        fireEvent.change($(`input[name="part-${index + 1}"]`)!, { target: { value: text } });
      });
    },
    // a double tap: one split
    'split.submit': (w) => w.ui.user.dblClick(button('split-submit')!),
    // only where the page offers the undo
    'unsplit.ask': (w) => w.ui.user.click(screen.getByRole('button', { name: '取消分开支付' })),
    ...confirmStepEvents<Member>('确定取消分开'),
  }),

  states: {
    // the order is read when the page opens, when the member retries a lost read, or after closing a refusal
    loading: (w) => {
      const last = w.sent.filter((r) => r.invoke && r.answer !== undefined).at(-1);
      const why = !last
        ? 'opened'
        : last.invoke === 'loadOrder' && last.answer === 'network' && w.did === 'network.retry'
          ? 'retried'
          : last.invoke !== 'loadOrder' &&
              typeof last.answer === 'number' &&
              last.answer !== 200 &&
              (w.closedAt ?? -1) > w.sent.indexOf(last)
            ? 'refusal closed'
            : `after ${last.invoke} answered ${String(last.answer)}`;
      expect(['opened', 'retried', 'refusal closed'], 'why the order is read again').toContain(why);
      expect($('[data-split-loading]')).not.toBe(null);
      expect($('[data-split-form]')).toBe(null);
      expect($('[data-split-parts]')).toBe(null);
      expect(
        w.held.get('loadOrder')?.map((r) => r.path),
        'the order is being read',
      ).toEqual([`/api/orders/detail?orderNo=${encodeURIComponent(w.orderNo)}`]);
    },
    loadUnreachable: (w) => {
      expect(sentBy(w, 'loadOrder').at(-1)?.answer).toBe('network');
      expect(alertText()).toBe('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect($('[data-split-form]')).toBe(null);
    },
    missing: (w) => {
      expect(sentBy(w, 'loadOrder').at(-1)?.answer, 'not an order of this member').toBe(70_004);
      expect(screen.getByRole('heading', { name: '没有找到这个订单' })).toBeTruthy();
      expect(screen.getByRole('button', { name: '查看我的订单' }).getAttribute('href')).toBe('/mine/orders');
    },
    notSplittable: async (w) => {
      const d = await headShows(w);
      // paid here, or cancelled on another phone
      expect(d.state).toBe(w.world === 'paid' ? 'paid' : 'cancelled');
      expect(d.actions).not.toContain('split');
      expect($('[data-split-not-offered]')?.textContent).toContain('该订单当前不能分开支付');
      expect(button('back-to-order')?.getAttribute('href')).toBe(`/orderdetail?orderNo=${w.orderNo}`);
      expect($('[data-split-form]')).toBe(null);
      expect($('[data-split-parts]')).toBe(null);
      expect(alertText()).toBe(null);
      // money given back to its payers is said, one line a refund
      expect($$('[data-order-refunds] p').length).toBe(d.refunds.length);
    },
    // the form: what the member chose and typed, what is wrong with it by part, and "split" only when nothing is
    editing: async (w) => {
      await storedWhole(w);
      await headShows(w);
      const texts = formNow(w);
      expect($<HTMLSelectElement>('select[name="count"]')?.value).toBe(String(texts.length));
      expect(fields()).toEqual(texts);
      const saying = sayingFor(texts);
      expect(said()).toEqual(saying);
      expect(button('split-submit')?.textContent).toBe('确认分开支付');
      expect(button('split-submit')?.disabled, 'split only when every rule holds').toBe(saying.length > 0);
      expect(alertText()).toBe(null);
      expect($('[data-split-parts]')).toBe(null);
      // an undone split: the part paid by balance is back on the balance, and the page says so
      const undone = answered(w, 'unsplitOrder', 200);
      expect($('[data-order-refunds]')?.textContent ?? null).toBe(undone && w.world === 'split' ? '¥99.50 已退回余额' : null);
      if (w.world === 'split') expect(await balance(h.server, w.token)).toBe(undone ? HALF : 0);
    },
    splitting: async (w) => {
      expect(['split.submit', 'network.retry'], 'a split is sent only when the member asks').toContain(w.did);
      await storedWhole(w);
      expect(button('split-submit')?.textContent).toBe('正在提交…');
      expect(button('split-submit')?.disabled).toBe(true);
      expect(fields()).toEqual(formNow(w));
      expect(w.held.get('splitOrder')?.map((r) => r.body)).toEqual([{ orderNo: w.orderNo, parts: cents(formNow(w)) }]);
    },
    splitUnreachable: async (w) => {
      await storedWhole(w);
      expect(sentBy(w, 'splitOrder').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(fields(), 'what the member typed is kept').toEqual(formNow(w));
      expect(button('split-submit')?.disabled, 'retry or close, not a new split').toBe(true);
    },
    refused: async (w) => {
      const code = lastRefusal(w);
      const d = await detailOf(w);
      if (code === SPLIT_ELSEWHERE) {
        expect(alertText()).toBe('订单已拆分');
        expect(
          liveShares(d.parts).map((p) => p.amountCents),
          'split on the other phone',
        ).toEqual([10_000, 9_900]);
      } else {
        expect(code).toBe(CANCELLED_ELSEWHERE);
        expect(alertText()).toBe('订单已取消');
        expect(d.state).toBe('cancelled');
      }
      expect(screen.getByRole('button', { name: '关闭' })).toBeTruthy();
      expect($('[data-split-form]')).toBe(null);
      expect($('[data-split-parts]')).toBe(null);
    },
    // the parts as the server has them; each to pay leads to its pay page and to a friend; undo while it can be paid
    split: async (w) => {
      const d = await storedSplit(w);
      await headShows(w);
      const shares = liveShares(d.parts);
      expect(
        $$('[data-part-seq]').map((li) => [
          Number(li.dataset.partSeq),
          li.querySelector('[data-part-amount]')?.textContent,
          li.querySelector('[data-part-state-label]')?.textContent,
        ]),
      ).toEqual(
        shares.map((p) => [
          p.seq,
          formatYuan(p.amountCents),
          p.state === 'paid'
            ? '你已支付（余额支付）'
            : (HOLDER_LABELS[p.holder ?? ''] ?? (p.payFailed ? '支付未成功，可重新支付' : '待支付')),
        ]),
      );
      // the split the member sent is the split the server keeps
      const mine = sentBy(w, 'splitOrder').findLast((r) => r.answer === 200);
      if (mine) expect(shares.map((p) => p.amountCents)).toEqual((mine.body as { parts: number[] }).parts);
      // each part by who holds it (decision 058): nobody: pay it or send it; the member's own trade: its progress; a friend: the invitation
      const waiting = ['unpaid', 'payment_failed', 'friend_paying'].includes(d.state);
      const free = waiting ? shares.filter((p) => p.state === 'unpaid' && p.holder === null) : [];
      const beingPaid = waiting ? shares.filter((p) => p.state === 'unpaid' && p.holder === 'memberTrade') : [];
      const withFriend = shares.filter((p) => p.state === 'unpaid' && (p.holder === 'friendLink' || p.holder === 'friendTrade'));
      const pays = (parts: typeof shares) => parts.map((p) => `/orderdetail?orderNo=${w.orderNo}&partSeq=${p.seq}`);
      const friendPages = (parts: typeof shares) => parts.map((p) => `/friendsplit?orderNo=${w.orderNo}&partSeq=${p.seq}`);
      expect($$('[data-action="pay-part"]').map((a) => a.getAttribute('href'))).toEqual(pays(free));
      expect(
        $$('[data-action="part-progress"]').map((a) => a.getAttribute('href')),
        'a part at a provider: its progress, the other parts still payable',
      ).toEqual(pays(beingPaid));
      expect($$('[data-action="ask-friend"]').map((a) => a.getAttribute('href'))).toEqual(friendPages(free));
      expect($$('[data-action="view-invitation"]').map((a) => a.getAttribute('href'))).toEqual(friendPages(withFriend));
      expect(button('unsplit')?.textContent ?? null, 'undo offered while the order can be paid').toBe(
        d.actions.includes('unsplit') ? '取消分开支付' : null,
      );
      expect(dialogOpen()).toBe(false);
      expect(alertText()).toBe(null);
      expect($('[data-split-form]')).toBe(null);
    },
    confirmingUnsplit: async (w) => {
      expect(w.did).toBe('unsplit.ask');
      await storedSplit(w);
      expect(screen.getByText('取消后订单恢复为整单支付；已支付的部分会原路退回给付款人。')).toBeTruthy();
      expect(dialogOpen()).toBe(true);
      expect(w.held.get('unsplitOrder') ?? [], 'nothing sent before the confirm').toEqual([]);
    },
    unsplitting: async (w) => {
      expect(['confirm.accept', 'network.retry'], 'an undo is sent only when the member confirms it').toContain(w.did);
      await storedSplit(w);
      expect(dialogOpen()).toBe(false);
      expect(button('unsplit')?.textContent).toBe('正在取消…');
      expect(button('unsplit')?.disabled).toBe(true);
      expect(w.held.get('unsplitOrder')?.map((r) => r.body)).toEqual([{ orderNo: w.orderNo }]);
    },
    unsplitUnreachable: async (w) => {
      await storedSplit(w);
      expect(sentBy(w, 'unsplitOrder').at(-1)?.answer).toBe('network');
      expect(alertText()).toContain('网络无法连接');
      expect(screen.getByRole('button', { name: '重试' })).toBeTruthy();
      expect(button('unsplit'), 'retry or close, not a new undo').toBe(null);
      expect($$('[data-part-seq]').length).toBeGreaterThan(1);
    },
  },

  effects: {
    // one tap, one split, under a key never sent before (the double tap sent nothing more)
    'split.submit': (w, _e, before) => {
      const taps = sentBy(w, 'splitOrder', before);
      expect(taps, 'a double tap is one request').toHaveLength(1);
      expect(taps[0]!.key, 'the request carries an Idempotency-Key').toBeDefined();
      expect(
        sentBy(w, 'splitOrder')
          .slice(0, -1)
          .map((r) => r.key),
        'a new intent, a new key',
      ).not.toContain(taps[0]!.key);
    },
    'confirm.accept': (w, _e, before) => {
      const [tap] = sentBy(w, 'unsplitOrder', before);
      expect(tap?.key).toBeDefined();
      expect(
        sentBy(w, 'unsplitOrder')
          .slice(0, -1)
          .map((r) => r.key),
      ).not.toContain(tap!.key);
    },
    // a retry sends the lost request again: the same one, and the same key for a split or an undo
    'network.retry': (w, _e, before) => {
      const lost = w.sent.slice(0, before).findLast((r) => r.invoke);
      const again = w.sent.slice(before).find((r) => r.invoke);
      expect(lost?.answer, 'only what was lost is retried').toBe('network');
      expect(again?.invoke, 'a retry sends the lost request again').toBe(lost!.invoke);
      if (again!.invoke !== 'loadOrder') expect(again!.key, 'the same intent: the same key').toBe(lost!.key);
    },
    'unsplit.ask': (w, _e, before) => {
      expect(sentBy(w, 'unsplitOrder', before)).toEqual([]);
      expect(dialogOpen(), 'the confirm is open').toBe(true);
    },
    // "not now", or closing what was said: nothing is changed on the server
    'confirm.dismiss': (w, _e, before) => {
      expect([...sentBy(w, 'splitOrder', before), ...sentBy(w, 'unsplitOrder', before)]).toEqual([]);
      expect(dialogOpen()).toBe(false);
      expect(alertText(), 'closed: nothing is left said or to retry').toBe(null);
    },
    'count.change': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    'part.change': (w, _e, before) => expect(w.sent.slice(before).filter((r) => r.invoke)).toEqual([]),
    // the member is told the split is undone (the toast hides itself after 2 s)
    'xstate.done.actor.unsplitOrder': (w) => {
      if (sentBy(w, 'unsplitOrder').at(-1)?.answer === 200) expect($('[data-toast-type]')?.textContent).toBe('已取消分开支付');
    },
  },
});
