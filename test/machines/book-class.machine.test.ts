import { createActor, fromPromise } from 'xstate';
import { describe, expect, it } from 'vitest';
import type { BookAnswer, CardForClass } from '../../src/api/booking';
import type { Envelope } from '../../src/domain/envelope';
import { bookClassMachine, type BookClassContext } from '../../machines/book-class.machine';
import { defineModelTest } from './support/define-model-test';

const card = (id: number, usable: boolean, extra: Partial<CardForClass> = {}): CardForClass => ({
  id,
  name: `卡 ${id}`,
  number: `NO${id}`,
  cardType: 'count',
  clubId: null,
  status: 'in_use',
  usesTotal: 10,
  usesLeft: 8,
  validFrom: null,
  validUntil: null,
  validityDays: null,
  extensionCount: 0,
  weekendOnly: false,
  offPeakSlots: [],
  bookingWindowDays: null,
  experience: false,
  usable,
  code: usable ? null : 20011,
  message: null,
  reminders: [],
  ...extra,
});

const ok = <T>(data: T): Envelope<T> => ({ code: 200, status: true, data });
const oneUsable = ok([card(1, true), card(2, false)]);
const twoUsable = ok([card(1, true, { reminders: ['first-use', 'will-activate'] }), card(3, true)]);
const noneUsable = ok([card(2, false)]);
const classGone = { code: 404, status: false, data: null };
const seat = ok<BookAnswer>({ bookingId: 9, state: 'booked', bookedNum: 1 });
const queue = ok<BookAnswer>({ bookingId: 9, state: 'queued', position: 2, bookedNum: 0 });
const overlap = { code: 20030, status: false, data: null } as unknown as Envelope<BookAnswer>;

defineModelTest({
  machine: bookClassMachine,
  inputs: { 'a member on bookcourseconfirm?id=7': { classId: 7 } },
  cases: {
    'xstate.done.actor.loadCards': [{ output: oneUsable }, { output: twoUsable }, { output: noneUsable }, { output: classGone }],
    'xstate.error.actor.loadCards': [{ error: new Error('network') }],
    // a usable card, a card the class refuses (weekend-only)
    'card.choose': [{ cardId: 3 }, { cardId: 2 }],
    'xstate.done.actor.book': [{ output: seat }, { output: queue }, { output: overlap }],
    'xstate.error.actor.book': [{ error: new Error('network') }],
  },
  offer: (e, s) => {
    const c = s.context as BookClassContext;
    // choose at most once of each kind, toggle the notice at most once: keeps the graph small
    if (e.type === 'card.choose') return c.cardId !== e.cardId && c.errorCode === undefined;
    if (e.type === 'notice.toggle') return !c.agreed;
    return true;
  },
  project: (c: BookClassContext) => ({
    cards: c.cards.map((x) => x.id),
    cardId: c.cardId ?? null,
    agreed: c.agreed,
    keyed: !!c.idempotencyKey,
    errorCode: c.errorCode ?? null,
    position: c.position ?? null,
  }),
});

describe('book-class machine: what it sends', () => {
  it('sends the class, the chosen card and agreeNotice, and reuses the idempotency key on retry', async () => {
    const sent: Array<{ body: unknown; idempotencyKey: string }> = [];
    let fail = true;
    let changed = 0;
    const actor = createActor(
      bookClassMachine.provide({
        actors: {
          loadCards: fromPromise(async () => twoUsable),
          book: fromPromise(async ({ input }) => {
            sent.push(input);
            if (fail) throw new Error('network');
            return seat;
          }),
        },
        actions: { bookingChanged: () => void changed++ },
      }),
      { input: { classId: 7 } },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    actor.send({ type: 'booking.submit' });
    expect(actor.getSnapshot().matches({ choosing: 'cardMissing' })).toBe(true);
    actor.send({ type: 'card.choose', cardId: 3 });
    actor.send({ type: 'booking.submit' });
    expect(actor.getSnapshot().matches({ choosing: 'noticeMissing' })).toBe(true);
    actor.send({ type: 'notice.toggle' });
    actor.send({ type: 'booking.submit' });
    actor.send({ type: 'booking.confirm' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('unreachable');
    fail = false;
    actor.send({ type: 'booking.retry' });
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().value).toBe('booked');
    expect(sent.map((s) => s.body)).toEqual([
      { classId: 7, cardId: 3, agreeNotice: true },
      { classId: 7, cardId: 3, agreeNotice: true },
    ]);
    expect(sent[0]!.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(sent[1]!.idempotencyKey).toBe(sent[0]!.idempotencyKey);
    expect(changed).toBe(1);
  });

  it('makes a new key for a new intent after a refusal', async () => {
    const keys: string[] = [];
    const actor = createActor(
      bookClassMachine.provide({
        actors: {
          loadCards: fromPromise(async () => oneUsable),
          book: fromPromise(async ({ input }) => (keys.push(input.idempotencyKey), overlap)),
        },
      }),
      { input: { classId: 7 } },
    ).start();
    await new Promise((r) => setTimeout(r, 0));
    expect(actor.getSnapshot().context.cardId).toBe(1); // the one usable card is chosen
    actor.send({ type: 'notice.toggle' });
    for (let i = 0; i < 2; i++) {
      actor.send({ type: 'booking.submit' });
      actor.send({ type: 'booking.confirm' });
      await new Promise((r) => setTimeout(r, 0));
      expect(actor.getSnapshot().matches({ choosing: 'refused' })).toBe(true);
      expect(actor.getSnapshot().context.errorCode).toBe(20030);
    }
    expect(keys).toHaveLength(2);
    expect(keys[0]).not.toBe(keys[1]);
  });
});
