import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { addDays, shanghaiDate } from '../../../src/domain/time';
import { bindCodes, complaints } from '../../../src/server/db/schema/index';
import { account, newTeacher } from '../binding/support';
import { cardRow, newCard, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';

/**
 * Integers in a JSON body are JSON integers (decision 053): a boolean, an array holding one, or a
 * string (decimal or hex) is a 400 naming the field, and nothing is written. Before, the body's ids
 * were coerced like a query's: `true` was 1, `[5]` was 5, `"0x1f"` was 31, and each acted on that row.
 */
const s = await startTestServer({ seed: true });
const today = () => shanghaiDate(s.clock.now());
const refusal = (r: { status: number; body: { code: number; field?: string } }) => [r.status, r.body.code, r.body.field];

describe('an id in a JSON body is a JSON integer', () => {
  it('freezing a card with {"id": [its id]}: 400 naming id, the card not frozen', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    const r = await s.call('POST', '/api/customers/cards/freeze', {
      token: m.token,
      body: { id: [card.id], from: today(), until: addDays(today(), 2) },
    });
    expect(refusal(r)).toEqual([400, 70003, 'id']);
    expect((await cardRow(s, card.id)).status).toBe(card.status);
  });

  it('freezing a card with its id as a string, decimal or hex: 400 naming id', async () => {
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    for (const id of [String(card.id), `0x${card.id.toString(16)}`]) {
      const r = await s.call('POST', '/api/customers/cards/freeze', {
        token: m.token,
        body: { id, from: today(), until: addDays(today(), 2) },
      });
      expect(refusal(r), id).toEqual([400, 70003, 'id']);
    }
    expect((await cardRow(s, card.id)).status).toBe(card.status);
  });

  it('a complaint with "clubId": true: 400 naming clubId, no complaint filed', async () => {
    const m = await newMember(s);
    const before = await complaintCount(m.id);
    const r = await s.call('POST', '/api/customers/complaints', { token: m.token, body: { content: '教室太冷', clubId: true } });
    expect(refusal(r)).toEqual([400, 70003, 'clubId']);
    expect(await complaintCount(m.id)).toBe(before);
  });

  it('a complaint with its image ids as strings: 400 naming the image id', async () => {
    const m = await newMember(s);
    const r = await s.call('POST', '/api/customers/complaints', { token: m.token, body: { content: '教室太冷', imageIds: ['1'] } });
    expect([r.status, r.body.code, r.body.field]).toEqual([400, 70003, 'imageIds.0']);
  });

  it('staff issuing a bind code with {"teacherId": true}: 400 naming teacherId, no code issued', async () => {
    const staff = await account(s, 'staff');
    const before = await codeCount();
    const r = await s.call('POST', '/api/staff/bind-codes', { token: staff.token, body: { teacherId: true } });
    expect(refusal(r)).toEqual([400, 70003, 'teacherId']);
    expect(await codeCount()).toBe(before);
  });

  it('a JSON integer still works, and a query or path id is still text parsed to one', async () => {
    const staff = await account(s, 'staff');
    const t = await newTeacher(s);
    const issued = await s.call('POST', '/api/staff/bind-codes', { token: staff.token, body: { teacherId: t, phone: '13600009991' } });
    expect(issued.body.code).toBe(200);
    const m = await newMember(s);
    const card = await newCard(s, m.id);
    expect((await s.call('GET', `/api/customers/cards/detail?id=${card.id}`, { token: m.token })).body.code).toBe(200);
  });
});

async function complaintCount(accountId: number): Promise<number> {
  const [row] = await s.deps.db.select({ n: count() }).from(complaints).where(eq(complaints.accountId, accountId));
  return row!.n;
}

async function codeCount(): Promise<number> {
  const [row] = await s.deps.db.select({ n: count() }).from(bindCodes);
  return row!.n;
}
