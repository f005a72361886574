import { describe, expect, it } from 'vitest';
import { fileComplaint, reply } from '../complaints/support';
import { issue, paidOrder, refuse, requestInvoice } from '../invoices/support';
import { newMember, newStaff } from '../orders/support';
import { startTestServer } from '../support/harness';

/** The audit log's newest entries of one staff member (GET /api/staff/audit). */
const entriesOf = async (s: Awaited<ReturnType<typeof startTestServer>>, staff: { id: number; token: string }) =>
  (await s.call('GET', `/api/staff/audit?staffId=${staff.id}`, { token: staff.token })).body.data as {
    action: string;
    subjectKind: string;
    subjectId: number;
    reason: string | null;
    clientIp: string;
    requestId: string;
  }[];

describe('staff decisions on complaints and invoices are in the audit log (decision 055)', async () => {
  const s = await startTestServer({ seed: true });
  const from = (ip: string, id: string) => ({ 'x-forwarded-for': ip, 'x-request-id': id });

  it('a complaint reply: who, what, from where, which request', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const c = (await fileComplaint(s, m.token, { content: '更衣室太冷了' })).body.data as { id: number };
    const r = await s.call('POST', '/api/staff/complaints/reply', {
      token: staff.token,
      body: { id: c.id, reply: '已调高温度' },
      headers: from('198.51.100.31', 'req-reply-1'),
    });
    expect(r.status).toBe(200);
    expect(await entriesOf(s, staff)).toMatchObject([
      { action: 'complaint.reply', subjectKind: 'complaint', subjectId: c.id, clientIp: '198.51.100.31', requestId: 'req-reply-1' },
    ]);
    // a refused reply (already replied) writes nothing
    expect((await reply(s, staff.token, c.id, '再次回复')).status).toBe(409);
    expect((await entriesOf(s, staff)).length).toBe(1);
  });

  it('an invoice issued and one refused, the refusal with its reason', async () => {
    const m = await newMember(s);
    const staff = await newStaff(s);
    const ask = async () => (await requestInvoice(s, m.token, { orderIds: [(await paidOrder(s, m)).id] })).body.data.id as number;
    const one = await ask();
    const two = await ask();
    expect((await issue(s, staff.token, one)).status).toBe(200);
    expect((await refuse(s, staff.token, two, '抬头与税号不符')).status).toBe(200);
    const entries = await entriesOf(s, staff);
    expect(entries.map((e) => [e.action, e.subjectId, e.reason])).toEqual([
      ['invoice.refuse', two, '抬头与税号不符'],
      ['invoice.issue', one, null],
    ]);
  });
});
