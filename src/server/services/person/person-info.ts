import { and, asc, eq, inArray, ne, or } from 'drizzle-orm';
import type { Clock } from '../../../domain/clock';
import { maskName } from '../../../domain/card-transfer';
import { Errors } from '../../../domain/errors';
import { idNumberProblem, maskIdNumber, normalIdNumber, validRealName } from '../../../domain/identity';
import { shanghaiDate } from '../../../domain/time';
import type { PersonInfoBody, PersonInfoPage, PersonInfoView } from '../../../contracts/person-info';
import type { Db, Tx } from '../../db/client';
import { cardRefunds, cardTransfers, personInfo, styles } from '../../db/schema/index';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import { ApiError } from '../../http/api-error';
import { decide } from '../../db/transaction';
import { openIdNumber, personIdContext, sealIdNumber } from '../person-privacy/id-numbers';
import { keepCouponPromise } from '../coupons/rewards';

type PersonRow = typeof personInfo.$inferSelect;

/** The ID number rule broken, as the code the form shows (70101 shape, 70102 birth date, 70103 check character). */
const ID_CODES = { format: Errors.idNumberFormat, birthDate: Errors.idNumberBirthDate, checkDigit: Errors.idNumberCheckDigit } as const;

/**
 * Whether a transfer or a refund has used the member's name and ID number (decision 032): a transfer
 * application from or to them, or a card refund request of theirs, that was not cancelled. After that
 * they change only through staff (70104).
 */
export async function identityUsed(db: Db | Tx, accountId: number): Promise<boolean> {
  const [t] = await db
    .select({ id: cardTransfers.id })
    .from(cardTransfers)
    .where(
      and(or(eq(cardTransfers.fromAccountId, accountId), eq(cardTransfers.toAccountId, accountId)), ne(cardTransfers.state, 'cancelled')),
    )
    .limit(1);
  if (t) return true;
  const [r] = await db
    .select({ id: cardRefunds.id })
    .from(cardRefunds)
    .where(and(eq(cardRefunds.accountId, accountId), ne(cardRefunds.state, 'cancelled')))
    .limit(1);
  return Boolean(r);
}

/** The member's stored personal information (undefined when none). */
export async function storedPersonInfo(db: Db | Tx, accountId: number): Promise<PersonRow | undefined> {
  const [row] = await db.select().from(personInfo).where(eq(personInfo.accountId, accountId));
  return row;
}

/** A member's ID number as stored, decrypted (decision 055); undefined when they stored none. */
export async function memberIdNumber(db: Db | Tx, keys: KeyAdapter, accountId: number): Promise<string | undefined> {
  const row = await storedPersonInfo(db, accountId);
  return row ? openIdNumber(keys, row, personIdContext(row.accountId)) : undefined;
}

function view(row: PersonRow, idNumber: string, locked: boolean): PersonInfoView {
  return {
    realName: maskName(row.realName),
    idNumber: maskIdNumber(idNumber),
    yogaAge: row.yogaAge,
    styles: row.styles,
    practiceTime: (row.practiceTime as PersonInfoView['practiceTime']) ?? null,
    salutation: row.salutation,
    identityLocked: locked,
  };
}

/** GET /customers/person-info: mine, masked, and the styles a member may choose. */
export async function personInfoPage(db: Db, keys: KeyAdapter, accountId: number, now: Date): Promise<PersonInfoPage> {
  const row = await storedPersonInfo(db, accountId);
  const options = await db
    .select({ value: styles.key, zh: styles.name, en: styles.nameEn })
    .from(styles)
    .orderBy(asc(styles.sort), asc(styles.id));
  return {
    info: row ? view(row, await openIdNumber(keys, row, personIdContext(accountId)), await identityUsed(db, accountId)) : null,
    styleOptions: options.map((o) => ({ value: o.value, zh: o.zh, en: o.en ?? o.zh })),
    today: shanghaiDate(now),
  };
}

/**
 * Stores the member's personal information (spec §5): the real name and the ID number checked, each
 * refusal saying which rule; favourite styles must be the chain's. Stored once: later saves change
 * the rest freely, but a different name or ID number after a transfer or refund used them is refused
 * (70104: staff change it), decided under the row's lock so a transfer cannot slip in between.
 */
export async function savePersonInfo(
  db: Db,
  clock: Clock,
  keys: KeyAdapter,
  accountId: number,
  input: PersonInfoBody,
): Promise<PersonInfoView> {
  const now = clock.now();
  const realName = input.realName.trim();
  if (!validRealName(realName)) throw new ApiError(Errors.realNameInvalid, { field: 'realName' });
  const problem = idNumberProblem(input.idNumber, shanghaiDate(now));
  if (problem) throw new ApiError(ID_CODES[problem], { field: 'idNumber' });
  const idNumber = normalIdNumber(input.idNumber);
  const chosen = [...new Set(input.styles)];
  if (chosen.length) {
    const known = await db.select({ key: styles.key }).from(styles).where(inArray(styles.key, chosen));
    if (known.length !== chosen.length) throw new ApiError(Errors.invalidField, { field: 'styles', values: { field: 'styles' } });
  }
  const rest = {
    yogaAge: input.yogaAge,
    styles: chosen,
    practiceTime: input.practiceTime,
    salutation: input.salutation.trim(),
    updatedAt: now,
  };
  const sealed = await sealIdNumber(keys, idNumber, personIdContext(accountId));
  return decide(db, async (tx) => {
    const [old] = await tx.select().from(personInfo).where(eq(personInfo.accountId, accountId)).for('update');
    const oldId = old ? await openIdNumber(keys, old, personIdContext(accountId)) : undefined;
    if (old && (old.realName !== realName || oldId !== idNumber) && (await identityUsed(tx, accountId)))
      throw new ApiError(Errors.identityLocked);
    const [row] = old
      ? await tx
          .update(personInfo)
          .set({ realName, ...sealed, ...rest })
          .where(eq(personInfo.accountId, accountId))
          .returning()
      : await tx
          .insert(personInfo)
          .values({ accountId, realName, ...sealed, ...rest, createdAt: now })
          .onConflictDoNothing()
          .returning();
    // two first saves at once: the second finds the first's row and is told to try again (as a retry would)
    if (!row) throw new ApiError(Errors.requestInProgress);
    // the first save completes the personal information: the coupon promised for it, if any, once
    if (!old) await keepCouponPromise(tx, accountId, 'person-info', now);
    return view(row, idNumber, await identityUsed(tx, accountId));
  });
}

/**
 * Card transfer's check of a recipient (decision 032): when the recipient stored personal information,
 * the name and ID number typed for them must be theirs (70105); a recipient who never did is checked
 * by staff against the ID photo, as before. The stored number is compared after decrypting it (one
 * row, read by the recipient's id: no search by ID number needs a blind index).
 */
export async function recipientIdentityMatches(
  db: Db | Tx,
  keys: KeyAdapter,
  recipientId: number,
  name: string,
  idNumber: string,
): Promise<boolean> {
  const row = await storedPersonInfo(db, recipientId);
  return (
    !row || (row.realName === name.trim() && (await openIdNumber(keys, row, personIdContext(recipientId))) === normalIdNumber(idNumber))
  );
}
