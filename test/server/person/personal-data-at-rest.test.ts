import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { maskIdNumber } from '../../../src/domain/identity';
import { cardTransfers, memberPhotos, personInfo, transferImages } from '../../../src/server/db/schema/index';
import { rowsOf } from '../../../src/server/db/rows';
import { dataKeySettingsFromEnv } from '../../../src/server/gateways/keys/key-settings';
import { localKeys } from '../../../src/server/gateways/keys/local-keys';
import { sealPlainRows } from '../../../src/server/services/person-privacy/seal-old-rows';
import { newCard, newMember } from '../booking/support';
import { askRefund, boughtCard, staffRefund } from '../cards/refund-support';
import { applyFor, ID_NUMBER, phoneOf, PNG, transferRow } from '../cards/transfer-support';
import { newStaff } from '../orders/support';
import { startTestServer, type TestServer } from '../support/harness';
import { personRow } from '../support/sealed-rows';

/**
 * Personal data at rest and the staff audit log (decision 055, PIPL): ID numbers and ID and face
 * photos are only ciphertext in the database; the member reads their own, staff see the number masked
 * unless they give a reason, and what staff decide or look at is recorded with who, when and from where.
 */
const s = await startTestServer({ seed: true });
const PNG_HEX = PNG.toString('hex');
const refusal = (r: { status: number; body: { code: number; field?: string } }) => [r.status, r.body.code, r.body.field];

/** Every row of a table as PostgreSQL prints it (`select t::text`, what a text dump holds: bytea as \x hex). */
async function tableText(s: TestServer, table: string): Promise<string> {
  const rows = rowsOf<{ t: string }>(await s.deps.db.execute(sql.raw(`select t::text as t from ${table} t`)));
  return rows.map((r) => r.t).join('\n');
}

/** A member with personal information and a transfer to them with an ID photo; staff to look at it. */
async function transferWithIdPhoto() {
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
  const card = await newCard(s, from.id);
  const r = await applyFor(s, from.token, card.id, await phoneOf(s, to.id));
  expect(r.body.code).toBe(200);
  const staff = await newStaff(s);
  return { from, to, card, id: r.body.data.id as number, staff };
}

const audit = (s: TestServer, token: string, query = '') => s.call('GET', `/api/staff/audit${query}`, { token });
// the address the trusted proxy appended (the right end of X-Forwarded-For) after what the client wrote itself
const from = (ip: string, requestId: string) => ({ 'x-forwarded-for': `10.0.0.1, ${ip}`, 'x-request-id': requestId });

