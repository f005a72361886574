import { eq } from 'drizzle-orm';
import { complaints, staffClubs } from '../../../src/server/db/schema/index';
import type { TestServer } from '../support/harness';

/** Complaints in tests (decision 033): a real JPEG's bytes, the member's and staff's calls. */
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 1), Buffer.from([0xff, 0xd9])]);

export const uploadImage = (s: TestServer, token: string, bytes: Buffer = JPEG) =>
  s.call('POST', '/api/customers/complaints/image', { token, body: { image: bytes.toString('base64') } });
export const fileComplaint = (s: TestServer, token: string, body: Record<string, unknown>) =>
  s.call('POST', '/api/customers/complaints', { token, body });
export const myComplaints = (s: TestServer, token: string) => s.call('GET', '/api/customers/complaints', { token });
export const complaintDetail = (s: TestServer, token: string, id: number) =>
  s.call('GET', `/api/customers/complaints/detail?id=${id}`, { token });
export const rate = (s: TestServer, token: string, id: number, satisfied: boolean) =>
  s.call('POST', '/api/customers/complaints/rate', { token, body: { id, satisfied } });
export const staffQueue = (s: TestServer, token: string) => s.call('GET', '/api/staff/complaints', { token });
export const reply = (s: TestServer, token: string, id: number, text: string) =>
  s.call('POST', '/api/staff/complaints/reply', { token, body: { id, reply: text } });

export async function complaintRow(s: TestServer, id: number) {
  const [row] = await s.deps.db.select().from(complaints).where(eq(complaints.id, id));
  return row!;
}

/** Staff working for `clubIds` only (none: the whole chain). */
export async function assignClubs(s: TestServer, staffId: number, clubIds: number[]) {
  if (clubIds.length) await s.deps.db.insert(staffClubs).values(clubIds.map((clubId) => ({ accountId: staffId, clubId })));
}
