// @vitest-environment jsdom
import { expect } from 'vitest';
import { bookingItemMachine, type BookingItemContext } from '../../machines/booking-item.machine';
import { book, bookingRow, cardRow, newCard, newClass, newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { askFirst, confirmStepEvents, defineScreenPaths, oneKeyPerIntent, type World } from './support/screen-paths';

/**
 * A row of my bookings (/takecourse/takelistm, spec §4): cancel a seat (its use comes back) or leave
 * a queue, each after a confirm; the server changes the booking once; a refusal says why (here: it
 * was already cancelled on another phone) and the row reloads; a network failure offers a retry
 * under the same key, or closing.
 */
const h = await startScreenHarness({ seed: true });

interface Member {
  token: string;
  bookingId: number;
  cardId: number;
  /** the booking's state when the page opened */
  opened: 'booked' | 'queued';
}
type W = World<Member>;

const ok = { code: 200, status: true, data: { state: 'cancelled' } };
const failed = { code: 20001, status: false, data: null };
const USES = 10;

const changes = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'applyChange');
const rowButton = () => document.querySelector<HTMLButtonElement>('[data-action="cancel-booking"], [data-action="cancel-queue"]');
const dialogButton = (name: string) => screen.queryByRole('button', { name });
const toastText = () => document.querySelector('[data-toast-type]')?.textContent ?? null;
const stored = async (w: W) => (await bookingRow(h.server, w.bookingId)).state;
/** the change this booking offers: a seat is given back, a queue left */
const kind = (w: W) => (w.opened === 'booked' ? 'seat' : 'queue');
const gone = (w: W) => (w.opened === 'booked' ? 'cancelled' : 'queue_cancelled');

defineScreenPaths<Member>(h, {
  machine: bookingItemMachine,
  screen: '/takecourse/takelistm',
  inputs: { 'a booked seat': { bookingId: 1, state: 'booked' }, 'a place in a queue': { bookingId: 1, state: 'queued' } },
  cases: {
    'xstate.done.actor.applyChange': [
      { output: ok, answer: { server: true } },
      {
        output: failed,
        // done on another phone a moment ago
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server
              .call('POST', w.opened === 'booked' ? '/api/customers/classes/cancel' : '/api/customers/classes/queue/cancel', {
                token: w.token,
                body: { bookingId: w.bookingId },
              })
              .then(() => {}),
        },
      },
    ],
    'xstate.error.actor.applyChange': [{ error: new Error('network') }],
  },
  // once changed elsewhere it stays changed: the reloaded row offers nothing more
  offer: (e, s) => {
    const refused = (s.context as BookingItemContext).errorCode === failed.code;
    if (e.type === 'booking.cancel' || e.type === 'queue.cancel') return !refused;
    return !(e.type === 'xstate.done.actor.applyChange' && (e.output as typeof ok).code === 200 && refused);
  },
  project: (c: BookingItemContext) => ({ state: c.state, change: c.change ?? null, errorCode: c.errorCode ?? null }),
  requests: { applyChange: { method: 'POST', path: /^\/api\/customers\/classes\/(cancel|queue\/cancel)$/ } },

  async start(hh, input) {
    const m = await newMember(hh.server);
    const card = await newCard(hh.server, m.id);
    const opened = input === 'a booked seat' ? 'booked' : 'queued';
    // tomorrow 19:00; for a queue, one seat that someone else took first
    const cls = await newClass(hh.server, opened === 'queued' ? { capacity: 1 } : {});
    if (opened === 'queued') {
      const other = await newMember(hh.server);
      await book(hh.server, other.token, cls.id, (await newCard(hh.server, other.id)).id);
    }
    const r = await book(hh.server, m.token, cls.id, card.id);
    expect(r.body.data.state).toBe(opened);
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open('/takecourse/takelistm');
    return { ui, token: m.token, bookingId: r.body.data.bookingId as number, cardId: card.id, opened };
  },

  events: {
    'booking.cancel': (w) => w.ui.user.click(document.querySelector<HTMLButtonElement>('[data-action="cancel-booking"]')!),
    'queue.cancel': (w) => w.ui.user.click(document.querySelector<HTMLButtonElement>('[data-action="cancel-queue"]')!),
    ...confirmStepEvents<Member>('确定'),
  },

  states: {
    // the row offers the change exactly while the server's booking still allows it
    idle: async (w) => {
      const elsewhere = changes(w).some((r) => r.answer === failed.code);
      const state = await stored(w);
      expect(state).toBe(elsewhere ? gone(w) : w.opened);
      expect(dialogButton('确定')).toBe(null);
      if (elsewhere) expect(rowButton(), 'a changed booking offers nothing').toBe(null);
      else expect(rowButton()?.textContent).toBe(kind(w) === 'seat' ? '取消预约' : '取消排队');
      // just refused (changed on another phone): the reason is said, and the row is the server's now
      if (changes(w).at(-1)?.answer === failed.code) expect(toastText()).toBe('预约失败');
    },
    'changing.confirming': async (w) => {
      if (kind(w) === 'seat') {
        // what the cancel gives back, as the server says it: the use of a count card
        expect(screen.getByText('确定取消这节课的预约吗？')).toBeTruthy();
        expect(screen.getByText('1次会退回会员卡。')).toBeTruthy();
      } else expect(screen.getByText('确定退出这节课的排队吗？')).toBeTruthy();
      expect(await stored(w)).toBe(w.opened);
    },
    'changing.submitting': async (w) => {
      expect(rowButton()?.disabled).toBe(true);
      const path = kind(w) === 'seat' ? '/api/customers/classes/cancel' : '/api/customers/classes/queue/cancel';
      expect(w.held.get('applyChange')?.map((r) => [r.path, r.body])).toEqual([[path, { bookingId: w.bookingId }]]);
    },
    'changing.unreachable': async (w) => {
      expect(changes(w).at(-1)?.answer).toBe('network');
      expect(screen.getByRole('alert').textContent).toContain('网络无法连接');
      expect(await stored(w)).toBe(w.opened);
    },
    changed: async (w) => {
      expect(changes(w).at(-1)?.answer).toBe(200);
      expect(toastText()).toBe(kind(w) === 'seat' ? '已取消预约' : '已取消排队');
      expect(await stored(w)).toBe(gone(w));
      expect(rowButton()).toBe(null);
      // a seat's use comes back; a queue place had spent none
      expect((await cardRow(h.server, w.cardId)).usesLeft).toBe(USES);
    },
  },

  effects: {
    ...oneKeyPerIntent<Member>('applyChange', { intent: 'confirm.accept', retry: 'network.retry' }),
    ...askFirst<Member>('applyChange', { ask: ['booking.cancel', 'queue.cancel'], confirmText: '确定' }),
  },
});
