import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { bindingTeacherRequestMachine } from '../../../machines/domain/binding-teacher-request.machine';
import { openIdBindings, teacherRequests, teachers } from '../../../src/server/db/schema/index';
import { sendCode } from '../auth/support';
import { account, openIdTicket, silentLoginAs, teacherForm } from '../binding/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The new-teacher request chart (decision 028) against the server: the teacher sends the form
 * (POST /bind/new-teacher), staff confirm or refuse (POST /staff/teacher-requests/confirm|refuse).
 * Each state is read back from GET /bind/new-teacher (the sender's view) and the table, with what it
 * promises (the open id's latest request): in the staff queue exactly while pending, the teacher and the binding made on confirm,
 * the reason shown on a refusal, no login for the open id until confirmed.
 */
const s = await startTestServer({ seed: true });
const REASON = '信息与门店记录不符';

interface Req {
  staff: string;
  openId: string;
  key: string | null;
}

const row = async (w: Req) =>
  w.key
    ? (
        await s.deps.db
          .select()
          .from(teacherRequests)
          .where(eq(teacherRequests.openId, w.openId))
          .orderBy(desc(teacherRequests.id))
          .limit(1)
      )[0]
    : undefined;
const shown = async (w: Req) => (w.key ? (await s.call('GET', `/api/bind/new-teacher?key=${w.key}`)).body.data : null);
async function inQueue(w: Req): Promise<boolean> {
  const q = (await s.call('GET', '/api/staff/teacher-requests', { token: w.staff })).body.data as Array<{ id: number }>;
  const r = await row(w);
  return r !== undefined && q.some((x) => x.id === r.id);
}
const decide = async (w: Req, what: 'confirm' | 'refuse') => {
  const id = (await row(w))?.id ?? 0;
  accepted(await s.call('POST', `/api/staff/teacher-requests/${what}`, { token: w.staff, body: { id, reason: REASON } }), what);
};

defineServerPaths<Req>(s, {
  machine: bindingTeacherRequestMachine,
  record: "a new teacher's request",
  async start() {
    return { staff: (await account(s, 'staff')).token, openId: (await openIdTicket(s)).openId, key: null };
  },
  events: {
    'request.submit': async (w) => {
      const { body } = await teacherForm(s, sendCode);
      const r = await s.call('POST', '/api/bind/new-teacher', { body: { ...body, openid: (await openIdTicket(s, w.openId)).ticket } });
      accepted(r, 'submit');
      w.key = r.body.data.key;
    },
    'request.confirm': (w) => decide(w, 'confirm'),
    'request.refuse': (w) => decide(w, 'refuse'),
  },
  async read(w) {
    return { stored: (await row(w))?.state ?? 'none', shown: (await shown(w))?.state ?? 'none' };
  },
  states: {
    none: async (w) => {
      expect(await inQueue(w)).toBe(false);
      expect(await silentLoginAs(s, w.openId)).toBe(10004);
    },
    pending: async (w) => {
      expect(await inQueue(w), 'staff see it in their queue').toBe(true);
      expect(await shown(w)).toMatchObject({ reason: null, decidedAt: null });
      expect(await silentLoginAs(s, w.openId), 'no login before staff confirm').toBe(10004);
    },
    confirmed: async (w) => {
      expect(await inQueue(w)).toBe(false);
      const r = await row(w);
      const [t] = await s.deps.db.select().from(teachers).where(eq(teachers.id, r!.teacherId!));
      expect(t?.accountId, 'the teacher has a login').toBeTruthy();
      const [b] = await s.deps.db.select().from(openIdBindings).where(eq(openIdBindings.openId, w.openId));
      expect(b?.accountId, 'bound to that login').toBe(t!.accountId);
      expect(await silentLoginAs(s, w.openId)).toBe('teacher');
    },
    refused: async (w) => {
      expect(await inQueue(w)).toBe(false);
      expect(await shown(w)).toMatchObject({ reason: REASON });
      expect((await row(w))?.teacherId ?? null, 'no teacher made').toBe(null);
      expect(await silentLoginAs(s, w.openId)).toBe(10004);
    },
  },
});
