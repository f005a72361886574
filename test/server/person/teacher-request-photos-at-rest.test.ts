import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { auditLog, teacherRequests } from '../../../src/server/db/schema/index';
import { rowsOf } from '../../../src/server/db/rows';
import { sealPlainRows } from '../../../src/server/services/person-privacy/seal-old-rows';
import { sendCode } from '../auth/support';
import { account, JPEG, teacherForm } from '../binding/support';
import { startTestServer, type TestServer } from '../support/harness';

/**
 * A new teacher's request photo (their face, decision 028) is personal data at rest like an ID photo
 * (decision 055): only ciphertext in the table, decrypted for staff (each view audited) and, once the
 * teacher is confirmed, for the public catalogue; a photo stored before encryption is sealed at start.
 */
const s = await startTestServer({ seed: true });
const JPEG_HEX = JPEG.toString('hex');

async function tableText(s: TestServer): Promise<string> {
  return rowsOf<{ t: string }>(await s.deps.db.execute(sql.raw('select t::text as t from teacher_requests t')))
    .map((r) => r.t)
    .join('\n');
}

async function sent(): Promise<number> {
  const { body } = await teacherForm(s, sendCode);
  const r = await s.call('POST', '/api/bind/new-teacher', { body });
  expect(r.body.code, JSON.stringify(r.body)).toBe(200);
  return r.body.data.request.id as number;
}

const photo = async (path: string, token?: string, headers: Record<string, string> = {}) => {
  const r = await s.app.request(path, { headers: { ...(token ? { 'authorization-token': token } : {}), ...headers } });
  return { status: r.status, bytes: Buffer.from(await r.arrayBuffer()) };
};

describe('teacher-request photos at rest (decision 055)', () => {
  it('the stored photo is ciphertext under the current key; staff read the real photo, and each view is in the audit log', async () => {
    const id = await sent();
    const [row] = await s.deps.db.select().from(teacherRequests).where(eq(teacherRequests.id, id));
    expect(row!.photoKeyId).toBe(s.deps.gateways.keys.currentKeyId);
    expect(row!.photo.includes(JPEG)).toBe(false);
    expect(await tableText(s)).not.toContain(JPEG_HEX);
    const staff = await account(s, 'staff');
    const seen = await photo(`/api/staff/teacher-requests/${id}/photo`, staff.token, {
      'x-forwarded-for': '10.0.0.1, 198.51.100.61',
      'x-request-id': 'req-teacher-photo',
    });
    expect([seen.status, seen.bytes.equals(JPEG)]).toEqual([200, true]);
    const entries = await s.deps.db.select().from(auditLog).where(eq(auditLog.staffAccountId, staff.id));
    expect(entries).toMatchObject([
      {
        action: 'teacher-request.photo.view',
        subjectKind: 'teacher-request',
        subjectId: id,
        clientIp: '198.51.100.61',
        requestId: 'req-teacher-photo',
      },
    ]);
    // not public before confirmation; the catalogue photo once confirmed (public, so not audited)
    expect((await photo(`/api/bind/new-teacher/${id}/photo`)).status).toBe(404);
    expect((await s.call('POST', '/api/staff/teacher-requests/confirm', { token: staff.token, body: { id } })).body.code).toBe(200);
    const pub = await photo(`/api/bind/new-teacher/${id}/photo`);
    expect([pub.status, pub.bytes.equals(JPEG)]).toEqual([200, true]);
  });

  it('a photo stored plain before encryption is sealed at start and still reads', async () => {
    const id = await sent();
    // as a row from before migration 0042 holds it
    await s.deps.db
      .update(teacherRequests)
      .set({ photo: JPEG, photoWrappedKey: null, photoKeyId: null, photoNonce: null })
      .where(eq(teacherRequests.id, id));
    expect(await tableText(s)).toContain(JPEG_HEX);
    expect(await sealPlainRows(s.deps.db, s.deps.gateways.keys, null)).toBeGreaterThanOrEqual(1);
    expect(await tableText(s)).not.toContain(JPEG_HEX);
    const staff = await account(s, 'staff');
    expect((await photo(`/api/staff/teacher-requests/${id}/photo`, staff.token)).bytes.equals(JPEG)).toBe(true);
    expect(await sealPlainRows(s.deps.db, s.deps.gateways.keys, null)).toBe(0);
  });
});
