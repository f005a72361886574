import { eq } from 'drizzle-orm';
import { personInfo } from '../../../src/server/db/schema/index';
import type { Deps } from '../../../src/server/env';
import { openIdNumber, personIdContext } from '../../../src/server/services/person-privacy/id-numbers';

/**
 * A member's person_info row with its ID number decrypted (decision 055: the table holds only the
 * ciphertext), for tests that check what was stored; undefined when there is none.
 */
export async function personRow(deps: Pick<Deps, 'db' | 'gateways'>, accountId: number) {
  const [r] = await deps.db.select().from(personInfo).where(eq(personInfo.accountId, accountId));
  return r ? { ...r, idNumber: await openIdNumber(deps.gateways.keys, r, personIdContext(accountId)) } : undefined;
}
