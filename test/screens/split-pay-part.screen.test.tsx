// @vitest-environment jsdom
import { like } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { liveShares } from '../../machines/order-split.machine';
import type { OrderDetail } from '../../src/api/orders';
import { setPageLeaver } from '../../src/app/leave-page';
import { payStandInOrders } from '../../src/server/db/schema/index';
import { create, credit, newGoods, newMember } from '../server/orders/support';
import { screen, startScreenHarness } from './support/screen-harness';

/**
 * Getting to the split and paying one part (spec §4 "orders can be split"): the order's
 * page offers "split to pay" when the server does; a part is paid on the order's pay page for that
 * part (`&partSeq=`) by the same pay flow as a whole order, comes back to its own result page, and
 * the split page then shows it paid. The real screens and server; the Alipay stand-in plays the
 * provider. (The split screen's own states: order-split.paths.test.tsx.)
 */
const h = await startScreenHarness({ seed: true });
afterEach(() => setPageLeaver(undefined));

const $ = <T extends Element = HTMLElement>(sel: string) => document.querySelector<T>(sel);
const detailOf = async (token: string, orderNo: string) =>
  (await h.server.call('GET', `/api/orders/detail?orderNo=${orderNo}`, { token })).body.data as OrderDetail;

async function member(balanceCents = 0) {
  const m = await newMember(h.server);
  const g = await newGoods(h.server);
  if (balanceCents) await credit(h.server, m.id, balanceCents);
  const orderNo = (await create(h.server, m.token, { goodsId: g.id })).body.data.orderNo as string;
  h.jar.setClientCookie('token', m.token);
  return { ...m, orderNo };
}
async function splitInTwo(token: string, orderNo: string) {
  expect((await h.server.call('POST', '/api/orders/split', { token, body: { orderNo, parts: [9_950, 9_950] } })).body.code).toBe(200);
}

