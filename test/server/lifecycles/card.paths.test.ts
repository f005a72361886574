import { expect } from 'vitest';
import { cardMachine } from '../../../machines/domain/card.machine';
import { cardRow, newCard, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The card chart (spec §4 card status) against the server, as far as endpoints exist: a bought card
 * is inactive until the member activates it (POST /customers/cards/activate; a first booking does
 * the same in the booking service). Each state is read back from GET /customers/cards/detail and the
 * member_cards table, with what it promises (an inactive card has no validity yet; one in use has its
 * validity counted from activation). Freeze, transfer, extension, refund and invalidation come with
 * issue 13; expiry is a state that passes with time, to be written by a job or computed in one place
 * (issue 11's remaining part), so it is not driven here yet.
 */
const s = await startTestServer({ seed: true });

const DAYS = 180;
const DAY_MS = 86_400_000;

interface Card {
  token: string;
  cardId: number;
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
    'card.activate': async (w) => accepted(await s.call('POST', '/api/customers/cards/activate', { token: w.token, body: { id: w.cardId } }), 'activate'),
  },
  notYetDriven: {
    'card.freeze': 'issue 13 (freeze)',
    'card.unfreeze': 'issue 13 (freeze)',
    'card.transfer': 'issue 13 (transfer)',
    'card.extend': 'issue 13 (extension)',
    'card.refund': 'issue 13 (refund)',
    'card.invalidate': 'issue 13 (staff invalidation)',
    'card.expire': 'issue 11 (states that pass with time: a job or one computation)',
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
    // started now, for its validity days
    in_use: async (w) => {
      const d = await detail(w);
      const now = s.clock.now().getTime();
      expect(Date.parse(d.validFrom)).toBe(now);
      expect(Date.parse(d.validUntil)).toBe(now + DAYS * DAY_MS);
      expect(d.operations, 'nothing more the server can do yet').toEqual([]);
    },
    frozen: notYet('freezing needs its endpoint (issue 13)'),
    expired: notYet('expiry passes with time (issue 11)'),
    transferred: notYet('transfer needs its endpoint (issue 13)'),
    invalid: notYet('refund and invalidation need their endpoints (issue 13)'),
  },
});
