import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  auditLog,
  balanceLedger,
  cardTransfers,
  memberCards,
  memberCourses,
  memberPhotos,
  openIdBindings,
  orders,
  personInfo,
  sessions,
  transferImages,
} from '../../../src/server/db/schema/index';
import { codeLogin, memberWithPassword } from '../auth/support';
import { book, newCard, newClass } from '../booking/support';
import { boughtCard } from '../cards/refund-support';
import { paidOrder } from '../invoices/support';
import { create, credit, newGoods, newMember, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { hashSecret, newSecret } from '../../../src/server/services/auth-tokens';
import {
  accountRow,
  askClosing,
  closingRow,
  confirmClosing,
  myClosing,
  refuseClosing,
  staffClosings,
  withdrawClosing,
} from './closing-support';

/**
 * Closing an account (PIPL; decision 057) against the real server and database: what keeps a member
 * from asking (10030-10035), reading and withdrawing (10036), the staff queue, refusing with a reason
 * (10037 empty), and confirming: the personal data erased, no login afterwards, money and legal records
 * kept, both decisions audited. Another member's request is never seen.
 */
const s = await startTestServer({ seed: true });
const code = (r: { body: { code: number } }) => r.body.code;

describe('asking to close an account', () => {
  it('opens a request a member can read and withdraw, once at a time', async () => {
    const m = await newMember(s);
    expect((await myClosing(s, m.token)).body.data).toBe(null);
    const r = await askClosing(s, m.token, { note: ' 搬家了 ' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ state: 'requested', note: '搬家了', reason: null });
    expect(code(await askClosing(s, m.token))).toBe(10035);
    expect((await myClosing(s, m.token)).body.data).toMatchObject({ id: r.body.data.id, state: 'requested' });
    const w = await withdrawClosing(s, m.token);
    expect(w.body.data).toMatchObject({ state: 'withdrawn', withdrawnAt: expect.any(String) });
    expect(code(await withdrawClosing(s, m.token))).toBe(10036);
    // asked again after withdrawing: a new request
    expect((await askClosing(s, m.token)).body.data.state).toBe('requested');
  });

  it('is refused while the member holds a live card (10030), an unpaid order (10031), a balance (10032), a booking to come (10033)', async () => {
    const withCard = await boughtCard(s);
    const r1 = await askClosing(s, withCard.m.token);
    expect([r1.status, code(r1)]).toEqual([409, 10030]);

    const unpaid = await newMember(s);
    expect((await create(s, unpaid.token, { goodsId: (await newGoods(s)).id })).status).toBe(200);
    expect(code(await askClosing(s, unpaid.token))).toBe(10031);

    const rich = await newMember(s);
    await credit(s, rich.id, 1);
    expect(code(await askClosing(s, rich.token))).toBe(10032);

    const booked = await newMember(s);
    const card = await newCard(s, booked.id);
    const cls = await newClass(s);
    expect((await book(s, booked.token, cls.id, card.id)).status).toBe(200);
    // the card is still live too: money first
    expect(code(await askClosing(s, booked.token))).toBe(10030);
  });

  it('a booking to come blocks it once the card has nothing left (10033); a transfer to the member not yet decided (10034)', async () => {
    const booked = await newMember(s);
    const card = await newCard(s, booked.id);
    const cls = await newClass(s);
    expect((await book(s, booked.token, cls.id, card.id)).status).toBe(200);
    await s.deps.db.update(memberCards).set({ usesLeft: 0 }).where(eq(memberCards.id, card.id));
    expect(code(await askClosing(s, booked.token))).toBe(10033);

    const receiver = await newMember(s);
    const giver = await newMember(s);
    const now = s.clock.now();
    const img = async () =>
      (
        await s.deps.db
          .insert(transferImages)
          .values({ accountId: giver.id, contentType: 'image/jpeg', bytes: Buffer.from('x'), size: 1, createdAt: now })
          .returning()
      )[0]!.id;
    await s.deps.db.insert(cardTransfers).values({
      cardId: (await newCard(s, giver.id)).id,
      fromAccountId: giver.id,
      toAccountId: receiver.id,
      recipientName: '林',
      idNumber: '11010519491231002X',
      idPhotoId: await img(),
      photoId: await img(),
      createdAt: now,
    });
    expect(code(await askClosing(s, receiver.token))).toBe(10034);
  });

  it('a workshop not yet over blocks it (10030); once over it does not', async () => {
    const m = await newMember(s);
    const o = await paidOrder(s, m, 100);
    await s.deps.db.update(memberCards).set({ status: 'invalid' }).where(eq(memberCards.id, o.issuedCardId!));
    const now = s.clock.now().getTime();
    const [course] = await s.deps.db
      .insert(memberCourses)
      .values({
        accountId: m.id,
        goodsId: o.goodsId,
        orderId: o.id,
        kind: 'workshop',
        name: '大师工作坊',
        startsAt: new Date(now + 86_400_000),
        endsAt: new Date(now + 90_000_000),
        createdAt: new Date(now),
      })
      .returning();
    expect(code(await askClosing(s, m.token))).toBe(10030);
    await s.deps.db
      .update(memberCourses)
      .set({ endsAt: new Date(now - 1000) })
      .where(eq(memberCourses.id, course!.id));
    expect((await askClosing(s, m.token)).status).toBe(200);
  });

  it('an expired card or a used-up one does not block it: records, not value', async () => {
    const m = await newMember(s);
    await newCard(s, m.id, { status: 'expired', validUntil: new Date(s.clock.now().getTime() - 86_400_000) });
    await newCard(s, m.id, { usesLeft: 0 });
    expect((await askClosing(s, m.token)).status).toBe(200);
  });

  it('a retry with the same Idempotency-Key is the same answer, not 10035', async () => {
    const m = await newMember(s);
    const headers = { 'Idempotency-Key': 'close-once-1' };
    const a = await s.call('POST', '/api/customers/me/closing', { token: m.token, body: {}, headers });
    const b = await s.call('POST', '/api/customers/me/closing', { token: m.token, body: {}, headers });
    expect([a.body.code, b.body.code, b.body.data.id]).toEqual([200, 200, a.body.data.id]);
  });

  it('a paid order alone does not block it: it is a money record and is kept', async () => {
    const m = await newMember(s);
    await paidOrder(s, m, 100);
    // the card the order issued is live: its value is refunded or used first
    expect(code(await askClosing(s, m.token))).toBe(10030);
  });

  it('is for members: a staff account is refused (70008)', async () => {
    const staff = await newStaff(s);
    expect(code(await askClosing(s, staff.token))).toBe(70008);
  });

  it('takes the note as text only: a number is refused naming the field', async () => {
    const m = await newMember(s);
    const r = await askClosing(s, m.token, { note: 5 });
    expect([r.status, r.body.field]).toEqual([400, 'note']);
  });
});

describe('staff deciding a request', () => {
  it('refuse: needs a reason (10037), the member reads it, audited; decided once (10036)', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const id = (await askClosing(s, m.token)).body.data.id as number;
    expect((await staffClosings(s, staff.token)).body.data.map((x: { id: number }) => x.id)).toContain(id);
    expect(code(await refuseClosing(s, staff.token, id, '  '))).toBe(10037);
    const r = await refuseClosing(s, staff.token, id, '请先到店领取寄存物品');
    expect(r.body.data).toMatchObject({ state: 'refused', reason: '请先到店领取寄存物品' });
    expect((await myClosing(s, m.token)).body.data).toMatchObject({ state: 'refused', reason: '请先到店领取寄存物品' });
    expect((await staffClosings(s, staff.token)).body.data.map((x: { id: number }) => x.id)).not.toContain(id);
    expect(code(await confirmClosing(s, staff.token, id))).toBe(10036);
    const [entry] = await s.deps.db.select().from(auditLog).where(eq(auditLog.subjectId, id)).orderBy(auditLog.id);
    expect(entry).toMatchObject({
      staffAccountId: staff.id,
      action: 'account-closing.refuse',
      subjectKind: 'account-closing',
      reason: '请先到店领取寄存物品',
    });
  });

  it('members cannot decide; staff cannot decide one that does not exist (404)', async () => {
    const m = await newMember(s);
    const id = (await askClosing(s, m.token)).body.data.id as number;
    expect((await confirmClosing(s, m.token, id)).status).toBe(403);
    expect((await staffClosings(s, m.token)).status).toBe(403);
    expect((await confirmClosing(s, (await newStaff(s)).token, 2_000_000)).status).toBe(404);
    expect((await confirmClosing(s, (await newStaff(s)).token, '1' as unknown as number)).body.field).toBe('id');
  });

  it('confirm is refused when the member came to hold something meanwhile (10032)', async () => {
    const m = await newMember(s);
    const id = (await askClosing(s, m.token)).body.data.id as number;
    await credit(s, m.id, 500);
    const staff = await newStaff(s);
    expect(code(await confirmClosing(s, staff.token, id))).toBe(10032);
    expect((await closingRow(s, id)).state).toBe('requested');
  });

  it('confirm erases the personal data, ends every login, keeps the money records, and is audited', async () => {
    const phone = '13966660001';
    const id0 = await memberWithPassword(s, phone, 'secret-pw-1', {
      name: '林小雨',
      avatarUrl: '/media/a.jpg',
      wxNickname: '小雨',
      wxAvatar: 'https://wx/a.jpg',
    });
    const m = { id: id0, token: newSecret() };
    const now = s.clock.now();
    await s.deps.db
      .insert(sessions)
      .values({ accountId: m.id, tokenHash: hashSecret(m.token), createdAt: now, expiresAt: new Date(now.getTime() + 86_400_000) });
    await s.deps.db.insert(openIdBindings).values({ openId: `o_closing_${m.id}`, accountId: m.id, createdAt: now });
    // a card bought and refunded to the balance, the balance spent: orders, payments, ledger stay
    const g = await newGoods(s, { memberPriceCents: 300 });
    await credit(s, m.id, 300);
    const no = (await create(s, m.token, { goodsId: g.id })).body.data.orderNo as string;
    expect((await s.call('POST', '/api/orders/pay', { token: m.token, body: { orderNo: no, method: 'balance' } })).status).toBe(200);
    const [order] = await s.deps.db.select().from(orders).where(eq(orders.orderNo, no));
    await s.deps.db.update(memberCards).set({ status: 'invalid' }).where(eq(memberCards.id, order!.issuedCardId!));
    await s.deps.db
      .insert(personInfo)
      .values({ accountId: m.id, realName: '林小雨', idNumber: '11010519491231002X', createdAt: now, updatedAt: now });
    await s.deps.db
      .insert(memberPhotos)
      .values({ accountId: m.id, contentType: 'image/jpeg', bytes: Buffer.from('photo'), size: 5, createdAt: now });

    // a transfer to the member another member asked for and cancelled: the recipient's name, ID number and photos are theirs
    const giver = await newMember(s);
    const givenCard = await newCard(s, giver.id);
    const img = async () =>
      (
        await s.deps.db
          .insert(transferImages)
          .values({ accountId: giver.id, contentType: 'image/jpeg', bytes: Buffer.from('id-photo'), size: 8, createdAt: now })
          .returning()
      )[0]!.id;
    const [transfer] = await s.deps.db
      .insert(cardTransfers)
      .values({
        cardId: givenCard.id,
        fromAccountId: giver.id,
        toAccountId: m.id,
        recipientName: '林小雨',
        idNumber: '11010519491231002X',
        idPhotoId: await img(),
        photoId: await img(),
        state: 'cancelled',
        createdAt: now,
      })
      .returning();

    const id = (await askClosing(s, m.token)).body.data.id as number;
    const staff = await newStaff(s);
    const r = await confirmClosing(s, staff.token, id);
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ state: 'closed', memberName: null, memberPhone: `closed-${m.id}` });

    const a = await accountRow(s, m.id);
    expect(a).toMatchObject({
      phone: `closed-${m.id}`,
      passwordHash: null,
      name: null,
      avatarUrl: null,
      wxNickname: null,
      wxAvatar: null,
      banned: true,
    });
    expect(a.closedAt).not.toBeNull();
    expect(await s.deps.db.select().from(personInfo).where(eq(personInfo.accountId, m.id))).toEqual([]);
    expect(await s.deps.db.select().from(memberPhotos).where(eq(memberPhotos.accountId, m.id))).toEqual([]);
    expect(await s.deps.db.select().from(openIdBindings).where(eq(openIdBindings.accountId, m.id))).toEqual([]);
    expect((await s.deps.db.select().from(sessions).where(eq(sessions.accountId, m.id))).every((x) => x.revokedAt !== null)).toBe(true);
    const [t] = await s.deps.db.select().from(cardTransfers).where(eq(cardTransfers.id, transfer!.id));
    expect([t!.state, t!.recipientName, t!.idNumber, t!.idNumberKeyId]).toEqual(['cancelled', '', '', null]);
    for (const imageId of [t!.idPhotoId, t!.photoId]) {
      const [image] = await s.deps.db.select().from(transferImages).where(eq(transferImages.id, imageId));
      expect([image!.bytes.length, image!.keyId]).toEqual([0, null]);
    }
    // kept: the order and the ledger
    expect((await s.deps.db.select().from(orders).where(eq(orders.accountId, m.id))).length).toBe(1);
    expect((await s.deps.db.select().from(balanceLedger).where(eq(balanceLedger.accountId, m.id))).length).toBeGreaterThan(0);

    // no way in: the old token, the password, the open id
    expect((await s.call('GET', '/api/customers/me', { token: m.token })).status).toBe(401);
    const login = await s.call('POST', '/api/oauth/login', { body: { username: phone, password: 'secret-pw-1', loginType: 'password' } });
    expect([login.status, login.body.code]).toEqual([400, 10002]);
    expect(
      (await s.call('POST', '/api/oauth/login', { body: { username: `closed-${m.id}`, password: 'secret-pw-1', loginType: 'password' } }))
        .body.status,
    ).toBe(false);

    // the real number is free again: a code login with it opens a new, empty account, never the closed one
    const fresh = await codeLogin(s, phone);
    expect(fresh.body.data.id).not.toBe(m.id);
    expect((await accountRow(s, m.id)).phone).toBe(`closed-${m.id}`);

    const [entry] = await s.deps.db.select().from(auditLog).where(eq(auditLog.action, 'account-closing.confirm')).orderBy(auditLog.id);
    expect(entry).toMatchObject({ staffAccountId: staff.id, subjectKind: 'account-closing', subjectId: id });
    expect(code(await withdrawClosing(s, m.token))).toBe(401);
  });
});
