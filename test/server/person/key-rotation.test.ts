import { randomBytes } from 'node:crypto';
import { eq, isNotNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { cardTransfers, jobs, memberPhotos, personInfo, teacherRequests, transferImages } from '../../../src/server/db/schema/index';
import type { KeyAdapter } from '../../../src/server/gateways/keys/key-adapter';
import { dataKeySettingsFromEnv } from '../../../src/server/gateways/keys/key-settings';
import { localKeys } from '../../../src/server/gateways/keys/local-keys';
import { HOUSEKEEPING_JOB } from '../../../src/server/jobs/housekeeping';
import { runDueJobs } from '../../../src/server/jobs/runner';
import { enqueueJob } from '../../../src/server/jobs/queue';
import { REWRAPPED_KEY_COLUMNS, rewrapOldDataKeys } from '../../../src/server/services/person-privacy/rewrap-keys';
import { rowsOf } from '../../../src/server/db/rows';
import { sendCode } from '../auth/support';
import { account, JPEG, teacherForm } from '../binding/support';
import { newCard, newMember } from '../booking/support';
import { applyFor, ID_NUMBER, phoneOf, PNG } from '../cards/transfer-support';
import { newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';

/**
 * Key rotation (decision 055): after DATA_KEY changes and the old key moves to DATA_KEYS_PREVIOUS,
 * the hourly housekeeping rewraps every data key still under the old key, so the old key can go:
 * afterwards the values read with the new key alone, their ciphertext untouched.
 */
const s = await startTestServer({ seed: true });
const old = dataKeySettingsFromEnv(process.env, true).current;
const next = { id: 'k-next', key: randomBytes(32) };
const useKeys = (keys: KeyAdapter) => {
  (s.deps.gateways as { keys: KeyAdapter }).keys = keys;
};

/** The key ids every sealed value of every table names. */
async function keyIdsInUse(): Promise<string[]> {
  const ids = [
    ...(await s.deps.db.select({ k: personInfo.idNumberKeyId }).from(personInfo).where(isNotNull(personInfo.idNumberKeyId))),
    ...(await s.deps.db.select({ k: cardTransfers.idNumberKeyId }).from(cardTransfers).where(isNotNull(cardTransfers.idNumberKeyId))),
    ...(await s.deps.db.select({ k: transferImages.keyId }).from(transferImages).where(isNotNull(transferImages.keyId))),
    ...(await s.deps.db.select({ k: memberPhotos.keyId }).from(memberPhotos).where(isNotNull(memberPhotos.keyId))),
    ...(await s.deps.db.select({ k: teacherRequests.photoKeyId }).from(teacherRequests).where(isNotNull(teacherRequests.photoKeyId))),
  ];
  return [...new Set(ids.map((r) => r.k!))].sort();
}

const bytesOf = async (path: string, token: string) =>
  Buffer.from(await (await s.app.request(path, { headers: { 'authorization-token': token } })).arrayBuffer());

describe('key rotation: housekeeping rewraps data keys under a rotated-out key (decision 055)', () => {
  it('covers every sealed column of the schema (each column naming a wrapping key id)', async () => {
    const cols = rowsOf<{ c: string }>(
      await s.deps.db.execute(
        sql`select table_name || '.' || column_name as c from information_schema.columns where table_schema = current_schema() and column_name like '%key_id' order by 1`,
      ),
    ).map((r) => r.c);
    expect(cols.length).toBeGreaterThanOrEqual(5);
    expect([...REWRAPPED_KEY_COLUMNS].sort()).toEqual(cols);
  });

  it('every sealed value moves to the new key; then it reads without the old key, its ciphertext unchanged', async () => {
    // one of each sealed value, under the old key
    const from = await newMember(s);
    const to = await newMember(s);
    expect(
      (
        await s.call('PUT', '/api/customers/person-info', {
          token: to.token,
          body: { realName: '王小明', idNumber: ID_NUMBER, yogaAge: null, styles: [], practiceTime: null, salutation: '' },
        })
      ).status,
    ).toBe(200);
    const transfer = (await applyFor(s, from.token, (await newCard(s, from.id)).id, await phoneOf(s, to.id))).body.data.id as number;
    expect((await s.call('POST', '/api/customers/photo', { token: to.token, body: { image: PNG.toString('base64') } })).body.code).toBe(
      200,
    );
    const { body } = await teacherForm(s, sendCode);
    const request = (await s.call('POST', '/api/bind/new-teacher', { body })).body.data.request.id as number;
    expect(await keyIdsInUse()).toEqual([old.id]);
    const [photoBefore] = await s.deps.db.select().from(memberPhotos).where(eq(memberPhotos.accountId, to.id));

    // the operator rotates: the new key current, the old one previous; the next housekeeping rewraps
    useKeys(localKeys({ current: next, previous: [old] }));
    await enqueueJob(s.deps.db, { kind: HOUSEKEEPING_JOB, runAt: s.clock.now() });
    expect(await runDueJobs(s.deps)).toBeGreaterThanOrEqual(1);
    expect((await s.deps.db.select().from(jobs).where(eq(jobs.kind, HOUSEKEEPING_JOB))).map((j) => j.lastError ?? null)).not.toContain(
      expect.any(String),
    );
    expect(await keyIdsInUse()).toEqual([next.id]);
    const [photoAfter] = await s.deps.db.select().from(memberPhotos).where(eq(memberPhotos.accountId, to.id));
    expect(photoAfter!.bytes!.equals(photoBefore!.bytes!)).toBe(true);
    expect(photoAfter!.wrappedKey!.equals(photoBefore!.wrappedKey!)).toBe(false);

    // the old key removed: every value still reads
    useKeys(localKeys({ current: next, previous: [] }));
    expect((await s.call('GET', '/api/customers/person-info/id-number', { token: to.token })).body.data).toEqual({ idNumber: ID_NUMBER });
    const staff = await newStaff(s);
    expect(
      (await s.call('POST', '/api/staff/transfers/reveal-id-number', { token: staff.token, body: { id: transfer, reason: '核对' } })).body
        .data.idNumber,
    ).toBe(ID_NUMBER);
    expect((await bytesOf(`/api/staff/transfers/${transfer}/image/id-photo`, staff.token)).equals(PNG)).toBe(true);
    expect((await bytesOf('/api/customers/photo/image', to.token)).equals(PNG)).toBe(true);
    expect((await bytesOf(`/api/staff/teacher-requests/${request}/photo`, (await account(s, 'staff')).token)).equals(JPEG)).toBe(true);
    // nothing left to rewrap
    expect(await rewrapOldDataKeys(s.deps.db, s.deps.gateways.keys)).toEqual({ rewrapped: 0, failed: {} });
  });

  it('a value under a key no longer held is counted as failed and left as it is; the others go on', async () => {
    const m = await newMember(s);
    const lost = { id: 'k-lost', key: randomBytes(32) };
    useKeys(localKeys({ current: lost, previous: [] }));
    expect((await s.call('POST', '/api/customers/photo', { token: m.token, body: { image: PNG.toString('base64') } })).body.code).toBe(200);
    useKeys(localKeys({ current: next, previous: [] }));
    expect((await rewrapOldDataKeys(s.deps.db, s.deps.gateways.keys)).failed['k-lost']).toBe(1);
    const [row] = await s.deps.db.select().from(memberPhotos).where(eq(memberPhotos.accountId, m.id));
    expect(row!.keyId).toBe('k-lost');
  });
});
