import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { complaintMachine } from '../../../machines/domain/complaint.machine';
import { COMPLAINT_OVERDUE_MS } from '../../../src/domain/complaint';
import { notifications } from '../../../src/server/db/schema/index';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { complaintDetail, complaintRow, fileComplaint, rate, reply, staffQueue } from '../complaints/support';
import { newMember, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The complaint chart (decision 033) against the server: a member files a complaint
 * (POST /customers/complaints); 48 hours unanswered, the `complaint.overdue` job flags it to staff;
 * staff reply (POST /staff/complaints/reply) and the member is notified; the member says whether they
 * are satisfied (POST /customers/complaints/rate). Each state is read from `complaints` and from what
 * the member is shown (GET /customers/complaints/detail), with what it promises for the staff queue,
 * the notices and what the member may do.
 */
const s = await startTestServer({ seed: true });
const REPLY = '已经调整了空调温度，欢迎再来';

interface World {
  token: string;
  accountId: number;
  id: number;
  staff: { id: number; token: string };
  noticesBefore: number;
}

const shown = async (w: World) => (await complaintDetail(s, w.token, w.id)).body.data;
const queued = async (w: World) =>
  ((await staffQueue(s, w.staff.token)).body.data as Array<{ id: number; overdue: boolean }>).find((c) => c.id === w.id);
const noticesOf = (accountId: number) =>
  s.deps.db.select().from(notifications).where(eq(notifications.accountId, accountId)).orderBy(desc(notifications.id));

/** Waiting for a reply: in the staff queue, nothing to rate, nobody told. */
async function awaiting(w: World, overdue: boolean) {
  const row = await complaintRow(s, w.id);
  expect([row.reply, row.repliedBy, row.ratedAt]).toEqual([null, null, null]);
  expect(row.overdueAt === null).toBe(!overdue);
  expect(await queued(w)).toMatchObject({ overdue });
  expect(await shown(w)).toMatchObject({ replied: false, satisfied: null, canRate: false });
  expect((await noticesOf(w.accountId)).length).toBe(w.noticesBefore);
}

/** Replied: out of the queue, the reply kept with who and when, the member told. */
async function answered(w: World) {
  const row = await complaintRow(s, w.id);
  expect([row.reply, row.repliedBy]).toEqual([REPLY, w.staff.id]);
  expect(await queued(w)).toBeUndefined();
  expect((await noticesOf(w.accountId)).length).toBe(w.noticesBefore + 1);
  expect((await noticesOf(w.accountId))[0]?.body).toContain(REPLY);
}

async function ratedAs(w: World, satisfied: boolean) {
  await answered(w);
  expect((await complaintRow(s, w.id)).ratedAt).not.toBeNull();
  expect(await shown(w)).toMatchObject({ replied: true, reply: REPLY, satisfied, canRate: false });
}

defineServerPaths<World>(s, {
  machine: complaintMachine,
  record: 'a complaint',
  async start() {
    const m = await newMember(s);
    const r = await fileComplaint(s, m.token, { content: '更衣室太冷了' });
    accepted(r, 'file');
    return { token: m.token, accountId: m.id, id: r.body.data.id, staff: await newStaff(s), noticesBefore: (await noticesOf(m.id)).length };
  },
  events: {
    // 48 hours pass on the injected clock and the due jobs run
    'complaint.overdue': async () => {
      s.clock.advance(COMPLAINT_OVERDUE_MS);
      while ((await runDueJobs(s.deps)) > 0);
    },
    'complaint.reply': async (w) => accepted(await reply(s, w.staff.token, w.id, REPLY), 'reply'),
    'complaint.satisfied': async (w) => accepted(await rate(s, w.token, w.id, true), 'rate satisfied'),
    'complaint.unsatisfied': async (w) => accepted(await rate(s, w.token, w.id, false), 'rate unsatisfied'),
  },
  async read(w) {
    return { stored: (await complaintRow(s, w.id)).state, shown: (await shown(w)).state };
  },
  states: {
    // filed: in the queue unflagged, not replied
    filed: async (w) => awaiting(w, false),
    // 48 hours unanswered: flagged in the queue, still not replied for the member
    overdue: async (w) => awaiting(w, true),
    // replied: the member reads it and may rate it
    replied: async (w) => {
      await answered(w);
      expect((await complaintRow(s, w.id)).ratedAt).toBeNull();
      expect(await shown(w)).toMatchObject({ replied: true, reply: REPLY, satisfied: null, canRate: true });
    },
    satisfied: async (w) => ratedAs(w, true),
    unsatisfied: async (w) => ratedAs(w, false),
  },
});
