import { eq } from 'drizzle-orm';
import { accounts, cardTransfers } from '../../../src/server/db/schema/index';
import type { TestServer } from '../support/harness';

/** A 1×1 PNG: what a phone's camera would send, small. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
/** A well-formed ID number (GB 11643's example). */
export const ID_NUMBER = '11010519491231002X';

export async function phoneOf(s: TestServer, accountId: number): Promise<string> {
  const [a] = await s.deps.db.select({ phone: accounts.phone }).from(accounts).where(eq(accounts.id, accountId));
  return a!.phone;
}

/** The member uploads the ID photo and the photo; their ids. */
export async function uploadImages(s: TestServer, token: string): Promise<{ idPhotoId: number; photoId: number }> {
  const up = async () =>
    (await s.call('POST', '/api/customers/transfers/image', { token, body: { image: PNG.toString('base64') } })).body.data
      .imageId as number;
  return { idPhotoId: await up(), photoId: await up() };
}

/** POST /customers/transfers/apply for `cardId` to the member with `toPhone` (images uploaded first unless given). */
export async function applyFor(s: TestServer, token: string, cardId: number, toPhone: string, over: Record<string, unknown> = {}) {
  const images = 'idPhotoId' in over ? {} : await uploadImages(s, token);
  return s.call('POST', '/api/customers/transfers/apply', {
    token,
    body: { cardId, phone: toPhone, name: '王小明', idNumber: ID_NUMBER, agreed: true, ...images, ...over },
  });
}

export const staffCall = (s: TestServer, token: string, action: 'take' | 'approve' | 'reject', id: number, reason?: string) =>
  s.call('POST', `/api/staff/transfers/${action}`, { token, body: reason === undefined ? { id } : { id, reason } });

export async function transferRow(s: TestServer, id: number) {
  const [row] = await s.deps.db.select().from(cardTransfers).where(eq(cardTransfers.id, id));
  return row!;
}