describe('paying a split order part by part', () => {
  it("an unpaid order's page offers 'split to pay' and leads to the split form", async () => {
    const m = await member();
    const ui = await h.open(`/orderdetail?orderNo=${m.orderNo}`);
    await ui.user.click($('[data-action="split-order"]')!);
    await ui.waitForPath(`/orderdetail/splittopay?orderNo=${m.orderNo}`);
    await screen.findByRole('button', { name: '确认分开支付' });
    expect([...document.querySelectorAll<HTMLInputElement>('input[name^="part-"]')].map((i) => i.value)).toEqual(['99.50', '99.50']);
  });

  it('while a friend holds one part: that part waits for the friend and leads to its invitation; the other may still go to a friend', async () => {
    const m = await member();
    await splitInTwo(m.token, m.orderNo);
    const [first, second] = liveShares((await detailOf(m.token, m.orderNo)).parts);
    expect(
      (await h.server.call('POST', '/api/orders/friend/invite', { token: m.token, body: { orderNo: m.orderNo, partSeqs: [second!.seq] } }))
        .body.code,
    ).toBe(200);
    await h.open(`/orderdetail/splittopay?orderNo=${m.orderNo}`);
    const row = (seq: number) => $(`[data-part-seq="${seq}"]`)!;
    await screen.findByText('等好友代付');
    expect(row(second!.seq).querySelector('[data-part-state-label]')!.textContent).toBe('等好友代付');
    expect(row(second!.seq).querySelector('[data-action="view-invitation"]')!.getAttribute('href')).toBe(
      `/friendsplit?orderNo=${m.orderNo}&partSeq=${second!.seq}`,
    );
    expect(row(second!.seq).querySelector('[data-action="pay-part"]')).toBe(null);
    expect(row(first!.seq).querySelector('[data-action="ask-friend"]')!.getAttribute('href')).toBe(
      `/friendsplit?orderNo=${m.orderNo}&partSeq=${first!.seq}`,
    );
    // the member's own part may still be paid, by any way
    expect([...document.querySelectorAll('[data-action="pay-part"]')].map((a) => a.getAttribute('href'))).toEqual([
      `/orderdetail?orderNo=${m.orderNo}&partSeq=${first!.seq}`,
    ]);
  });

  it('while a friend holds one part, the member pays their own by any way (here the balance): its pay page offers every method; the order still waits for the friend', async () => {
    const m = await member(10_000);
    await splitInTwo(m.token, m.orderNo);
    const [first, second] = liveShares((await detailOf(m.token, m.orderNo)).parts);
    expect(
      (await h.server.call('POST', '/api/orders/friend/invite', { token: m.token, body: { orderNo: m.orderNo, partSeqs: [second!.seq] } }))
        .body.code,
    ).toBe(200);
    const ui = await h.open(`/orderdetail?orderNo=${m.orderNo}&partSeq=${first!.seq}`);
    // each part pays on its own (decision 058): not the balance only
    expect(
      [...document.querySelectorAll<HTMLInputElement>('input[type="radio"]')].map((r) => r.closest('label')?.textContent?.trim()).length,
    ).toBeGreaterThan(1);
    await ui.user.click(screen.getByRole('radio', { name: '余额支付' }));
    await ui.user.click($('[data-action="pay-order"]')!);
    await ui.waitForPath(`/payf?orderNo=${m.orderNo}&partSeq=${first!.seq}`);
    await screen.findByText('支付成功');
    const d = await detailOf(m.token, m.orderNo);
    expect(d.state, 'the friend still holds the other part').toBe('friend_paying');
    expect(liveShares(d.parts).map((p) => [p.state, p.paidBy])).toEqual([
      ['paid', 'balance'],
      ['unpaid', null],
    ]);
    // the friend's part's page offers nothing to pay
    await h.open(`/orderdetail?orderNo=${m.orderNo}&partSeq=${second!.seq}`);
    expect($('[data-action="pay-order"]')).toBe(null);
  });

  it("a split order's page pays no whole order: it leads to the parts", async () => {
    const m = await member();
    await splitInTwo(m.token, m.orderNo);
    await h.open(`/orderdetail?orderNo=${m.orderNo}`);
    expect($('[data-action="pay-order"]')).toBe(null);
    expect($('[data-action="split-order"]')).toBe(null);
    expect($('[data-action="view-split"]')?.getAttribute('href')).toBe(`/orderdetail/splittopay?orderNo=${m.orderNo}`);
  });

  it('a split order paid in full: its page asks for no part to pay, and still leads to the parts', async () => {
    const m = await member(20_000);
    await splitInTwo(m.token, m.orderNo);
    for (const p of liveShares((await detailOf(m.token, m.orderNo)).parts)) {
      const r = await h.server.call('POST', '/api/orders/pay', {
        token: m.token,
        body: { orderNo: m.orderNo, method: 'balance', partSeq: p.seq },
        headers: { 'Idempotency-Key': `pay-${m.orderNo}-${p.seq}` },
      });
      expect(r.body.code).toBe(200);
    }
    expect((await detailOf(m.token, m.orderNo)).state).toBe('fully_paid');
    await h.open(`/orderdetail?orderNo=${m.orderNo}`);
    expect($('[data-split-summary]')?.textContent).not.toContain('请在各份中选择要支付的一份');
    expect($('[data-split-summary]')?.textContent).toContain('此订单已分开支付，共 2 份');
    expect($('[data-action="pay-order"]')).toBe(null);
    expect($('[data-action="view-split"]')?.getAttribute('href')).toBe(`/orderdetail/splittopay?orderNo=${m.orderNo}`);
  });

  it('a part paid by balance from the split page: its pay page, its result, and the split page shows it paid; the order waits for the other part', async () => {
    const m = await member(10_000);
    await splitInTwo(m.token, m.orderNo);
    const ui = await h.open(`/orderdetail/splittopay?orderNo=${m.orderNo}`);
    const second = (await screen.findAllByText('支付这一份'))[1]!.closest('a')!;
    const seq = liveShares((await detailOf(m.token, m.orderNo)).parts)[1]!.seq;
    await ui.user.click(second);
    await ui.waitForPath(`/orderdetail?orderNo=${m.orderNo}&partSeq=${seq}`);
    expect($('[data-split-summary]')?.textContent).toContain('支付第 2 份 ¥99.50');
    expect($('[data-action="pay-order"]')?.textContent).toBe('去支付 ¥99.50');
    await ui.user.click(screen.getByRole('radio', { name: '余额支付' }));
    await ui.user.click($('[data-action="pay-order"]')!);
    await ui.waitForPath(`/payf?orderNo=${m.orderNo}&partSeq=${seq}`);
    await screen.findByText('支付成功');
    const d = await detailOf(m.token, m.orderNo);
    expect(d.state, 'one part paid: the order waits for the other').toBe('unpaid');
    expect(liveShares(d.parts).map((p) => [p.state, p.paidBy])).toEqual([
      ['unpaid', null],
      ['paid', 'balance'],
    ]);
    await ui.user.click(screen.getByText('查看各份').closest('a')!);
    await ui.waitForPath(`/orderdetail/splittopay?orderNo=${m.orderNo}`);
    await screen.findByText('你已支付（余额支付）');
    expect(document.querySelectorAll('[data-action="pay-part"]')).toHaveLength(1);
  });

  it('a part paid at Alipay comes back to its own result page, which says it is paid though the order still waits for the other part', async () => {
    const m = await member();
    await splitInTwo(m.token, m.orderNo);
    const seq = liveShares((await detailOf(m.token, m.orderNo)).parts)[0]!.seq;
    const left: string[] = [];
    setPageLeaver((url) => left.push(url));
    const ui = await h.open(`/orderdetail?orderNo=${m.orderNo}&partSeq=${seq}`);
    await ui.user.click(screen.getByRole('radio', { name: '支付宝' }));
    await ui.user.click($('[data-action="pay-order"]')!);
    await ui.waitForPath(`/payt?orderNo=${m.orderNo}&partSeq=${seq}`);
    const until = Date.now() + 3000;
    while (left.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    expect(left, 'the browser left for Alipay').toHaveLength(1);
    // the member opens Alipay's cashier: the trade is the part's amount; the member comes back to the part's result page
    const cashier = new URL(left[0]!, 'http://app.test');
    expect((await h.server.app.request(cashier.pathname + cashier.search)).status).toBe(200);
    const [trade] = await h.server.deps.db
      .select()
      .from(payStandInOrders)
      .where(like(payStandInOrders.outTradeNo, `${m.orderNo}-%`));
    expect(trade?.amountCents).toBe(9_950);
    expect(decodeURIComponent(cashier.search), 'Alipay returns to the part').toContain(`/payf?orderNo=${m.orderNo}&partSeq=${seq}`);
    expect(
      (await h.server.call('POST', '/api/dev/pay/alipay/simulate', { body: { outTradeNo: trade!.outTradeNo, outcome: 'pay' } })).status,
    ).toBe(200);
    expect((await detailOf(m.token, m.orderNo)).state).toBe('unpaid');
    const back = await h.open(`/payf?orderNo=${m.orderNo}&partSeq=${seq}`);
    await screen.findByText('支付成功');
    expect(back.path()).toBe(`/payf?orderNo=${m.orderNo}&partSeq=${seq}`);
  });
});
