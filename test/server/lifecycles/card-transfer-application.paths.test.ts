import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { cardTransferApplicationMachine } from '../../../machines/domain/card-transfer-application.machine';
import { memberCards, notifications } from '../../../src/server/db/schema/index';
import { cardRow, newCard, newMember } from '../booking/support';
import { applyFor, phoneOf, staffCall, transferRow } from '../cards/transfer-support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The transfer chart (spec §4 transfer application, decision 026) against the server: a member applies
 * to transfer a card in use with 7 of 10 uses left to another member (POST /customers/transfers/apply);
 * staff take it for review (POST /staff/transfers/take), then approve it or reject it with a reason
 * (POST /staff/transfers/approve | reject); the member may cancel it while it waits
 * (POST /customers/transfers/cancel). Each state is read from `card_transfers` and from what the
 * member is told (GET /customers/transfers/mine), with what it promises for both members' cards, the
 * staff queue and the notices.
 */
const s = await startTestServer({ seed: true });
const REASON = '身份证照片不清晰';

interface Application {
  token: string;
  accountId: number;
  recipientId: number;
  cardId: number;
  id: number;
  staff: { id: number; token: string };
  /** the member's notices when the application was made */
  noticesBefore: number;
}

const mine = async (w: Application) =>
  (await s.call('GET', `/api/customers/transfers/mine?cardId=${w.cardId}`, { token: w.token })).body.data;
const detail = async (w: Application) => (await s.call('GET', `/api/customers/cards/detail?id=${w.cardId}`, { token: w.token })).body.data;
const inQueue = async (w: Application) =>
  ((await s.call('GET', '/api/staff/transfers', { token: w.staff.token })).body.data as Array<{ id: number }>).some((t) => t.id === w.id);
const noticesOf = (accountId: number) =>
  s.deps.db.select().from(notifications).where(eq(notifications.accountId, accountId)).orderBy(desc(notifications.id));
const cardsOf = (accountId: number) => s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, accountId));
const transferOffer = async (w: Application) => (await detail(w)).offers.find((o: { operation: string }) => o.operation === 'transfer');

/** Not decided: the card is still the member's, in use with its uses, and the recipient has nothing. */
async function stillMine(w: Application) {
  const card = await cardRow(s, w.cardId);
  expect([card.accountId, card.status, card.usesLeft]).toEqual([w.accountId, 'in_use', 7]);
  expect(await cardsOf(w.recipientId)).toEqual([]);
}

/** Ended without a transfer: the card may be applied for again, and nobody was told it moved. */
async function endedWithoutTransfer(w: Application) {
  await stillMine(w);
  expect(await transferOffer(w)).toMatchObject({ allowed: true });
  expect(await inQueue(w)).toBe(false);
  expect(await noticesOf(w.recipientId)).toEqual([]);
}

defineServerPaths<Application>(s, {
  machine: cardTransferApplicationMachine,
  record: 'a card-transfer application',
  async start() {
    const m = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, m.id, { usesLeft: 7 });
    const r = await applyFor(s, m.token, card.id, await phoneOf(s, to.id));
    accepted(r, 'apply');
    return {
      token: m.token,
      accountId: m.id,
      recipientId: to.id,
      cardId: card.id,
      id: r.body.data.id,
      staff: await newStaff(s),
      noticesBefore: (await noticesOf(m.id)).length,
    };
  },
  events: {
    'transfer.take': async (w) => accepted(await staffCall(s, w.staff.token, 'take', w.id), 'take'),
    'transfer.approve': async (w) => accepted(await staffCall(s, w.staff.token, 'approve', w.id), 'approve'),
    'transfer.reject': async (w) => accepted(await staffCall(s, w.staff.token, 'reject', w.id, REASON), 'reject'),
    'transfer.cancel': async (w) =>
      accepted(await s.call('POST', '/api/customers/transfers/cancel', { token: w.token, body: { id: w.id } }), 'cancel'),
  },
  async read(w) {
    return { stored: (await transferRow(s, w.id)).state, shown: (await mine(w)).state };
  },
  states: {
    // waiting for staff: in their queue, nobody took it, the member may cancel it, the card is not offered for a second application
    pending: async (w) => {
      const row = await transferRow(s, w.id);
      expect([row.reviewedBy, row.decidedBy, row.decidedAt]).toEqual([null, null, null]);
      expect(await inQueue(w)).toBe(true);
      expect((await mine(w)).canCancel).toBe(true);
      expect(await transferOffer(w)).toMatchObject({ allowed: false, code: 30004 });
      await stillMine(w);
    },
    // a staff member took it (who and when kept): still queued, no longer the member's to cancel
    reviewing: async (w) => {
      const row = await transferRow(s, w.id);
      expect([row.reviewedBy, row.reviewedAt?.getTime(), row.decidedBy]).toEqual([w.staff.id, s.clock.now().getTime(), null]);
      expect(await inQueue(w)).toBe(true);
      expect((await mine(w)).canCancel).toBe(false);
      expect(await transferOffer(w)).toMatchObject({ allowed: false, code: 30004 });
      await stillMine(w);
    },
    // approved by the staff member who took it: the card is transferred, the recipient holds one with its 7 uses and end, both told
    approved: async (w) => {
      const row = await transferRow(s, w.id);
      expect([row.decidedBy, row.reviewedBy]).toEqual([w.staff.id, w.staff.id]);
      const card = await cardRow(s, w.cardId);
      expect(card.status).toBe('transferred');
      const got = await cardsOf(w.recipientId);
      expect(got).toHaveLength(1);
      expect(got[0]).toMatchObject({ id: row.newCardId, usesLeft: 7, transferredFromCardId: w.cardId, status: 'in_use' });
      expect(got[0]!.validUntil!.getTime()).toBe(card.validUntil!.getTime());
      expect((await noticesOf(w.accountId)).length).toBe(w.noticesBefore + 1);
      expect(await noticesOf(w.recipientId)).toHaveLength(1);
      expect(await inQueue(w)).toBe(false);
      expect((await mine(w)).canCancel).toBe(false);
    },
    // rejected with the reason the member reads and is told; the card stays theirs
    rejected: async (w) => {
      const row = await transferRow(s, w.id);
      expect([row.decidedBy, row.reason]).toEqual([w.staff.id, REASON]);
      expect((await mine(w)).reason).toBe(REASON);
      expect((await noticesOf(w.accountId))[0]?.body).toContain(REASON);
      await endedWithoutTransfer(w);
    },
    // the member called it off before review: kept as theirs, nobody reviewed or told
    cancelled: async (w) => {
      const row = await transferRow(s, w.id);
      expect([row.decidedBy, row.reviewedBy, row.reason]).toEqual([w.accountId, null, null]);
      expect((await noticesOf(w.accountId)).length).toBe(w.noticesBefore);
      await endedWithoutTransfer(w);
    },
  },
});
