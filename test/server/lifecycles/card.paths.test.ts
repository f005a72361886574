import { expect } from 'vitest';
import { cardMachine } from '../../../machines/domain/card.machine';
import { extendedValidUntil, freezeEndsAt } from '../../../src/domain/card-rules';
import { lastValidDay, addDays, shanghaiDate, shanghaiMidnight } from '../../../src/domain/time';
import { enqueueJob } from '../../../src/server/jobs/queue';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { TIME_PASSING_JOB } from '../../../src/server/jobs/time-passing';
import { eq } from 'drizzle-orm';
import { memberCards, orders } from '../../../src/server/db/schema/index';
import { cardRow, newCard, newMember } from '../booking/support';
import { balance, newStaff } from '../orders/support';
import { askRefund, boughtCard, staffRefund } from '../cards/refund-support';
import { applyFor, phoneOf, staffCall } from '../cards/transfer-support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The card chart (spec §4 card status) against the server: a bought card is inactive until the member
 * activates it (POST /customers/cards/activate; a first booking does the same in the booking service);
 * in use it may be frozen from today (POST /customers/cards/freeze) or from a later day (a planned
 * freeze, which the time-passing job starts on its first day), unfrozen by the member (or a planned
 * freeze called off: POST /customers/cards/unfreeze) or by the job after its last day, and extended
 * (POST /customers/cards/extend), also once expired (decision 024). Each state is read back from
 * GET /customers/cards/detail and the member_cards table, with what it promises: the validity end
 * each operation gives by spec §5 and decision 024 (computed here from the member's steps, not read
 * from the server), the freeze dates, the extension count, the operations offered. Time passes by
 * moving the injected clock and running the time-passing job (decision 018). A transfer is the
 * member's application to another member and staff taking and approving it (decision 026).
 * A refund is the member's request and staff approving it (decision 030): the one way a card
 * becomes invalid.
 */
const s = await startTestServer({ seed: true });
// the time-passing job, scheduled as the runner schedules it
await enqueueJob(s.deps.db, { kind: TIME_PASSING_JOB, runAt: s.clock.now() });

// short, so that a path's days stay within a session (30 days)
const DAYS = 10;
const DAY_MS = 86_400_000;
/** freezes asked for: 3 days from today, or from the day after tomorrow */
const FREEZE_DAYS = 3;
const PLAN_AHEAD = 2;
/** each extension: 5 days past the last valid day */
const EXTEND_BY = 5;

interface Card {
  token: string;
  cardId: number;
  /** when the member activated it */
  activatedAt?: number;
  /** the validity end the member's steps give (spec §5, decision 024) */
  until?: number;
  /** the freeze asked for, planned or running */
  freeze?: { from: string; until: string };
  planned?: boolean;
  extensions: number;
  /** the member the card was transferred to */
  recipient?: number;
  /** the card came to this member by a transfer (spec §5: never transferred again) */
  received: boolean;
  /** what its refund gave back */
  refunded?: number;
  /** the adviser the member chose last (decision 034), and how many changes */
  adviser?: number;
  adviserChanges: number;
}

const detail = async (w: Card) => (await s.call('GET', `/api/customers/cards/detail?id=${w.cardId}`, { token: w.token })).body.data;
const today = () => shanghaiDate(s.clock.now());
/** Not transferred: no member holds a card that came from it. */
const nobodyReceived = async (w: Card) =>
  expect(await s.deps.db.select().from(memberCards).where(eq(memberCards.transferredFromCardId, w.cardId))).toEqual([]);
/** moves the clock forward to `at` (never back) and runs the due jobs */
const passTo = async (at: number) => {
  if (at > s.clock.now().getTime()) s.clock.set(at);
  await runDueJobs(s.deps);
};
const freeze = async (w: Card, from: string, until: string) => {
  const r = await s.call('POST', '/api/customers/cards/freeze', { token: w.token, body: { id: w.cardId, from, until } });
  accepted(r, 'freeze');
  w.freeze = { from, until };
  w.until! += FREEZE_DAYS * DAY_MS;
};

