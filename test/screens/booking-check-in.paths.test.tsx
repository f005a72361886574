// @vitest-environment jsdom
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bookingCheckInMachine, type CheckInContext } from '../../machines/booking-check-in.machine';
import { classes } from '../../src/server/db/schema/index';
import { book, bookingRow, DAY, MINUTE, newCard, newClass, newMember } from '../server/booking/support';
import { screen, startScreenHarness } from './support/screen-harness';
import { defineScreenPaths, oneKeyPerIntent, type World } from './support/screen-paths';

/**
 * Checking in by the class's QR code (/signed?classId=&code=, spec §8 check-in errors, decision 007):
 * a booked member confirms; the server marks the booking checked in once; a refusal says why (here:
 * already checked in on another phone); a network failure offers a retry under the same key.
 */
const h = await startScreenHarness({ seed: true });

interface Member {
  token: string;
  classId: number;
  code: string;
  bookingId: number;
}
type W = World<Member>;

const ok = { code: 200, status: true, data: {} };
const already = { code: 70041, status: false, data: null };

const checkIns = (w: W, since = 0) => w.sent.slice(since).filter((r) => r.invoke === 'checkIn');
const alertText = () => screen.queryByRole('alert')?.textContent || null;
const actionButton = () => document.querySelector<HTMLButtonElement>('[data-action="checkin"]');
const bookingState = async (w: W) => (await bookingRow(h.server, w.bookingId)).state;

/** on the screen before checking in: the class, the button that does it, the booking still booked */
async function notYet(w: W, feedback: string | null, label: string) {
  expect(alertText()).toBe(feedback);
  expect(actionButton()?.textContent).toBe(label);
  expect(actionButton()?.disabled).toBe(false);
  expect(await bookingState(w)).toBe('booked');
}

defineScreenPaths<Member>(h, {
  machine: bookingCheckInMachine,
  screen: '/signed',
  inputs: { 'a booked member who scanned the class code': { classId: 1, code: 'the class code' } },
  cases: {
    'xstate.done.actor.checkIn': [
      { output: ok, answer: { server: true } },
      {
        output: already,
        // the member already checked in on another phone
        answer: {
          server: true,
          arrange: (w: W) =>
            h.server
              .call('POST', '/api/customers/classes/checkin', { token: w.token, body: { classId: w.classId, code: w.code } })
              .then(() => {}),
        },
      },
    ],
    'xstate.error.actor.checkIn': [{ error: new Error('network') }],
  },
  // once checked in elsewhere, it stays checked in
  offer: (e, s) =>
    !(
      e.type === 'xstate.done.actor.checkIn' &&
      (e.output as typeof ok).code === 200 &&
      (s.context as CheckInContext).errorCode === already.code
    ),
  project: (c: CheckInContext) => ({ errorCode: c.errorCode ?? null }),
  requests: { checkIn: { method: 'POST', path: /^\/api\/customers\/classes\/checkin$/ } },

  async start(hh) {
    // booked a day ago into a class that starts in 40 minutes (check-in opens an hour before)
    const now = hh.server.clock.now();
    hh.server.clock.set(new Date(now.getTime() - DAY));
    const m = await newMember(hh.server);
    const card = await newCard(hh.server, m.id);
    const cls = await newClass(hh.server, { startsAt: new Date(now.getTime() + 40 * MINUTE) });
    const booked = await book(hh.server, m.token, cls.id, card.id);
    hh.server.clock.set(now);
    const [row] = await hh.server.deps.db.select({ code: classes.checkinCode }).from(classes).where(eq(classes.id, cls.id));
    hh.jar.setClientCookie('token', m.token);
    const ui = await hh.open(`/signed?classId=${cls.id}&code=${row!.code}`);
    return { ui, token: m.token, classId: cls.id, code: row!.code, bookingId: booked.body.data.bookingId as number };
  },

  events: {
    'checkin.submit': (w) => w.ui.user.click(actionButton()!),
    'network.retry': (w) => w.ui.user.click(actionButton()!),
  },

  states: {
    ready: (w) => notYet(w, null, '确认签到'),
    submitting: async (w) => {
      expect(actionButton()?.textContent).toBe('签到中…');
      expect(actionButton()?.disabled).toBe(true);
      expect(w.held.get('checkIn')?.map((r) => r.body)).toEqual([{ classId: w.classId, code: w.code }]);
    },
    refused: async (w) => {
      expect(checkIns(w).at(-1)?.answer).toBe(already.code);
      expect(alertText()).toBe('您已签到，无需重复签到');
      expect(actionButton()?.textContent).toBe('确认签到');
      expect(await bookingState(w)).toBe('checked_in');
    },
    unreachable: async (w) => {
      expect(checkIns(w).at(-1)?.answer).toBe('network');
      await notYet(w, '网络无法连接', '重试');
    },
    checkedIn: async (w) => {
      expect(screen.getByText('签到成功，祝您练习愉快')).toBeTruthy();
      expect(actionButton()).toBe(null);
      expect(await bookingState(w)).toBe('checked_in');
    },
  },

  // a retry checks in at most once: the same key; a new tap, a new one
  effects: oneKeyPerIntent('checkIn', { intent: 'checkin.submit', retry: 'network.retry' }),
});
