import { desc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accounts, bookings, memberCards, notifications, personInfo } from '../../../src/server/db/schema/index';
import { shanghaiDate } from '../../../src/domain/time';
import { book, cardRow, DAY, HOUR, newCard, newClass, newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { maskIdNumber } from '../../../src/domain/identity';
import { openIdNumber, transferIdContext } from '../../../src/server/services/person-privacy/id-numbers';
import { applyFor, ID_NUMBER, phoneOf, staffCall, transferRow, uploadImages } from './transfer-support';

/**
 * Card transfer through the API (spec §3, §4, §5, §8 cards, §9; decision 026) on the real server: the
 * phone lookup, the application and its refusals with their codes, cancel while pending, the staff
 * queue (take, approve, reject with a reason), and what approval does to both members' cards.
 */
const s = await startTestServer({ seed: true });
const refusal = (r: { status: number; body: { code: number } }) => [r.status, r.body.code];
const detail = async (token: string, id: number) => (await s.call('GET', `/api/customers/cards/detail?id=${id}`, { token })).body.data;
const noticesOf = (accountId: number) =>
  s.deps.db.select().from(notifications).where(eq(notifications.accountId, accountId)).orderBy(desc(notifications.id));

async function pair() {
  const from = await newMember(s);
  const to = await newMember(s);
  await s.deps.db.update(accounts).set({ name: '王小明' }).where(eq(accounts.id, to.id));
  return { from, to, toPhone: await phoneOf(s, to.id) };
}

describe('the recipient lookup (GET /customers/members/phone)', () => {
  it("answers a member's name with all but its last character masked, and nothing more", async () => {
    const { from, toPhone } = await pair();
    const r = await s.call('GET', `/api/customers/members/phone?phone=${toPhone}`, { token: from.token });
    expect(r.body).toMatchObject({ code: 200, data: { name: '**明' } });
    expect(Object.keys(r.body.data)).toEqual(['name']);
  });

  it('a member who signed up in the app (no account name) with a real name stored: the masked real name, which wins over an account name', async () => {
    const { from, to, toPhone } = await pair();
    await s.deps.db.update(accounts).set({ name: null }).where(eq(accounts.id, to.id));
    const now = s.clock.now();
    await s.deps.db
      .insert(personInfo)
      .values({ accountId: to.id, realName: '李四海', idNumber: ID_NUMBER, createdAt: now, updatedAt: now });
    const lookUp = () => s.call('GET', `/api/customers/members/phone?phone=${toPhone}`, { token: from.token });
    expect((await lookUp()).body).toMatchObject({ code: 200, data: { name: '**海' } });
    await s.deps.db.update(accounts).set({ name: '王小明' }).where(eq(accounts.id, to.id));
    expect((await lookUp()).body.data).toEqual({ name: '**海' });
  });

  it('a member with neither a real name nor an account name: name null (the giver is told), never a lone "*"', async () => {
    const { from, to, toPhone } = await pair();
    for (const name of [null, '', '  ']) {
      await s.deps.db.update(accounts).set({ name }).where(eq(accounts.id, to.id));
      const r = await s.call('GET', `/api/customers/members/phone?phone=${toPhone}`, { token: from.token });
      expect(r.body, String(name)).toMatchObject({ code: 200, data: { name: null } });
    }
  });

  it('answers "no such member" (404, 30036) for an unknown phone, a staff account and a banned member; a visitor is asked to log in', async () => {
    const { from, to, toPhone } = await pair();
    const staff = await newStaff(s);
    expect(refusal(await s.call('GET', '/api/customers/members/phone?phone=13999999999', { token: from.token }))).toEqual([404, 30036]);
    expect(refusal(await s.call('GET', `/api/customers/members/phone?phone=${await phoneOf(s, staff.id)}`, { token: from.token }))).toEqual(
      [404, 30036],
    );
    await s.deps.db.update(accounts).set({ banned: true }).where(eq(accounts.id, to.id));
    expect(refusal(await s.call('GET', `/api/customers/members/phone?phone=${toPhone}`, { token: from.token }))).toEqual([404, 30036]);
    expect((await s.call('GET', `/api/customers/members/phone?phone=${toPhone}`)).status).toBe(401);
  });
});

describe('applying, and staff deciding', () => {
  it('an application waits pending: my state says so, the card offers no second transfer (30004), staff see it in the queue', async () => {
    const { from, to, toPhone } = await pair();
    const card = await newCard(s, from.id);
    expect((await detail(from.token, card.id)).operations).toContain('transfer');
    const r = await applyFor(s, from.token, card.id, toPhone);
    expect(r.body).toMatchObject({
      code: 200,
      data: { state: 'pending', cardId: card.id, recipientName: '王小明', canCancel: true, reason: null },
    });
    expect(r.body.data.recipientPhone).toBe(`${toPhone.slice(0, 3)}****${toPhone.slice(-4)}`);
    const row = await transferRow(s, r.body.data.id);
    // decision 055: the ID number is stored sealed, never in plain text
    expect(row).toMatchObject({ fromAccountId: from.id, toAccountId: to.id, idNumber: null, state: 'pending' });
    expect(await openIdNumber(s.deps.gateways.keys, row, transferIdContext(from.id, card.id))).toBe(ID_NUMBER);
    expect((await s.call('GET', `/api/customers/transfers/mine?cardId=${card.id}`, { token: from.token })).body.data).toMatchObject({
      id: row.id,
      state: 'pending',
    });
    const d = await detail(from.token, card.id);
    expect(d.operations).not.toContain('transfer');
    expect(d.offers.find((o: { operation: string }) => o.operation === 'transfer')).toMatchObject({ allowed: false, code: 30004 });
    expect(refusal(await applyFor(s, from.token, card.id, toPhone))).toEqual([409, 30004]);
    // spec §8 unfinished application: not frozen or extended meanwhile, and the card page says so
    expect(d.offers.filter((o: { code: number }) => o.code === 30004).map((o: { operation: string }) => o.operation)).toEqual([
      'freeze',
      'extend',
      'transfer',
      'changeAdviser',
    ]);
    const today = shanghaiDate(s.clock.now());
    expect(
      refusal(await s.call('POST', '/api/customers/cards/freeze', { token: from.token, body: { id: card.id, from: today, until: today } })),
    ).toEqual([409, 30004]);
    expect(
      refusal(await s.call('POST', '/api/customers/cards/extend', { token: from.token, body: { id: card.id, until: '2027-06-30' } })),
    ).toEqual([409, 30004]);
    expect((await cardRow(s, card.id)).status).toBe('in_use');
    const staff = await newStaff(s);
    const queue = (await s.call('GET', '/api/staff/transfers', { token: staff.token })).body.data;
    expect(queue.find((t: { id: number }) => t.id === row.id)).toMatchObject({
      state: 'pending',
      cardNumber: card.number,
      idNumber: maskIdNumber(ID_NUMBER),
    });
    const img = await s.app.request(`/api/staff/transfers/${row.id}/image/id-photo`, { headers: { 'authorization-token': staff.token } });
    expect([img.status, img.headers.get('content-type')]).toEqual([200, 'image/png']);
  });

  it('approved: the card is transferred, the recipient holds a new card with its uses and validity end (received by transfer), both are notified, who and when kept', async () => {
    const { from, to, toPhone } = await pair();
    const card = await newCard(s, from.id, { usesLeft: 7 });
    const id = (await applyFor(s, from.token, card.id, toPhone)).body.data.id;
    const staff = await newStaff(s);
    expect(refusal(await staffCall(s, staff.token, 'approve', id))).toEqual([409, 30037]); // taken first
    const taken = await staffCall(s, staff.token, 'take', id);
    expect(taken.body.data).toMatchObject({ state: 'reviewing', reviewedBy: staff.id, reviewedAt: s.clock.now().toISOString() });
    expect(refusal(await s.call('POST', '/api/customers/transfers/cancel', { token: from.token, body: { id } }))).toEqual([409, 30037]);
    const approved = await staffCall(s, staff.token, 'approve', id);
    expect(approved.body.data).toMatchObject({ state: 'approved', decidedBy: staff.id });
    expect((await cardRow(s, card.id)).status).toBe('transferred');
    const [got] = await s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, to.id));
    expect(got).toMatchObject({
      status: 'in_use',
      usesLeft: 7,
      usesTotal: 10,
      transferredFromCardId: card.id,
      cardType: 'count',
      id: approved.body.data.newCardId,
    });
    expect(got!.validUntil!.getTime()).toBe(card.validUntil!.getTime());
    expect((await noticesOf(from.id))[0]!.title).toContain('会员卡已转让');
    expect((await noticesOf(to.id))[0]!.title).toContain('您收到一张会员卡');
    expect((await s.call('GET', `/api/customers/transfers/mine?cardId=${card.id}`, { token: from.token })).body.data).toMatchObject({
      state: 'approved',
      canCancel: false,
    });
    // the recipient books with it; the giver's old card no longer books
    const cls = await newClass(s);
    expect((await book(s, to.token, cls.id, got!.id)).body.code).toBe(200);
    expect((await book(s, from.token, cls.id, card.id)).status).toBe(400);
    // the received card offers no transfer: once per card (30032)
    const d = await detail(to.token, got!.id);
    expect(d.operations).not.toContain('transfer');
    const third = await newMember(s);
    expect(refusal(await applyFor(s, to.token, got!.id, await phoneOf(s, third.id)))).toEqual([409, 30032]);
    // decided once
    expect(refusal(await staffCall(s, staff.token, 'approve', id))).toEqual([409, 30037]);
    expect(refusal(await staffCall(s, staff.token, 'reject', id, 'x'))).toEqual([409, 30037]);
  });

  it('an inactive card arrives inactive, with its validity days still to start', async () => {
    const { from, to, toPhone } = await pair();
    const card = await newCard(s, from.id, { status: 'inactive', validFrom: null, validUntil: null });
    const id = (await applyFor(s, from.token, card.id, toPhone)).body.data.id;
    const staff = await newStaff(s);
    await staffCall(s, staff.token, 'take', id);
    expect((await staffCall(s, staff.token, 'approve', id)).body.code).toBe(200);
    const [got] = await s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, to.id));
    expect(got).toMatchObject({ status: 'inactive', validityDays: 180, validUntil: null, transferredFromCardId: card.id });
  });

  it('rejected with a reason: the member reads it and is notified, the card stays theirs and may be applied for again', async () => {
    const { from, toPhone } = await pair();
    const card = await newCard(s, from.id);
    const id = (await applyFor(s, from.token, card.id, toPhone)).body.data.id;
    const staff = await newStaff(s);
    await staffCall(s, staff.token, 'take', id);
    expect(refusal(await staffCall(s, staff.token, 'reject', id, ''))).toEqual([400, 70003]);
    const r = await staffCall(s, staff.token, 'reject', id, '身份证照片不清晰');
    expect(r.body.data).toMatchObject({ state: 'rejected', reason: '身份证照片不清晰', decidedBy: staff.id });
    expect((await s.call('GET', `/api/customers/transfers/mine?cardId=${card.id}`, { token: from.token })).body.data).toMatchObject({
      state: 'rejected',
      reason: '身份证照片不清晰',
    });
    expect((await noticesOf(from.id))[0]!.body).toContain('身份证照片不清晰');
    expect((await cardRow(s, card.id)).status).toBe('in_use');
    expect((await applyFor(s, from.token, card.id, toPhone)).body.data.state).toBe('pending');
  });

  it('cancelled by the member while pending: kept with who and when; another member cannot cancel it (404)', async () => {
    const { from, to, toPhone } = await pair();
    const card = await newCard(s, from.id);
    const id = (await applyFor(s, from.token, card.id, toPhone)).body.data.id;
    expect(refusal(await s.call('POST', '/api/customers/transfers/cancel', { token: to.token, body: { id } }))).toEqual([404, 70004]);
    const r = await s.call('POST', '/api/customers/transfers/cancel', { token: from.token, body: { id } });
    expect(r.body.data).toMatchObject({ state: 'cancelled', canCancel: false });
    expect(await transferRow(s, id)).toMatchObject({ state: 'cancelled', decidedBy: from.id });
    expect(refusal(await s.call('POST', '/api/customers/transfers/cancel', { token: from.token, body: { id } }))).toEqual([409, 30037]);
  });

  it('staff only: a member calling the queue or a decision is refused 403', async () => {
    const { from } = await pair();
    expect((await s.call('GET', '/api/staff/transfers', { token: from.token })).status).toBe(403);
    expect((await staffCall(s, from.token, 'take', 1)).status).toBe(403);
  });

  it('approval checks the rules again: a booking on the card leaves it under review (30035)', async () => {
    const { from, toPhone } = await pair();
    const card = await newCard(s, from.id);
    const id = (await applyFor(s, from.token, card.id, toPhone)).body.data.id;
    const staff = await newStaff(s);
    await staffCall(s, staff.token, 'take', id);
    const cls = await newClass(s);
    // the giver's own booking waits for the decision (30004); one written past the member's API
    // (the front desk's, an import) is what the approval's second look is for
    expect((await book(s, from.token, cls.id, card.id)).body.code).toBe(30004);
    await s.deps.db
      .insert(bookings)
      .values({ classId: cls.id, accountId: from.id, cardId: card.id, state: 'booked', createdAt: s.clock.now(), bookedAt: s.clock.now() });
    expect(refusal(await staffCall(s, staff.token, 'approve', id))).toEqual([409, 30035]);
    expect((await transferRow(s, id)).state).toBe('reviewing');
    expect((await cardRow(s, card.id)).status).toBe('in_use');
  });
});

