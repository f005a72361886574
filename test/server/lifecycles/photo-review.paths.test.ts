import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { photoReviewMachine } from '../../../machines/domain/photo-review.machine';
import { memberPhotos } from '../../../src/server/db/schema/index';
import { newMember } from '../booking/support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';
import { accepted, defineServerPaths } from '../support/server-paths';

/**
 * The check-in photo chart (spec §4 photo review, §5 "upload only once unless staff are contacted",
 * decision 007) against the server: the member uploads (POST /customers/photo), staff pass or reject
 * with a reason (POST /staff/photos/{id}/review). Each state is read back from GET /customers/photo
 * and the member_photos table, with what it promises: whether the member may upload, the reason of a
 * rejection, the photo in the staff review queue exactly while it is under review.
 */
const s = await startTestServer();

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);
const REASON = '请上传本人正面免冠照片';

interface Member {
  token: string;
  accountId: number;
  staff: string;
  uploads: number;
}

const view = async (w: Member) => (await s.call('GET', '/api/customers/photo', { token: w.token })).body.data;
const latest = async (w: Member) =>
  (await s.deps.db.select().from(memberPhotos).where(eq(memberPhotos.accountId, w.accountId)).orderBy(desc(memberPhotos.id)).limit(1))[0];
const review = async (w: Member, body: Record<string, unknown>) => {
  const id = (await latest(w))?.id ?? 0;
  accepted(await s.call('POST', `/api/staff/photos/${id}/review`, { token: w.staff, body }), 'review');
};
async function inQueue(w: Member): Promise<boolean> {
  const q = (await s.call('GET', '/api/staff/photos', { token: w.staff })).body.data as Array<{ accountId: number }>;
  return q.some((p) => p.accountId === w.accountId);
}

defineServerPaths<Member>(s, {
  machine: photoReviewMachine,
  record: "a member's check-in photo",
  async start() {
    const m = await newMember(s);
    return { token: m.token, accountId: m.id, staff: (await newStaff(s)).token, uploads: 0 };
  },
  events: {
    'photo.upload': async (w) => {
      accepted(await s.call('POST', '/api/customers/photo', { token: w.token, body: { image: JPEG.toString('base64') } }), 'upload');
      w.uploads++;
    },
    'photo.pass': (w) => review(w, { decision: 'pass' }),
    'photo.reject': (w) => review(w, { decision: 'reject', reason: REASON }),
    // the member asked at the desk to change a passed photo (decision 042)
    'photo.allowAnother': async (w) =>
      accepted(await s.call('POST', `/api/staff/photos/${(await latest(w))?.id ?? 0}/allow-another`, { token: w.staff }), 'allow another'),
  },
  async read(w) {
    return { stored: (await latest(w))?.state ?? 'none', shown: (await view(w)).status as string };
  },
  states: {
    none: async (w) => {
      expect(await view(w)).toMatchObject({ canUpload: true, photoId: null });
      expect(await inQueue(w)).toBe(false);
    },
    reviewing: async (w) => {
      expect(await view(w)).toMatchObject({ canUpload: false, reason: null });
      expect((await latest(w))?.reviewedAt ?? null, 'nobody has decided yet').toBe(null);
      expect(await inQueue(w), 'staff see it in their queue').toBe(true);
    },
    rejected: async (w) => {
      expect(await view(w)).toMatchObject({ canUpload: true, reason: REASON });
      expect(await inQueue(w)).toBe(false);
    },
    passed: async (w) => {
      expect(await view(w)).toMatchObject({ canUpload: false, reason: null });
      expect(await inQueue(w)).toBe(false);
      const row = await latest(w);
      expect(row?.reviewedAt, 'decided once, with its time').toBeTruthy();
      expect(row?.rejectReason ?? null, 'passed, not rejected').toBe(null);
    },
    reopened: async (w) => {
      expect(await view(w), 'another upload is open; the passed photo still counts').toMatchObject({ canUpload: true, reason: null });
      expect(await inQueue(w)).toBe(false);
      expect((await latest(w))?.reopenedAt, 'staff allowed it, with the time').toBeTruthy();
    },
  },
});
