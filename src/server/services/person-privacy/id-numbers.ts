import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import { openText, sealText } from '../../gateways/keys/envelope';

/** An ID number's columns (person_info, card_transfers): sealed, or plain in a row from before encryption. */
export interface IdNumberColumns {
  idNumber: string | null;
  idNumberCipher: Buffer | null;
  idNumberWrappedKey: Buffer | null;
  idNumberKeyId: string | null;
  idNumberNonce: Buffer | null;
}

/**
 * The columns that store an ID number encrypted (decision 055); the plain column is left empty.
 * `context` names the row (table and owner) and is bound to the ciphertext.
 */
export async function sealIdNumber(keys: KeyAdapter, idNumber: string, context: string): Promise<IdNumberColumns> {
  const s = await sealText(keys, idNumber, context);
  return { idNumber: null, idNumberCipher: s.cipher, idNumberWrappedKey: s.wrappedKey, idNumberKeyId: s.keyId, idNumberNonce: s.nonce };
}

/** The ID number of a row: decrypted, or the plain value of a row not sealed yet. */
export async function openIdNumber(keys: KeyAdapter, row: IdNumberColumns, context: string): Promise<string> {
  if (row.idNumberKeyId === null) return row.idNumber ?? '';
  if (!row.idNumberCipher || !row.idNumberWrappedKey || !row.idNumberNonce) throw new Error(`sealed ID number incomplete (${context})`);
  return openText(
    keys,
    { cipher: row.idNumberCipher, wrappedKey: row.idNumberWrappedKey, keyId: row.idNumberKeyId, nonce: row.idNumberNonce },
    context,
  );
}

/** The context an ID number in person_info is sealed under (its member). */
export const personIdContext = (accountId: number) => `person_info.id_number:${accountId}`;
/** The context an ID number in a transfer application is sealed under (its giver and card). */
export const transferIdContext = (fromAccountId: number, cardId: number) => `card_transfers.id_number:${fromAccountId}:${cardId}`;