describe('spec §5 refusals, each with its code', () => {
  it("another member's card is 404, as if it did not exist", async () => {
    const { from, to, toPhone } = await pair();
    const card = await newCard(s, to.id);
    expect(refusal(await applyFor(s, from.token, card.id, toPhone))).toEqual([404, 70004]);
    expect(refusal(await s.call('GET', `/api/customers/transfers/mine?cardId=${card.id}`, { token: from.token }))).toEqual([404, 70004]);
  });

  it('to oneself (30033), to no member (30036)', async () => {
    const { from } = await pair();
    const card = await newCard(s, from.id);
    expect(refusal(await applyFor(s, from.token, card.id, await phoneOf(s, from.id)))).toEqual([409, 30033]);
    expect(refusal(await applyFor(s, from.token, card.id, '13999999999'))).toEqual([404, 30036]);
  });

  it('a family main card while shared with a sub-card holder, or a family sub card (30034; decision 040)', async () => {
    const { from, toPhone } = await pair();
    const main = await newCard(s, from.id, { cardType: 'family-main' });
    const sub = await newMember(s);
    expect(
      (
        await s.call('POST', '/api/customers/cards/family/add', {
          token: from.token,
          body: { id: main.id, phone: await phoneOf(s, sub.id) },
        })
      ).body.code,
    ).toBe(200);
    expect(refusal(await applyFor(s, from.token, main.id, toPhone))).toEqual([409, 30034]);
    const subCard = await newCard(s, from.id, { cardType: 'family-sub' });
    expect(refusal(await applyFor(s, from.token, subCard.id, toPhone))).toEqual([409, 30034]);
  });

  it("a group-buy card during its group period (30031) or within 3 days after it (30030), the club's phone in the message; after that it may be transferred", async () => {
    const { from, toPhone } = await pair();
    const now = s.clock.now().getTime();
    const during = await newCard(s, from.id, { clubId: 1, groupEndsAt: new Date(now + HOUR) });
    const r = await applyFor(s, from.token, during.id, toPhone);
    expect(refusal(r)).toEqual([409, 30031]);
    const [club] = await s.call('GET', '/api/school/clubs').then((x) => x.body.data.filter((c: { id: number }) => c.id === 1));
    expect(r.body.message).toContain(club.phone);
    const after = await newCard(s, from.id, { clubId: 1, groupEndsAt: new Date(now - 3 * DAY + HOUR) });
    const w = await applyFor(s, from.token, after.id, toPhone);
    expect(refusal(w)).toEqual([409, 30030]);
    expect(w.body.message).toContain(club.phone);
    expect((await detail(from.token, after.id)).offers.find((o: { operation: string }) => o.operation === 'transfer').message).toContain(
      club.phone,
    );
    const past = await newCard(s, from.id, { clubId: 1, groupEndsAt: new Date(now - 3 * DAY) });
    expect((await applyFor(s, from.token, past.id, toPhone)).body.code).toBe(200);
  });

  it("the card's status: frozen 30014, expired 30012, invalid 30011, transferred 30013; a freeze planned 30016", async () => {
    const { from, toPhone } = await pair();
    for (const [status, code] of [
      ['frozen', 30014],
      ['expired', 30012],
      ['invalid', 30011],
      ['transferred', 30013],
    ] as const) {
      const card = await newCard(s, from.id, {
        status,
        ...(status === 'frozen' ? { frozenFrom: '2026-11-01', frozenUntil: '2026-12-30' } : {}),
      });
      expect(refusal(await applyFor(s, from.token, card.id, toPhone)), status).toEqual([409, code]);
      expect((await detail(from.token, card.id)).operations).not.toContain('transfer');
    }
    // a planned freeze (decision 024: its days were added to the end) is called off first: 30016
    const planned = await newCard(s, from.id, { frozenFrom: '2026-12-20', frozenUntil: '2026-12-21' });
    expect(refusal(await applyFor(s, from.token, planned.id, toPhone))).toEqual([409, 30016]);
  });

  it('bookings still ahead or running on the card (30035); a class already over does not count', async () => {
    const { from, toPhone } = await pair();
    const card = await newCard(s, from.id);
    const cls = await newClass(s);
    await book(s, from.token, cls.id, card.id);
    expect(refusal(await applyFor(s, from.token, card.id, toPhone))).toEqual([409, 30035]);
    expect((await detail(from.token, card.id)).offers.find((o: { operation: string }) => o.operation === 'transfer')).toMatchObject({
      allowed: false,
      code: 30035,
    });
    const other = await newCard(s, from.id);
    const past = await newClass(s, { startsAt: new Date(s.clock.now().getTime() - 3 * HOUR) });
    await s.deps.db.insert(bookings).values({
      classId: past.id,
      accountId: from.id,
      cardId: other.id,
      state: 'booked',
      createdAt: new Date(s.clock.now().getTime() - DAY),
    });
    expect((await applyFor(s, from.token, other.id, toPhone)).body.code).toBe(200);
  });

  it('the form: a bad ID number, a numeric name, the policy not accepted, images not mine, each names its field (70003)', async () => {
    const { from, to, toPhone } = await pair();
    const card = await newCard(s, from.id);
    const field = (r: { status: number; body: { code: number; field?: string } }) => [r.status, r.body.code, r.body.field];
    expect(field(await applyFor(s, from.token, card.id, toPhone, { idNumber: '110105194912310021' }))).toEqual([400, 70003, 'idNumber']);
    expect(field(await applyFor(s, from.token, card.id, toPhone, { name: '12345' }))).toEqual([400, 70003, 'name']);
    expect(field(await applyFor(s, from.token, card.id, toPhone, { name: '１２３４５' })), 'full-width digits are digits').toEqual([
      400,
      70003,
      'name',
    ]);
    expect(field(await applyFor(s, from.token, card.id, toPhone, { agreed: false }))).toEqual([400, 70003, 'agreed']);
    const theirs = await uploadImages(s, to.token);
    expect(field(await applyFor(s, from.token, card.id, toPhone, theirs))).toEqual([400, 70003, 'idPhotoId']);
  });
});
