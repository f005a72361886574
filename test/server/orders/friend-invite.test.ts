import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { FRIEND_INVITATION_TTL_MS, ORDER_PAY_WITHIN_MS } from '../../../src/domain/pricing';
import { friendInvitations, jobs } from '../../../src/server/db/schema/index';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { startTestServer } from '../support/harness';
import { assertMoneyInvariants } from '../support/money-invariants';
import { balance, create, credit, goodsRow, newGoods, newMember, orderRow } from './support';

/**
 * Friend pay, the member's side (spec §4, §9; decision 021): an invitation for one unpaid share, open an
 * hour; the order friend paying while one is open; withdrawn by the member, or ended by its job when
 * the hour is over (the order waits for money again, or is cancelled with its paid parts refunded).
 */
describe('friend-pay invitations', async () => {
  const s = await startTestServer({ seed: true });
  const post = (token: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    s.call('POST', `/api/orders/${path}`, { token, body, headers });
  const invite = (token: string, orderNo: string, partSeq?: number, key?: string) =>
    post(
      token,
      'friend/invite',
      { orderNo, partSeqs: partSeq === undefined ? undefined : [partSeq] },
      key ? { 'Idempotency-Key': key } : {},
    );
  const withdraw = (token: string, orderNo: string, partSeq?: number) => post(token, 'friend/withdraw', { orderNo, partSeq });
  const detail = async (token: string, orderNo: string) =>
    (await s.call('GET', `/api/orders/detail?orderNo=${orderNo}`, { token })).body.data;
  const friendView = (t: string) => s.call('GET', `/api/friend/invitation?t=${encodeURIComponent(t)}`);
  const invitationsOf = async (orderNo: string) =>
    s.deps.db
      .select()
      .from(friendInvitations)
      .where(eq(friendInvitations.orderId, (await orderRow(s, orderNo)).id))
      .orderBy(friendInvitations.id);
  const allDueJobs = async () => {
    while ((await runDueJobs(s.deps)) > 0);
  };

  /** A member's unpaid order for a ¥199 card, with ¥500 on the balance. */
  async function unpaid(stock = 5) {
    const m = await newMember(s);
    await credit(s, m.id, 50_000);
    const g = await newGoods(s, { stock });
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    return { m, no, g };
  }

  it('the whole order: friend paying with a link open an hour; asked again, the same link; the friend sees what and how much; the member cannot pay it meanwhile', async () => {
    const { m, no } = await unpaid();
    const r = await invite(m.token, no, undefined, `invite-${no}`);
    expect(r.status).toBe(200);
    const inv = r.body.data.invitation;
    expect(r.body.data.order).toMatchObject({ state: 'friend_paying', actions: ['cancel'] });
    expect(inv).toMatchObject({ orderNo: no, partSeq: 1, amountCents: 19_900, state: 'open' });
    expect(inv.link).toMatch(/\/payfriend\?t=/);
    expect(new Date(inv.expiresAt).getTime() - s.clock.now().getTime()).toBe(FRIEND_INVITATION_TTL_MS);
    // a second tap (same key) and a new request both answer the same invitation
    expect((await invite(m.token, no, undefined, `invite-${no}`)).body.data.invitation.token).toBe(inv.token);
    expect((await invite(m.token, no)).body.data.invitation.token).toBe(inv.token);
    expect(await invitationsOf(no)).toHaveLength(1);
    const view = await friendView(inv.token);
    expect(view.body.data).toMatchObject({ state: 'open', amountCents: 19_900, expiresAt: inv.expiresAt });
    expect(view.body.data.goodsName).toBeTruthy();
    // the invited share is the friend's to pay now ("a friend is already paying it")
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance' })).body.code).toBe(40018);
    expect((await post(m.token, 'split', { orderNo: no, parts: [10_000, 9_900] })).body.code).toBe(40018);
    expect(await balance(s, m.token)).toBe(50_000);
    // the order's own 15-minute window does not end it while the friend has the hour
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await allDueJobs();
    expect((await orderRow(s, no)).state).toBe('friend_paying');
    s.clock.advance(FRIEND_INVITATION_TTL_MS - ORDER_PAY_WITHIN_MS);
    await allDueJobs();
    // the hour over, nothing paid: the invitation expired, the order waits for money again for 15 minutes
    expect((await invitationsOf(no)).map((i) => i.state)).toEqual(['expired']);
    const back = await orderRow(s, no);
    expect(back.state).toBe('unpaid');
    expect(back.expiresAt!.getTime()).toBe(s.clock.now().getTime() + ORDER_PAY_WITHIN_MS);
    expect((await friendView(inv.token)).body.data.state).toBe('expired');
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await allDueJobs();
    expect((await orderRow(s, no)).state).toBe('cancelled');
    await assertMoneyInvariants(s.deps.db);
  });

  it('withdrawn by the member: the friend can no longer pay, the order is unpaid again; withdrawing again is refused (40022)', async () => {
    const { m, no } = await unpaid();
    const { token } = (await invite(m.token, no)).body.data.invitation;
    const w = await withdraw(m.token, no);
    expect(w.status).toBe(200);
    expect(w.body.data).toMatchObject({ state: 'unpaid', actions: ['pay', 'cancel', 'split', 'invite'] });
    expect((await invitationsOf(no)).map((i) => i.state)).toEqual(['withdrawn']);
    expect((await friendView(token)).body.data.state).toBe('withdrawn');
    expect((await withdraw(m.token, no)).body.code).toBe(40022);
    // a new invitation is a new link
    const again = (await invite(m.token, no)).body.data.invitation;
    expect(again.token).not.toBe(token);
    // its old expiry job finds nothing open of its own
    s.clock.advance(FRIEND_INVITATION_TTL_MS - 1);
    await allDueJobs();
    expect((await invitationsOf(no)).map((i) => i.state)).toEqual(['withdrawn', 'open']);
  });

  it('a split order: one part paid by balance, the other sent to a friend; the hour over unpaid gives the member a new pay window (never a cancel); that window over, the order is cancelled and the paid part comes back', async () => {
    const { m, no, g } = await unpaid();
    expect((await post(m.token, 'split', { orderNo: no, parts: [10_000, 9_900] })).status).toBe(200);
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 2 })).status).toBe(200);
    expect(await balance(s, m.token)).toBe(40_000);
    // the paid part cannot be sent: it is paid (40011)
    expect((await invite(m.token, no, 2)).body.code).toBe(40011);
    const inv = (await invite(m.token, no, 3)).body.data.invitation;
    expect(inv).toMatchObject({ partSeq: 3, amountCents: 9_900 });
    // the order waits as long as the link is open
    expect((await orderRow(s, no)).expiresAt!.toISOString()).toBe(inv.expiresAt);
    s.clock.advance(FRIEND_INVITATION_TTL_MS);
    await allDueJobs();
    // the hour over: the link expired, the order is the member's to pay again, with a new window (the paid part kept)
    const waiting = await orderRow(s, no);
    expect(waiting.state).toBe('unpaid');
    expect(waiting.expiresAt!.getTime()).toBe(s.clock.now().getTime() + ORDER_PAY_WITHIN_MS);
    expect((await detail(m.token, no)).parts.find((p: { seq: number }) => p.seq === 3)).toMatchObject({
      state: 'unpaid',
      holder: null,
      actions: ['pay', 'invite'],
    });
    expect(await balance(s, m.token)).toBe(40_000);
    s.clock.advance(ORDER_PAY_WITHIN_MS);
    await allDueJobs();
    const o = await orderRow(s, no);
    expect(o.state).toBe('cancelled');
    expect((await invitationsOf(no)).map((i) => i.state)).toEqual(['expired']);
    expect(await balance(s, m.token)).toBe(50_000);
    const d = await detail(m.token, no);
    expect(d.refunds).toMatchObject([{ amountCents: 10_000, cause: 'order_cancelled', state: 'succeeded', to: 'balance' }]);
    expect((await goodsRow(s, g.id)).stock, 'the unit held for the order is back').toBe(5);
    const history = (await s.call('GET', '/api/customers/balance/history', { token: m.token })).body.data.list as Array<{
      changeCents: number;
      reason: string;
    }>;
    expect(history.slice(0, 2).map((h) => [h.reason, h.changeCents])).toEqual([
      ['cancel', 10_000],
      ['split_part', -10_000],
    ]);
    await assertMoneyInvariants(s.deps.db);
  });

  it("a split order: while a friend has one part, the member pays the other from the balance; the friend's part stays the friend's (40018)", async () => {
    const { m, no } = await unpaid();
    await post(m.token, 'split', { orderNo: no, parts: [10_000, 9_900] });
    const inv = (await invite(m.token, no, 3)).body.data.invitation;
    expect(inv).toMatchObject({ partSeq: 3, state: 'open' });
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 3 })).body.code, 'the invited part').toBe(40018);
    const paid = await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 2 });
    expect(paid.status).toBe(200);
    expect(paid.body.data.order.state, 'still waiting for the friend').toBe('friend_paying');
    expect(await balance(s, m.token)).toBe(40_000);
    expect((await detail(m.token, no)).parts.map((p: { seq: number; state: string }) => [p.seq, p.state])).toEqual([
      [1, 'dropped'],
      [2, 'paid'],
      [3, 'unpaid'],
    ]);
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 2 })).body.code, 'paid already').toBe(40011);
    await assertMoneyInvariants(s.deps.db);
  });

  it('asked again after the hour, before its job has run: the old link is over (expired) and a new one opened', async () => {
    const { m, no } = await unpaid();
    const first = (await invite(m.token, no)).body.data.invitation;
    s.clock.advance(FRIEND_INVITATION_TTL_MS + 1000);
    const again = await invite(m.token, no);
    expect(again.status).toBe(200);
    expect(again.body.data.invitation.token).not.toBe(first.token);
    expect(new Date(again.body.data.invitation.expiresAt).getTime() - s.clock.now().getTime()).toBe(FRIEND_INVITATION_TTL_MS);
    expect((await invitationsOf(no)).map((i) => i.state)).toEqual(['expired', 'open']);
    expect((await friendView(first.token)).body.data.state).toBe('expired');
    await allDueJobs();
    expect((await orderRow(s, no)).state, 'the old job changes nothing').toBe('friend_paying');
  });

  it('two parts sent to two friends: one withdrawn, the order stays friend paying; the member cancels: the other withdrawn too, the goods back', async () => {
    const { m, no, g } = await unpaid();
    await post(m.token, 'split', { orderNo: no, parts: [10_000, 9_900] });
    await invite(m.token, no, 2);
    await invite(m.token, no, 3);
    expect((await withdraw(m.token, no)).body).toMatchObject({ code: 70003, field: 'partSeq' });
    expect((await withdraw(m.token, no, 2)).body.data.state).toBe('friend_paying');
    const c = await post(m.token, 'cancel', { orderNo: no });
    expect(c.status).toBe(200);
    expect((await invitationsOf(no)).map((i) => i.state)).toEqual(['withdrawn', 'withdrawn']);
    expect((await goodsRow(s, g.id)).stock).toBe(5);
    expect(
      await s.deps.db
        .select()
        .from(jobs)
        .where(and(eq(jobs.kind, 'invitation.expire'), isNull(jobs.doneAt))),
    ).not.toHaveLength(0);
    await allDueJobs();
    expect((await orderRow(s, no)).state, 'the expiry job changes nothing after a cancel').toBe('cancelled');
  });

  it('merge into friend pay: the unpaid parts of a split order become one share, sent as one invitation; a part already sent is not merged again', async () => {
    const { m, no } = await unpaid();
    await post(m.token, 'split', { orderNo: no, parts: [5_000, 5_000, 9_900] });
    expect((await post(m.token, 'pay', { orderNo: no, method: 'balance', partSeq: 2 })).status).toBe(200);
    // parts 3 and 4 merged: one share of their sum, the dropped ones kept in the history
    const r = (await post(m.token, 'friend/invite', { orderNo: no, partSeqs: [3, 4] })).body.data;
    expect(r.invitation).toMatchObject({ partSeq: 5, amountCents: 14_900 });
    const d = await detail(m.token, no);
    expect(d.parts.map((p: { seq: number; amountCents: number; state: string }) => [p.seq, p.amountCents, p.state])).toEqual([
      [1, 19_900, 'dropped'],
      [2, 5_000, 'paid'],
      [3, 5_000, 'dropped'],
      [4, 9_900, 'dropped'],
      [5, 14_900, 'unpaid'],
    ]);
    expect(d.money).toMatchObject({ outstandingCents: 14_900, appliedCents: 5_000 });
    // nothing else to send: asked again, the same link; a dropped or doubled part: named
    expect((await post(m.token, 'friend/invite', { orderNo: no })).body.data.invitation.token).toBe(r.invitation.token);
    expect((await post(m.token, 'friend/invite', { orderNo: no, partSeqs: [5] })).body.data.invitation.token).toBe(r.invitation.token);
    expect((await post(m.token, 'friend/invite', { orderNo: no, partSeqs: [3] })).body).toMatchObject({ code: 70003, field: 'partSeqs' });
    expect((await post(m.token, 'friend/invite', { orderNo: no, partSeqs: [5, 5] })).body).toMatchObject({
      code: 70003,
      field: 'partSeqs',
    });
    await assertMoneyInvariants(s.deps.db);
  });

  it('absent parts: everything still to pay, merged when the order is split', async () => {
    const { m, no } = await unpaid();
    await post(m.token, 'split', { orderNo: no, parts: [10_000, 9_900] });
    const r = (await invite(m.token, no)).body.data;
    expect(r.invitation).toMatchObject({ partSeq: 4, amountCents: 19_900 });
    expect(r.order.state).toBe('friend_paying');
  });

  it("refusals: paid by the deduction (40020), cancelled (40014), paid (40011), another member's order (404), an unknown link (404), bad input names the field", async () => {
    const m = await newMember(s);
    await credit(s, m.id, 50_000);
    const g = await newGoods(s);
    const allBalance = (await create(s, m.token, { goodsId: g.id, useBalance: true, expectedAmountToPayCents: 0 })).body.data
      .orderNo as string;
    // the deduction equals the payment: nothing for a friend to pay (spec §5)
    expect((await invite(m.token, allBalance)).body.code).toBe(40020);
    const paid = await unpaid();
    expect((await post(paid.m.token, 'pay', { orderNo: paid.no, method: 'balance' })).status).toBe(200);
    expect((await invite(paid.m.token, paid.no)).body.code).toBe(40011);
    const { m: m2, no } = await unpaid();
    expect((await invite(m.token, no)).status, "another member's order").toBe(404);
    await post(m2.token, 'cancel', { orderNo: no });
    expect((await invite(m2.token, no)).body.code).toBe(40014);
    expect((await friendView('no-such-token')).status).toBe(404);
    // withdraw: another member's order is not found; a part that is not a number names its field
    const { m: m3, no: no3 } = await unpaid();
    await invite(m3.token, no3);
    expect((await withdraw(m.token, no3)).status, "another member's order").toBe(404);
    expect((await post(m3.token, 'friend/withdraw', { orderNo: no3, partSeq: 'x' })).body).toMatchObject({ code: 70003, field: 'partSeq' });
    expect(
      (await invitationsOf(no3)).map((i) => i.state),
      'nothing withdrawn by those',
    ).toEqual(['open']);
    // the friend's payment without the user-info authorization is refused first, whatever the link (nothing is told about it)
    expect((await s.call('POST', '/api/friend/pay', { body: { t: 'no-such-token' } })).body.code).toBe(40019);
    expect((await post(m2.token, 'friend/invite', { orderNo: no, partSeqs: ['x'] })).body).toMatchObject({
      code: 70003,
      field: 'partSeqs.0',
    });
    expect((await post(m2.token, 'friend/invite', {})).body).toMatchObject({ code: 70003, field: 'orderNo' });
  });
});
