import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { pendingApplications } from '../cards/applications';
import { cardRefusal, clashOf, classEnd, classRefusal, LONGEST_CLASS_MS, MAX_UPCOMING_PER_MEMBER } from '../../../domain/booking-rules';
import type { Clock } from '../../../domain/clock';
import { Errors } from '../../../domain/errors';
import type { Db, Tx } from '../../db/client';
import { accounts, cardFamilyMembers, classes, memberCards } from '../../db/schema/index';
import { ApiError } from '../../http/api-error';
import {
  clashRefusal,
  refuse,
  seatsFromJson,
  spendingOf,
  takeSeats,
  type BookResult,
  type CardRow,
  type ClassRow,
  type Member,
  type SeatRequest,
} from './decide';
import type { BookedSeat } from './seats';
import { perDatabase } from '../../db/per-database';
import { executePrepared } from '../../db/prepared';
import { rowsOf } from '../../db/rows';
import { decide } from '../../db/transaction';

/**
 * Group commit for bookings (decision 048), so a class's crowd at opening time does not queue on its
 * row lock one transaction at a time: the booking requests for one class that arrive while a decision
 * for it is running wait for it, then are decided together, in one transaction and under one class
 * row lock, in arrival order; each request gets its own answer. A request never waits
 * for a batch to fill: the first one starts when its turn of the event loop ends, as `perTurn` does.
 *
 * A batch holds at most one request per member and one per card (a second tap, or a family card used
 * by two holders at once, waits for the next batch), so each request's checks read the member and the
 * card as no other request in its batch changes them. The rules and their order are `bookClass`'s.
 */

/**
 * The largest batch: bounds one transaction's locks and one statement's size. A batch costs seven
 * round trips whatever its size, and the class's batches run one after another, so a 9:00 crowd of
 * 200 is decided in two batches rather than four.
 */
const MAX_BATCH = 256;

interface Pending {
  member: Member;
  cardId: number;
  resolve(result: BookResult): void;
  reject(err: unknown): void;
}

type Outcome = { ok: BookResult } | { err: unknown };

interface Line {
  waiting: Pending[];
  running: boolean;
}

/** The requests waiting per class, per database (each test server has its own). */
const linesOf = perDatabase((): Map<number, Line> => new Map());

/** Books a seat, or joins the queue of a full class, decided with the requests for the class that arrived with it. */
export function bookClassTogether(db: Db, clock: Clock, member: Member, input: { classId: number; cardId: number }): Promise<BookResult> {
  return new Promise<BookResult>((resolve, reject) => {
    const byClass = linesOf(db);
    let line = byClass.get(input.classId);
    if (!line) byClass.set(input.classId, (line = { waiting: [], running: false }));
    line.waiting.push({ member, cardId: input.cardId, resolve, reject });
    if (!line.running) {
      // the first request's batch starts when this turn of the event loop ends, with the requests
      // for the class that reached here in the same turn (a crowd's arrive together, after their
      // shared session and key statements): one batch where starting at once made one of one
      line.running = true;
      const at = line;
      setImmediate(() => void drain(db, clock, input.classId, at, byClass));
    }
  });
}

/** Decides the waiting requests batch after batch until none is left. */
async function drain(db: Db, clock: Clock, classId: number, line: Line, byClass: Map<number, Line>): Promise<void> {
  line.running = true;
  try {
    while (line.waiting.length > 0) {
      const batch = takeBatch(line);
      let outcomes: Outcome[];
      try {
        outcomes = await decideBatch(db, clock, classId, batch);
      } catch (err) {
        outcomes = batch.map(() => ({ err }));
      }
      batch.forEach((p, i) => {
        const o = outcomes[i]!;
        if ('ok' in o) p.resolve(o.ok);
        else p.reject(o.err);
      });
    }
  } finally {
    line.running = false;
    if (line.waiting.length === 0) byClass.delete(classId);
  }
}

/** The next batch, in arrival order: one request per member and per card; the others keep their place. */
function takeBatch(line: Line): Pending[] {
  const batch: Pending[] = [];
  const rest: Pending[] = [];
  const members = new Set<number>();
  const cards = new Set<number>();
  for (const p of line.waiting) {
    if (batch.length < MAX_BATCH && !members.has(p.member.accountId) && !cards.has(p.cardId)) {
      batch.push(p);
      members.add(p.member.accountId);
      cards.add(p.cardId);
    } else rest.push(p);
  }
  line.waiting = rest;
  return batch;
}

const intArray = (ids: readonly number[]) => sql`${`{${ids.map((n) => Math.trunc(n)).join(',')}}`}::int[]`;