describe('at rest: the database holds no ID number and no photo bytes', () => {
  it('after personal information and a transfer with an ID photo, the raw rows and their dump text hold neither', async () => {
    const { to, id } = await transferWithIdPhoto();
    const t = await transferRow(s, id);
    const photo = await s.call('POST', '/api/customers/photo', { token: to.token, body: { image: PNG.toString('base64') } });
    expect(photo.body.code).toBe(200);
    // the columns read directly
    const [p] = rowsOf<Record<string, unknown>>(
      await s.deps.db.execute(sql`select id_number, id_number_cipher, id_number_key_id from person_info where account_id = ${to.id}`),
    );
    expect(p!.id_number).toBe(null);
    expect(p!.id_number_key_id).toBe(s.deps.gateways.keys.currentKeyId);
    expect(Buffer.from(p!.id_number_cipher as Uint8Array).toString('latin1')).not.toContain(ID_NUMBER);
    expect(t.idNumber).toBe(null);
    for (const img of await s.deps.db.select().from(transferImages)) expect(img.bytes.includes(PNG)).toBe(false);
    for (const img of await s.deps.db.select().from(memberPhotos)) expect(img.bytes!.includes(PNG)).toBe(false);
    // what a text dump of each table would hold
    for (const table of ['person_info', 'card_transfers', 'transfer_images', 'member_photos']) {
      const text = await tableText(s, table);
      expect(text.length, table).toBeGreaterThan(0);
      expect(text, table).not.toContain(ID_NUMBER);
      expect(text, table).not.toContain(PNG_HEX);
    }
    // yet every reader still gets the real thing
    expect((await personRow(s.deps, to.id))!.idNumber).toBe(ID_NUMBER);
    const own = await s.app.request('/api/customers/photo/image', { headers: { 'authorization-token': to.token } });
    expect(Buffer.from(await own.arrayBuffer()).equals(PNG)).toBe(true);
  });

  it('rows written before encryption are sealed at start: the plain column emptied, the value still read', async () => {
    const m = await newMember(s);
    const now = s.clock.now();
    await s.deps.db
      .insert(personInfo)
      .values({ accountId: m.id, realName: '李四', idNumber: '310115198506152343', createdAt: now, updatedAt: now });
    await s.deps.db
      .insert(memberPhotos)
      .values({ accountId: m.id, contentType: 'image/png', bytes: PNG, size: PNG.length, createdAt: now });
    expect(await sealPlainRows(s.deps.db, s.deps.gateways.keys, null)).toBeGreaterThanOrEqual(2);
    const row = await personRow(s.deps, m.id);
    expect(row).toMatchObject({ idNumberKeyId: s.deps.gateways.keys.currentKeyId, idNumber: '310115198506152343' });
    expect(await tableText(s, 'person_info')).not.toContain('310115198506152343');
    expect(await tableText(s, 'member_photos')).not.toContain(PNG_HEX);
    const img = await s.app.request('/api/customers/photo/image', { headers: { 'authorization-token': m.token } });
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    // run again: nothing left to seal
    expect(await sealPlainRows(s.deps.db, s.deps.gateways.keys, null)).toBe(0);
    expect((await s.deps.db.select({ k: cardTransfers.idNumberKeyId }).from(cardTransfers)).every((r) => r.k !== null)).toBe(true);
  });

  it('after a key rotation the stored values still read through the old key id; without the old key they do not', async () => {
    const { to } = await transferWithIdPhoto();
    const old = dataKeySettingsFromEnv(process.env, true).current;
    const rotated = localKeys({ current: { id: 'rotated-k2', key: randomBytes(32) }, previous: [old] });
    const withKeys = (keys: typeof rotated) => ({ db: s.deps.db, gateways: { ...s.deps.gateways, keys } });
    expect((await personRow(withKeys(rotated), to.id))!.idNumber).toBe(ID_NUMBER);
    const dropped = localKeys({ current: { id: 'rotated-k2', key: randomBytes(32) }, previous: [] });
    await expect(personRow(withKeys(dropped), to.id)).rejects.toThrow(old.id);
  });
});

describe('who sees the ID number', () => {
  it('the member reads their own whole number; their page shows it masked; another member never sees it', async () => {
    const { to } = await transferWithIdPhoto();
    expect((await s.call('GET', '/api/customers/person-info/id-number', { token: to.token })).body.data).toEqual({ idNumber: ID_NUMBER });
    expect((await s.call('GET', '/api/customers/person-info', { token: to.token })).body.data.info.idNumber).toBe(maskIdNumber(ID_NUMBER));
    const other = await newMember(s);
    expect((await s.call('GET', '/api/customers/person-info/id-number', { token: other.token })).body.data).toEqual({ idNumber: null });
    expect((await s.call('GET', '/api/customers/person-info', { token: other.token })).body.data.info).toBe(null);
    expect((await s.call('GET', '/api/customers/person-info/id-number')).status).toBe(401);
  });

  it('staff see it masked; revealing it needs a reason, answers the whole number and is audited (who, why, when, from where)', async () => {
    const { id, staff, from: giver } = await transferWithIdPhoto();
    const queue = (await s.call('GET', '/api/staff/transfers', { token: staff.token })).body.data as { id: number; idNumber: string }[];
    expect(queue.find((t) => t.id === id)!.idNumber).toBe('1101**********002X');
    expect(JSON.stringify(queue)).not.toContain(ID_NUMBER);
    const reveal = (token: string, body: unknown, headers: Record<string, string> = {}) =>
      s.call('POST', '/api/staff/transfers/reveal-id-number', { token, body, headers });
    // bad input names the field; a member may not reveal
    expect(refusal(await reveal(staff.token, { id }))).toEqual([400, 70003, 'reason']);
    expect(refusal(await reveal(staff.token, { id, reason: '   ' }))).toEqual([400, 70003, 'reason']);
    expect(refusal(await reveal(staff.token, { id: String(id), reason: 'x' }))).toEqual([400, 70003, 'id']);
    expect((await reveal(giver.token, { id, reason: '核对' })).status).toBe(403);
    expect(refusal(await reveal(staff.token, { id: 999_999, reason: '核对' }))).toEqual([404, 70004, 'id']);
    const before = (await audit(s, staff.token, `?staffId=${staff.id}`)).body.data;
    expect(before).toEqual([]);
    const r = await reveal(staff.token, { id, reason: ' 核对身份证照片 ' }, from('203.0.113.7', 'req-reveal-1'));
    expect(r.body).toMatchObject({ code: 200, data: { id, idNumber: ID_NUMBER } });
    const [entry] = (await audit(s, staff.token, `?staffId=${staff.id}`)).body.data;
    expect(entry).toEqual({
      id: expect.any(Number),
      staffId: staff.id,
      staffName: null,
      staffPhone: expect.any(String),
      action: 'transfer.id-number.reveal',
      subjectKind: 'transfer',
      subjectId: id,
      reason: '核对身份证照片',
      clientIp: '203.0.113.7',
      requestId: 'req-reveal-1',
      at: s.clock.now().toISOString(),
    });
  });
});

