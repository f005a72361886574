import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { accountClosingMachine } from '../../../machines/domain/account-closing.machine';
import { auditLog } from '../../../src/server/db/schema/index';
import {
  accountRow,
  askClosing,
  closingRow,
  confirmClosing,
  myClosing,
  refuseClosing,
  staffClosings,
  withdrawClosing,
} from '../account/closing-support';
import { newMember, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The account-closing chart (decision 057) against the server: a member asks to close their account
 * (POST /customers/me/closing); they withdraw it (POST /customers/me/closing/withdraw), or staff
 * confirm it (POST /staff/account-closings/confirm: the personal data erased) or refuse it with a
 * reason (POST /staff/account-closings/refuse). Each state is read from `account_closings` and from
 * what the member is shown (GET /customers/me/closing), with what it promises: the staff queue, the
 * account still usable or erased, the audit entry, asking again allowed or not.
 */
const s = await startTestServer({ seed: true });
const REASON = '请先到店取回寄存物品';

interface World {
  token: string;
  accountId: number;
  id: number;
  staff: { id: number; token: string };
}

const queued = async (w: World) => ((await staffClosings(s, w.staff.token)).body.data as Array<{ id: number }>).some((x) => x.id === w.id);
const audited = async (w: World) =>
  (await s.deps.db.select().from(auditLog).where(eq(auditLog.subjectId, w.id)))
    .filter((e) => e.subjectKind === 'account-closing')
    .map((e) => e.action);
const usable = async (w: World) => (await s.call('GET', '/api/customers/me', { token: w.token })).status === 200;

defineServerPaths<World>(s, {
  machine: accountClosingMachine,
  record: 'a request to close an account',
  async start() {
    const m = await newMember(s);
    const r = await askClosing(s, m.token);
    accepted(r, 'ask');
    return { token: m.token, accountId: m.id, id: r.body.data.id, staff: await newStaff(s) };
  },
  events: {
    'closing.confirm': async (w) => accepted(await confirmClosing(s, w.staff.token, w.id), 'confirm'),
    'closing.refuse': async (w) => accepted(await refuseClosing(s, w.staff.token, w.id, REASON), 'refuse'),
    'closing.withdraw': async (w) => accepted(await withdrawClosing(s, w.token), 'withdraw'),
  },
  async read(w) {
    const shown = w.id && (await usable(w)) ? (await myClosing(s, w.token)).body.data.state : (await closingRow(s, w.id)).state;
    return { stored: (await closingRow(s, w.id)).state, shown };
  },
  states: {
    // waiting: in the queue, the account works, asking again is 10035, nothing audited
    requested: async (w) => {
      expect(await queued(w)).toBe(true);
      expect(await usable(w)).toBe(true);
      expect((await askClosing(s, w.token)).body.code).toBe(10035);
      expect(await audited(w)).toEqual([]);
    },
    // closed: out of the queue, the token dead, the phone and name gone, audited once
    closed: async (w) => {
      expect(await queued(w)).toBe(false);
      expect(await usable(w)).toBe(false);
      const a = await accountRow(s, w.accountId);
      expect([a.phone, a.name, a.banned, a.closedAt !== null]).toEqual([`closed-${w.accountId}`, null, true, true]);
      expect(await audited(w)).toEqual(['account-closing.confirm']);
    },
    // withdrawn: out of the queue, the account untouched, nothing audited, a new request may be opened
    withdrawn: async (w) => {
      expect(await queued(w)).toBe(false);
      expect(await usable(w)).toBe(true);
      expect((await myClosing(s, w.token)).body.data).toMatchObject({ state: 'withdrawn', reason: null });
      expect(await audited(w)).toEqual([]);
      expect((await withdrawClosing(s, w.token)).body.code).toBe(10036);
    },
    // refused: the reason shown, the account untouched, audited with the reason
    refused: async (w) => {
      expect(await queued(w)).toBe(false);
      expect(await usable(w)).toBe(true);
      expect((await myClosing(s, w.token)).body.data).toMatchObject({ state: 'refused', reason: REASON });
      expect(await audited(w)).toEqual(['account-closing.refuse']);
      expect(
        (await s.deps.db.select().from(auditLog).where(eq(auditLog.subjectId, w.id))).find((e) => e.subjectKind === 'account-closing')
          ?.reason,
      ).toBe(REASON);
    },
  },
});
