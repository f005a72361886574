// @vitest-environment jsdom
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { BALANCE_HISTORY_PAGE_SIZE } from '../../src/app/screens/mine/balance-history-screen';
import { balanceLedger } from '../../src/server/db/schema/index';
import { create, credit, newGoods, newMember, pay } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * /mine/balanceHistory (decision 021): the real screen against the real server. A member's ledger is
 * made by the real API (a top-up, an order using the balance then cancelled, an order paid by
 * balance) and by the ledger's other writers (a grant, a split part, a refund written as their
 * services write them), at instants chosen so the Shanghai day differs from the UTC one.
 */
const h = await startScreenHarness({ seed: true });
const PAGE = BALANCE_HISTORY_PAGE_SIZE;
const HOUR = 3_600_000;
/** 16:30 UTC is 00:30 the next day in Shanghai */
const LATE_UTC = new Date('2026-11-20T16:30:00Z');

async function memberWithHistory(extraGrants = 0) {
  const m = await newMember(h.server);
  const g = await newGoods(h.server, { name: '20次卡', nameEn: '20-class card' });
  const was = h.server.clock.now();
  h.server.clock.set(LATE_UTC);
  let first: string, second: string;
  try {
    await credit(h.server, m.id, 10_000);
    first = (await create(h.server, m.token, { goodsId: g.id, useBalance: true })).body.data.orderNo as string;
    await h.server.call('POST', '/api/orders/cancel', { token: m.token, body: { orderNo: first } });
    await credit(h.server, m.id, 20_000);
    second = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
    expect((await pay(h.server, m.token, second, 'balance')).body.data.order.state).toBe('paid');
    h.server.clock.advance(HOUR);
    const at = h.server.clock.now();
    await h.server.deps.db.insert(balanceLedger).values([
      { accountId: m.id, changeCents: 1_000, reason: 'grant', orderId: null, createdAt: at },
      { accountId: m.id, changeCents: -500, reason: 'split_part', orderId: null, createdAt: at },
      { accountId: m.id, changeCents: 550, reason: 'refund', orderId: null, createdAt: at },
      ...Array.from({ length: extraGrants }, () => ({
        accountId: m.id,
        changeCents: 100,
        reason: 'grant',
        orderId: null,
        createdAt: at,
      })),
    ]);
  } finally {
    h.server.clock.set(was);
  }
  h.jar.setClientCookie('token', m.token);
  return { m, first, second };
}

const rows = () => [...document.querySelectorAll<HTMLElement>('[data-list="balance-history"] [data-ledger-row]')];
/** what a row says, in reading order */
const said = (row: HTMLElement) => row.textContent!.replace(/\s+/g, ' ').trim();
const ids = () => rows().map((r) => Number(r.dataset.ledgerRow));
const idsOnServer = async (token: string, pagenum: number) =>
  (
    (await h.server.call('GET', `/api/customers/balance/history?pagenum=${pagenum}&pagesize=${PAGE}`, { token })).body.data.list as Array<{
      id: number;
    }>
  ).map((r) => r.id);

describe('balance history screen', () => {
  it('says each change in words, newest first: what, the order, when in Shanghai, the signed amount (money in green) and the balance after', async () => {
    const { m, first, second } = await memberWithHistory();
    await h.open('/mine/balanceHistory');
    expect(ids()).toEqual(await idsOnServer(m.token, 0));
    expect(rows().map(said)).toEqual([
      '退款2026-11-21 01:30+¥5.50余额 ¥111.50',
      '拆分支付2026-11-21 01:30-¥5余额 ¥106',
      '赠送2026-11-21 01:30+¥10余额 ¥111',
      `购买20次卡订单 ${second}2026-11-21 00:30-¥199余额 ¥101`,
      '充值2026-11-21 00:30+¥200余额 ¥300',
      `取消退回20次卡订单 ${first}2026-11-21 00:30+¥100余额 ¥100`,
      `购买20次卡订单 ${first}2026-11-21 00:30-¥100余额 ¥0`,
      '充值2026-11-21 00:30+¥100余额 ¥100',
    ]);
    // money in is green, money out plain
    expect(rows().map((r) => r.querySelector('[data-change]')!.className.includes('text-emerald'))).toEqual([
      true,
      false,
      true,
      false,
      true,
      true,
      false,
      true,
    ]);
    expect(document.querySelector('[data-balance-now]')!.textContent).toBe('¥111.50');
    // one page: no "load more"
    expect(document.querySelector('[data-more]')).toBeNull();
  });

  it('in English: the reasons, the goods and the title', async () => {
    const { second } = await memberWithHistory();
    await h.open('/mine/balanceHistory', { locale: 'en' });
    expect(rows().map((r) => r.querySelector('[data-reason-label]')!.textContent)).toEqual([
      'Refunded',
      'Split part',
      'Granted',
      'Bought',
      'Top-up',
      'Given back on cancel',
      'Bought',
      'Top-up',
    ]);
    expect(said(rows()[3]!)).toBe(`Bought20-class cardOrder ${second}2026-11-21 00:30-¥199Balance ¥101`);
    await waitFor(() => expect(document.title).toContain('Balance history'));
  });

  it('pages as the member asks: the next page after the first, in the server order, then no more', async () => {
    const { m } = await memberWithHistory(PAGE);
    const ui = await h.open('/mine/balanceHistory');
    expect(ids()).toEqual(await idsOnServer(m.token, 0));
    await ui.user.click(screen.getByRole('button', { name: '加载更多' }));
    await waitFor(async () => expect(ids()).toEqual([...(await idsOnServer(m.token, 0)), ...(await idsOnServer(m.token, 1))]));
    expect(rows()).toHaveLength(PAGE + 8);
    await waitFor(() => expect(document.querySelector('[data-more]')).toBeNull());
    // the last row is the first top-up, its balance after counted over the whole ledger
    expect(said(rows().at(-1)!)).toBe('充值2026-11-21 00:30+¥100余额 ¥100');
  });

  it('an empty history says so', async () => {
    const m = await newMember(h.server);
    h.jar.setClientCookie('token', m.token);
    await h.open('/mine/balanceHistory');
    expect(document.querySelector('[data-empty="balance-history"]')!.textContent).toBe('还没有余额变动记录');
    expect(rows()).toEqual([]);
    expect(document.querySelector('[data-balance-now]')!.textContent).toBe('¥0');
  });

  it("a row with an order opens the order's page", async () => {
    const { second } = await memberWithHistory();
    const ui = await h.open('/mine/balanceHistory');
    expect(
      rows()
        .filter((r) => r.querySelector('a'))
        .map((r) => r.dataset.reason),
    ).toEqual(['order', 'cancel', 'order']);
    await ui.user.click(screen.getByRole('link', { name: `订单 ${second}` }));
    await ui.waitForPath(`/orderdetail?orderNo=${second}`);
    await waitFor(() => expect(document.querySelector(`[data-order="${second}"]`)?.getAttribute('data-order-state')).toBe('paid'));
  });

  it('/mine shows the balance with a link to its history; a visitor is sent to log in', async () => {
    const ui = await h.open('/mine/balanceHistory');
    await ui.waitForPath(`/login/${encodeURIComponent('/mine/balanceHistory')}`);
    ui.unmount();

    await memberWithHistory();
    const mine = await h.open('/mine');
    expect(document.querySelector('[data-mine-balance] [data-balance]')!.textContent).toBe('¥111.50 · ');
    await mine.user.click(screen.getByRole('link', { name: /余额变动记录/ }));
    await mine.waitForPath('/mine/balanceHistory');
    await waitFor(() => expect(rows()).toHaveLength(8));
  });
});