/** Each member's side, read after their locks: already in this class, upcoming count, booked seats near it. */
async function membersFacts(tx: Tx, accountIds: readonly number[], cls: ClassRow, now: Date) {
  const from = new Date(cls.startsAt.getTime() - LONGEST_CLASS_MS).toISOString();
  const to = classEnd(cls).toISOString();
  const r = await executePrepared(
    tx,
    sql`select a.id as account_id,
    exists (select 1 from bookings where class_id = ${cls.id} and account_id = a.id and state in ('booked', 'queued')) as live,
    (select count(*)::int from bookings b join classes k on k.id = b.class_id
       where b.account_id = a.id and b.state in ('booked', 'queued') and k.starts_at > ${now.toISOString()}::timestamptz) as upcoming,
    (select coalesce(json_agg(json_build_object('bookingId', b.id, 'classId', k.id, 'title', k.title, 'titleEn', k.title_en, 'startsAt', k.starts_at, 'durationMin', k.duration_min)), '[]'::json)
       from bookings b join classes k on k.id = b.class_id
       where b.account_id = a.id and b.state = 'booked' and k.starts_at < ${to}::timestamptz and k.starts_at > ${from}::timestamptz) as seats
    from unnest(${intArray(accountIds)}) as a(id)`,
  );
  const out = new Map<number, { live: boolean; upcoming: number; seats: BookedSeat[] }>();
  for (const row of rowsOf<{ account_id: number; live: boolean; upcoming: number; seats: unknown }>(r)) {
    out.set(Number(row.account_id), { live: !!row.live, upcoming: Number(row.upcoming), seats: seatsFromJson(row.seats) });
  }
  return out;
}

/** The live family sub-card holders of these cards, as "card:account" (a holder books with a card another member owns). */
async function familyHolders(tx: Tx, cardIds: readonly number[]): Promise<Set<string>> {
  if (cardIds.length === 0) return new Set();
  const rows = await tx
    .select({ cardId: cardFamilyMembers.cardId, accountId: cardFamilyMembers.accountId })
    .from(cardFamilyMembers)
    .where(and(sql`${cardFamilyMembers.cardId} = any(${intArray(cardIds)})`, isNull(cardFamilyMembers.removedAt)))
    .prepare('family_holders')
    .execute();
  return new Set(rows.map((r) => `${r.cardId}:${r.accountId}`));
}

/**
 * One batch in one transaction: the class read and the members locked (by id), the cards locked (by
 * id), the members' facts read, every request checked, then one `book_seats` call takes the class
 * row lock and gives seats and queue places in arrival order. Lock order as `bookClass`: members,
 * cards, class.
 */
async function decideBatch(db: Db, clock: Clock, classId: number, batch: readonly Pending[]): Promise<Outcome[]> {
  return decide(db, async (tx) => {
    const now = clock.now();
    const accountIds = [...new Set(batch.map((p) => p.member.accountId))].sort((a, b) => a - b);
    // the class read (no lock: book_seats re-checks it under its lock) and the members locked, by
    // id, sent together: one round trip, the class row once rather than once per member
    const [[cls]] = await Promise.all([
      tx.select().from(classes).where(eq(classes.id, classId)).prepare('class_read').execute(),
      tx
        .select({ id: accounts.id })
        .from(accounts)
        .where(sql`${accounts.id} = any(${intArray(accountIds)})`)
        .orderBy(asc(accounts.id))
        .for('no key update')
        .prepare('members_locked')
        .execute(),
    ]);
    if (!cls) return batch.map(() => ({ err: new ApiError(Errors.notFound, { field: 'classId' }) }));
    const classWhy = classRefusal(cls, now);
    if (classWhy) return batch.map(() => ({ err: new ApiError(Errors[classWhy]) }));

    const cardIds = [...new Set(batch.map((p) => p.cardId))].sort((a, b) => a - b);
    // sent together, one round trip: they leave in this order (each is sent a microtask after its
    // call) and PostgreSQL runs them in turn on the transaction's connection, so the family read still
    // follows the cards' lock (a holder's removal takes it: cards/family.ts); a failure of the first
    // fails the rest, and the transaction with them
    const [cardRows, family, facts, pending] = await Promise.all([
      tx
        .select()
        .from(memberCards)
        .where(sql`${memberCards.id} = any(${intArray(cardIds)})`)
        .orderBy(asc(memberCards.id))
        .for('update')
        .prepare('cards_locked')
        .execute(),
      familyHolders(tx, cardIds),
      membersFacts(tx, accountIds, cls, now),
      pendingApplications(tx, cardIds),
    ]);
    const cards = new Map<number, CardRow>(cardRows.map((c) => [c.id, c]));

    const outcomes: (Outcome | undefined)[] = batch.map(() => undefined);
    const accepted: (SeatRequest & { at: number })[] = [];
    batch.forEach((p, at) => {
      try {
        const card = cards.get(p.cardId);
        if (!card || (card.accountId !== p.member.accountId && !family.has(`${card.id}:${p.member.accountId}`)))
          throw new ApiError(Errors.notFound, { field: 'cardId' });
        const mine = facts.get(p.member.accountId)!;
        // a second tap says "already booked", not what the first tap did to the card
        if (mine.live) refuse('alreadyBooked');
        const cardWhy = cardRefusal({ ...card, applicationPending: pending.has(card.id) }, cls, p.member, now);
        if (cardWhy) refuse(cardWhy);
        const clash = clashOf(cls, mine.seats);
        if (clash) throw clashRefusal(clash);
        if (mine.upcoming >= MAX_UPCOMING_PER_MEMBER) refuse('bookingLimit');
        accepted.push({ at, card, accountId: p.member.accountId, ...spendingOf(card, cls, now) });
      } catch (err) {
        outcomes[at] = { err };
      }
    });
    if (accepted.length === 0) return outcomes as Outcome[];

    const answers = await takeSeats(tx, cls, now, accepted);
    accepted.forEach((a, i) => {
      const answer = answers[i]!;
      outcomes[a.at] = answer === 'queue full' ? { err: new ApiError(Errors.bookingLimit) } : { ok: answer };
    });
    return outcomes as Outcome[];
  });
}