defineServerPaths<Card>(s, {
  machine: cardMachine,
  record: "a member's card",
  inputs: {
    'a card bought': { receivedByTransfer: false, freezePlanned: false },
    'a card received by transfer': { receivedByTransfer: true, freezePlanned: false },
  },
  // a received card is walked only as far as its activation: what it adds is the transfer refused (30032)
  offer: (e, _s, input) => input !== 'a card received by transfer' || e.type === 'card.activate' || e.type === 'card.transfer',
  async start(_s, input) {
    const received = (input as { receivedByTransfer: boolean }).receivedByTransfer;
    const from = received ? await newCard(s, (await newMember(s)).id, { status: 'transferred' }) : null;
    // bought by a real order (¥199 by the balance), so that it may be refunded (decision 030)
    const { m, card } = await boughtCard(s, 'balance', { validityDays: DAYS });
    if (from) await s.deps.db.update(memberCards).set({ transferredFromCardId: from.id }).where(eq(memberCards.id, card.id));
    return { token: m.token, cardId: card.id, extensions: 0, received, adviserChanges: 0 };
  },
  events: {
    'card.activate': async (w) => {
      accepted(await s.call('POST', '/api/customers/cards/activate', { token: w.token, body: { id: w.cardId } }), 'activate');
      w.activatedAt = s.clock.now().getTime();
      w.until = w.activatedAt + DAYS * DAY_MS;
    },
    // the member freezes it from today for three days
    'card.freeze': (w) => freeze(w, today(), addDays(today(), FREEZE_DAYS - 1)),
    // ...or from the day after tomorrow: planned
    'card.planFreeze': async (w) => {
      await freeze(w, addDays(today(), PLAN_AHEAD), addDays(today(), PLAN_AHEAD + FREEZE_DAYS - 1));
      w.planned = true;
    },
    // the planned freeze's first day comes
    'card.freezeStarts': async (w) => {
      if (!w.planned) return runDueJobs(s.deps).then(() => {});
      await passTo(shanghaiMidnight(w.freeze!.from).getTime());
      w.planned = false;
    },
    // on the freeze's second day the member unfreezes it: the days from today on are taken back; a
    // planned freeze called off gives back all its days
    'card.unfreeze': async (w, from) => {
      if (from === 'frozen') s.clock.advance(DAY_MS);
      const r = await s.call('POST', '/api/customers/cards/unfreeze', { token: w.token, body: { id: w.cardId } });
      accepted(r, 'unfreeze');
      w.until! -= (from === 'frozen' ? FREEZE_DAYS - 1 : FREEZE_DAYS) * DAY_MS;
      w.freeze = undefined;
      w.planned = false;
    },
    // the freeze's last day passes: the job unfreezes it (nothing taken back)
    'card.freezeEnds': async (w, from) => {
      if (from !== 'frozen' || !w.freeze) return runDueJobs(s.deps).then(() => {});
      await passTo(freezeEndsAt(w.freeze.until).getTime());
      w.freeze = undefined;
    },
    // the member extends it to 5 days past its last valid day
    'card.extend': async (w) => {
      const until = addDays(lastValidDay(new Date(w.until!)), EXTEND_BY);
      accepted(await s.call('POST', '/api/customers/cards/extend', { token: w.token, body: { id: w.cardId, until } }), 'extend');
      w.until = extendedValidUntil(until).getTime();
      w.extensions += 1;
    },
    // the member applies to transfer it to another member; staff take the application and approve it
    'card.transfer': async (w) => {
      const to = await newMember(s);
      const r = await applyFor(s, w.token, w.cardId, await phoneOf(s, to.id));
      accepted(r, 'apply to transfer');
      const staff = await newStaff(s);
      accepted(await staffCall(s, staff.token, 'take', r.body.data.id), 'take');
      accepted(await staffCall(s, staff.token, 'approve', r.body.data.id), 'approve');
      w.recipient = to.id;
    },
    // the member asks for its refund (the policy agreed to); staff approve it: the money goes back to the balance (decision 030)
    'card.refund': async (w) => {
      const r = await askRefund(s, w.token, w.cardId);
      accepted(r, 'ask for the refund');
      const staff = await newStaff(s);
      accepted(await staffRefund(s, staff.token, 'approve', r.body.data.id), 'approve the refund');
      w.refunded = r.body.data.quotedCents;
    },
    // the member changes its adviser (decision 034): a club, then the one of its advisers that is not the card's
    'card.changeAdviser': async (w) => {
      const list = (await s.call('GET', '/api/customers/cards/advisers?clubId=1', { token: w.token })).body.data as Array<{ id: number }>;
      const to = list.find((a) => a.id !== w.adviser)!.id;
      accepted(
        await s.call('POST', '/api/customers/cards/adviser', { token: w.token, body: { id: w.cardId, clubId: 1, adviserId: to } }),
        'change adviser',
      );
      w.adviser = to;
      w.adviserChanges += 1;
    },
    // time passes to the validity end (for a card not yet started: as long as its validity would run)
    // and the job runs; a freeze planned or running starts and ends before that (its days were added to
    // the validity), so time is not moved past it: a frozen card waits
    'card.expire': async (w, from) => {
      if (w.planned || from === 'frozen') return runDueJobs(s.deps).then(() => {});
      await passTo((await cardRow(s, w.cardId)).validUntil?.getTime() ?? s.clock.now().getTime() + DAYS * DAY_MS);
    },
  },
  async read(w) {
    const d = await detail(w);
    // whatever the state, the card's adviser is the member's last choice and each change is on its timeline
    expect(d.adviser?.id ?? undefined, 'the adviser chosen last').toBe(w.adviser);
    const timeline = (await s.call('GET', `/api/customers/cards/history?id=${w.cardId}&pagesize=50`, { token: w.token })).body.data;
    expect(timeline.list.filter((h: { kind: string }) => h.kind === 'adviser').length).toBe(w.adviserChanges);
    return { stored: (await cardRow(s, w.cardId)).status, shown: d.status as string };
  },
  states: {
    // bought, not started: no validity yet, activation offered, nothing else (spec §5: not frozen or extended)
    inactive: async (w) => {
      const d = await detail(w);
      expect([d.validFrom, d.validUntil]).toEqual([null, null]);
      expect(d.operations).toEqual(w.received ? ['activate', 'changeAdviser'] : ['activate', 'transfer', 'refund', 'changeAdviser']);
      expect(d.offers.map((o: { operation: string; code: number }) => [o.operation, o.code])).toEqual([
        ['freeze', 30003],
        ['extend', 30010],
        // spec §5 once per card: a received card is never transferred again
        ['transfer', w.received ? 30032 : null],
        // a card received by transfer was not bought by this member (decision 030)
        ['refund', w.received ? 30041 : null],
        ['changeAdviser', null],
      ]);
      await nobodyReceived(w);
    },
    // started at activation; its end moved by each freeze asked for and extension; not past it
    in_use: async (w) => {
      const d = await detail(w);
      expect(Date.parse(d.validFrom)).toBe(w.activatedAt);
      expect(Date.parse(d.validUntil), 'the validity end the steps give').toBe(w.until);
      expect(Date.parse(d.validUntil)).toBeGreaterThan(s.clock.now().getTime());
      expect(d.extensionCount).toBe(w.extensions);
      // a planned freeze is shown and can be called off; then no second freeze is offered
      expect([d.frozenFrom, d.frozenUntil]).toEqual(w.planned ? [w.freeze!.from, w.freeze!.until] : [null, null]);
      expect(d.operations).toEqual(
        w.planned
          ? ['unfreeze', 'extend', 'refund', 'changeAdviser']
          : w.received
            ? ['freeze', 'extend', 'changeAdviser']
            : ['freeze', 'transfer', 'extend', 'refund', 'changeAdviser'],
      );
      if (w.received) expect(d.offers.find((o: { operation: string }) => o.operation === 'transfer').code).toBe(30032);
      await nobodyReceived(w);
      if (w.planned) {
        expect(d.offers.find((o: { operation: string }) => o.operation === 'freeze').code).toBe(30016);
        // a planned freeze is called off before a transfer (decision 026)
        expect(d.offers.find((o: { operation: string }) => o.operation === 'transfer').code).toBe(30016);
        // one freeze at a time (decision 024): a second one, even on other days, is refused and changes nothing
        const other = addDays(w.freeze!.until, 1);
        const r = await s.call('POST', '/api/customers/cards/freeze', {
          token: w.token,
          body: { id: w.cardId, from: other, until: other },
        });
        expect([r.status, r.body.code], 'a second freeze while one is planned').toEqual([409, 30016]);
        expect((await cardRow(s, w.cardId)).frozenFrom).toBe(w.freeze!.from);
      }
    },
    // frozen on the days asked for: it offers only unfreezing; its end already moved by those days
    frozen: async (w) => {
      const d = await detail(w);
      expect([d.frozenFrom, d.frozenUntil]).toEqual([w.freeze!.from, w.freeze!.until]);
      expect(today() >= w.freeze!.from && today() <= w.freeze!.until, 'today is a frozen day').toBe(true);
      expect(Date.parse(d.validUntil)).toBe(w.until);
      expect(d.operations).toEqual(['unfreeze', 'refund', 'changeAdviser']);
      await nobodyReceived(w);
      expect(d.offers.find((o: { operation: string }) => o.operation === 'extend').code).toBe(30014);
    },
    // its validity has ended (the dates kept); my cards list says so too; extension is the way back
    expired: async (w) => {
      const d = await detail(w);
      expect(Date.parse(d.validUntil)).toBe(w.until);
      expect(Date.parse(d.validUntil)).toBeLessThanOrEqual(s.clock.now().getTime());
      expect(d.operations).toEqual(['extend', 'changeAdviser']);
      await nobodyReceived(w);
      const mine = (await s.call('GET', '/api/customers/cards', { token: w.token })).body.data as Array<{ id: number; status: string }>;
      expect(mine.find((c) => c.id === w.cardId)?.status).toBe('expired');
    },
    // given to the recipient: this card books nothing and offers nothing; the recipient holds a new card
    // with its uses and validity end (none yet when it was never started), marked received by transfer
    transferred: async (w) => {
      const d = await detail(w);
      expect(d.operations).toEqual([]);
      expect(d.offers.find((o: { operation: string }) => o.operation === 'changeAdviser').code).toBe(30013);
      const old = await cardRow(s, w.cardId);
      const [got] = await s.deps.db.select().from(memberCards).where(eq(memberCards.accountId, w.recipient!));
      // (in use, or expired once time passed its end: the time-passing job moves the recipient's card too)
      const started = w.until === undefined ? 'inactive' : w.until > s.clock.now().getTime() ? 'in_use' : 'expired';
      expect(got, 'the recipient holds the card').toMatchObject({
        transferredFromCardId: w.cardId,
        usesLeft: old.usesLeft,
        status: started,
      });
      expect(got!.validUntil?.getTime() ?? null).toBe(w.until ?? null);
    },
    // refunded: it books nothing and offers nothing; the policy's amount is back in the balance and the order is refund done
    invalid: async (w) => {
      const d = await detail(w);
      expect(d.operations).toEqual([]);
      expect(d.offers.find((o: { operation: string }) => o.operation === 'refund').code).toBe(30011);
      expect(d.offers.find((o: { operation: string }) => o.operation === 'changeAdviser').code).toBe(30011);
      expect(w.refunded).toBeGreaterThan(0);
      expect(await balance(s, w.token)).toBe(w.refunded);
      const [o] = await s.deps.db.select().from(orders).where(eq(orders.issuedCardId, w.cardId));
      expect(o!.state).toBe('refunded');
      await nobodyReceived(w);
    },
  },
});