describe('the audit log', () => {
  it('records a view of an ID photo and a refund approval, with who, what, when and from where', async () => {
    const { id, staff } = await transferWithIdPhoto();
    const img = await s.app.request(`/api/staff/transfers/${id}/image/id-photo`, {
      headers: { 'authorization-token': staff.token, ...from('198.51.100.4', 'req-photo-1') },
    });
    expect(Buffer.from(await img.arrayBuffer()).equals(PNG)).toBe(true);
    const { m, card } = await boughtCard(s);
    const refundId = (await askRefund(s, m.token, card.id)).body.data.id as number;
    s.clock.advance(60_000);
    expect(
      (
        await s.call('POST', '/api/staff/card-refunds/approve', {
          token: staff.token,
          body: { id: refundId },
          headers: from('198.51.100.4', 'req-approve-1'),
        })
      ).body.code,
    ).toBe(200);
    const entries = (await audit(s, staff.token, `?staffId=${staff.id}`)).body.data;
    expect(
      entries.map((e: { action: string; subjectId: number; requestId: string; clientIp: string }) => [
        e.action,
        e.subjectId,
        e.requestId,
        e.clientIp,
      ]),
    ).toEqual([
      ['card-refund.approve', refundId, 'req-approve-1', '198.51.100.4'],
      ['transfer.id-photo.view', id, 'req-photo-1', '198.51.100.4'],
    ]);
    expect(entries[0].at).toBe(s.clock.now().toISOString());
    expect(new Date(entries[1].at).getTime()).toBe(s.clock.now().getTime() - 60_000);
    // filtered by action: only that action, every staff member's
    const approvals = (await audit(s, staff.token, '?action=card-refund.approve')).body.data;
    expect(approvals.length).toBeGreaterThanOrEqual(1);
    expect(approvals.every((e: { action: string }) => e.action === 'card-refund.approve')).toBe(true);
  });

  it('a refused action records nothing; the decision taken is recorded once', async () => {
    const staff = await newStaff(s);
    const { m, card } = await boughtCard(s);
    const refundId = (await askRefund(s, m.token, card.id)).body.data.id as number;
    expect((await staffRefund(s, staff.token, 'reject', refundId, '不符合')).body.code).toBe(200);
    expect((await staffRefund(s, staff.token, 'approve', refundId)).status).toBe(409);
    expect((await audit(s, staff.token, `?staffId=${staff.id}`)).body.data.map((e: { action: string }) => e.action)).toEqual([
      'card-refund.reject',
    ]);
  });

  it('is for staff only; a bad filter is a 400 naming it', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    expect((await audit(s, m.token)).status).toBe(403);
    expect(refusal(await audit(s, staff.token, '?action=everything'))).toEqual([400, 70003, 'action']);
    expect(refusal(await audit(s, staff.token, '?staffId=abc'))).toEqual([400, 70003, 'staffId']);
  });
});
