import { expect } from 'vitest';
import { cardMachine } from '../../../machines/domain/card.machine';
import { enqueueJob } from '../../../src/server/jobs/queue';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { TIME_PASSING_JOB } from '../../../src/server/jobs/time-passing';
import { cardRow, newCard, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The card chart (spec §4 card status) against the server, as far as endpoints exist: a bought card
 * is inactive until the member activates it (POST /customers/cards/activate; a first booking does
 * the same in the booking service). Each state is read back from GET /customers/cards/detail and the
 * member_cards table, with what it promises (an inactive card has no validity yet; one in use has its
 * validity counted from activation; one expired has passed its validity end). Expiry passes with time:
 * the injected clock moves to the validity end and the time-passing job runs (decision 018).
 * Freeze, transfer, extension, refund and invalidation come with issue 13.
 */
const s = await startTestServer({ seed: true });
// the time-passing job, scheduled as the runner schedules it
await enqueueJob(s.deps.db, { kind: TIME_PASSING_JOB, runAt: s.clock.now() });

// shorter than a session lasts (30 days), so the member is still logged in when it expires
const DAYS = 20;
const DAY_MS = 86_400_000;

interface Card {
  token: string;
  cardId: number;
  /** when the member activated it */
  activatedAt?: number;
}

const detail = async (w: Card) => (await s.call('GET', `/api/customers/cards/detail?id=${w.cardId}`, { token: w.token })).body.data;
const notYet = (what: string) => () => {
  throw new Error(`${what}: nothing can put a card in this state yet`);
};

defineServerPaths<Card>(s, {
  machine: cardMachine,
  record: "a member's card",
  input: { receivedByTransfer: false },
  async start() {
    const m = await newMember(s);
    const card = await newCard(s, m.id, { status: 'inactive', validFrom: null, validUntil: null, validityDays: DAYS });
    return { token: m.token, cardId: card.id };
  },
  events: {
    'card.activate': async (w) => {
      accepted(await s.call('POST', '/api/customers/cards/activate', { token: w.token, body: { id: w.cardId } }), 'activate');
      w.activatedAt = s.clock.now().getTime();
    },
    // time passes to the validity end (for a card not yet started: as long as its validity would run) and the job runs
    'card.expire': async (w) => {
      const until = (await cardRow(s, w.cardId)).validUntil?.getTime() ?? s.clock.now().getTime() + DAYS * DAY_MS;
      if (until > s.clock.now().getTime()) s.clock.set(until);
      await runDueJobs(s.deps);
    },
  },
  notYetDriven: {
    'card.freeze': 'issue 13 (freeze)',
    'card.unfreeze': 'issue 13 (freeze)',
    'card.transfer': 'issue 13 (transfer)',
    'card.extend': 'issue 13 (extension)',
    'card.refund': 'issue 13 (refund)',
    'card.invalidate': 'issue 13 (staff invalidation)',
  },
  async read(w) {
    return { stored: (await cardRow(s, w.cardId)).status, shown: (await detail(w)).status as string };
  },
  states: {
    // bought, not started: no validity yet, activation offered
    inactive: async (w) => {
      const d = await detail(w);
      expect([d.validFrom, d.validUntil]).toEqual([null, null]);
      expect(d.operations).toEqual(['activate']);
    },
    // started at activation, for its validity days, which have not ended
    in_use: async (w) => {
      const d = await detail(w);
      expect(Date.parse(d.validFrom)).toBe(w.activatedAt);
      expect(Date.parse(d.validUntil)).toBe(w.activatedAt! + DAYS * DAY_MS);
      expect(Date.parse(d.validUntil)).toBeGreaterThan(s.clock.now().getTime());
      expect(d.operations, 'nothing more the server can do yet').toEqual([]);
    },
    frozen: notYet('freezing needs its endpoint (issue 13)'),
    // its validity has ended (the dates kept); my cards list says so too; extension, the one way back, needs its endpoint (issue 13)
    expired: async (w) => {
      const d = await detail(w);
      expect(Date.parse(d.validUntil)).toBe(w.activatedAt! + DAYS * DAY_MS);
      expect(Date.parse(d.validUntil)).toBeLessThanOrEqual(s.clock.now().getTime());
      expect(d.operations).toEqual([]);
      const mine = (await s.call('GET', '/api/customers/cards', { token: w.token })).body.data as Array<{ id: number; status: string }>;
      expect(mine.find((c) => c.id === w.cardId)?.status).toBe('expired');
    },
    transferred: notYet('transfer needs its endpoint (issue 13)'),
    invalid: notYet('refund and invalidation need their endpoints (issue 13)'),
  },
});
