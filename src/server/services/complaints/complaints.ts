import { and, asc, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import {
  AWAITING_REPLY_STATES,
  COMPLAINT_INITIAL,
  nextComplaintState,
  type ComplaintState,
} from '../../../../machines/domain/complaint-transitions';
import type { ComplaintEvent } from '../../../../machines/domain/complaint.machine';
import type { Clock } from '../../../domain/clock';
import { COMPLAINT_MAX_PHOTOS, COMPLAINT_OVERDUE_MS, complaintContentEmpty } from '../../../domain/complaint';
import { Errors } from '../../../domain/errors';
import { PHOTO_MAX_BYTES, sniffImageType } from '../../../domain/photo-review';
import type { MyComplaint, StaffComplaint } from '../../../contracts/complaints';
import type { Db, Tx } from '../../db/client';
import { accounts, clubs, complaintImages, complaints, notifications } from '../../db/schema/index';
import type { Locale } from '../../i18n';
import { staffClubsOf } from '../staff/staff-clubs';
import { ApiError } from '../../http/api-error';
import { imageTooLarge } from '../../http/image-too-large';
import { enqueueJob } from '../../jobs/queue';
import { loc } from '../catalog';
import { complaintRepliedNotice } from './notices';
import type { Audit } from '../staff-audit/audit-log';

/** The job that flags a complaint still unanswered 48 hours after it was filed (decision 033). */
export const COMPLAINT_OVERDUE_JOB = 'complaint.overdue';

type ComplaintRow = typeof complaints.$inferSelect;

/** One photo for a complaint: JPEG, PNG or WebP, at most PHOTO_MAX_BYTES (70009, 70047); its id goes in the complaint. */
export async function uploadComplaintImage(db: Db, clock: Clock, accountId: number, bytes: Buffer): Promise<{ imageId: number }> {
  if (bytes.length > PHOTO_MAX_BYTES) throw imageTooLarge('image');
  const type = sniffImageType(bytes);
  if (!type) throw new ApiError(Errors.photoType, { field: 'image' });
  const [row] = await db
    .insert(complaintImages)
    .values({ accountId, contentType: type, bytes, size: bytes.length, createdAt: clock.now() })
    .returning({ id: complaintImages.id });
  return { imageId: row!.id };
}

export interface ComplaintInput {
  content: string;
  clubId?: number | null;
  imageIds: number[];
}

/**
 * Files a complaint (spec §5 content not empty): the content trimmed (70140 when nothing is left), the
 * club one of the chain's (70003 naming `clubId`), at most COMPLAINT_MAX_PHOTOS photos (70142), each
 * uploaded by me and not filed with another complaint (70143; locked, so two complaints never share
 * one). The 48-hour flag is scheduled in the same transaction.
 */
export async function fileComplaint(db: Db, clock: Clock, accountId: number, input: ComplaintInput): Promise<ComplaintRow> {
  const content = input.content.trim();
  if (complaintContentEmpty(content)) throw new ApiError(Errors.complaintContentEmpty, { field: 'content' });
  const imageIds = [...new Set(input.imageIds)];
  if (imageIds.length > COMPLAINT_MAX_PHOTOS) throw new ApiError(Errors.complaintTooManyPhotos, { field: 'imageIds' });
  return db.transaction(async (tx) => {
    const now = clock.now();
    if (input.clubId != null) {
      const [club] = await tx.select({ id: clubs.id }).from(clubs).where(eq(clubs.id, input.clubId));
      if (!club) throw new ApiError(Errors.invalidField, { field: 'clubId', values: { field: 'clubId' } });
    }
    if (imageIds.length > 0) {
      const usable = await tx
        .select({ id: complaintImages.id })
        .from(complaintImages)
        .where(and(inArray(complaintImages.id, imageIds), eq(complaintImages.accountId, accountId), isNull(complaintImages.complaintId)))
        .for('update');
      if (usable.length !== imageIds.length) throw new ApiError(Errors.complaintPhotoUnusable, { field: 'imageIds' });
    }
    const [row] = await tx
      .insert(complaints)
      .values({ accountId, clubId: input.clubId ?? null, content, state: COMPLAINT_INITIAL, createdAt: now })
      .returning();
    if (imageIds.length > 0) await tx.update(complaintImages).set({ complaintId: row!.id }).where(inArray(complaintImages.id, imageIds));
    await enqueueJob(tx, { kind: COMPLAINT_OVERDUE_JOB, payload: { id: row!.id }, runAt: new Date(now.getTime() + COMPLAINT_OVERDUE_MS) });
    return row!;
  });
}

/** The stored state's answer to spec §3 "satisfied or not": null until the member rated the reply. */
const satisfiedOf = (state: ComplaintState): boolean | null => (state === 'satisfied' ? true : state === 'unsatisfied' ? false : null);

interface Joined {
  c: ComplaintRow;
  clubName: string | null;
  clubNameEn: string | null;
  memberPhone: string;
}

const select = (db: Db | Tx) =>
  db
    .select({ c: complaints, clubName: clubs.name, clubNameEn: clubs.nameEn, memberPhone: accounts.phone })
    .from(complaints)
    .leftJoin(clubs, eq(clubs.id, complaints.clubId))
    .innerJoin(accounts, eq(accounts.id, complaints.accountId));

async function imagesOf(db: Db | Tx, ids: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ id: complaintImages.id, complaintId: complaintImages.complaintId })
    .from(complaintImages)
    .where(inArray(complaintImages.complaintId, ids))
    .orderBy(asc(complaintImages.id));
  for (const r of rows) out.set(r.complaintId!, [...(out.get(r.complaintId!) ?? []), r.id]);
  return out;
}

function memberView(j: Joined, images: number[], locale: Locale): MyComplaint {
  const { c } = j;
  return {
    id: c.id,
    state: c.state,
    content: c.content,
    clubId: c.clubId,
    clubName: j.clubName === null ? null : loc(locale, j.clubName, j.clubNameEn),
    imageIds: images,
    replied: c.reply !== null,
    reply: c.reply,
    repliedAt: c.repliedAt?.toISOString() ?? null,
    satisfied: satisfiedOf(c.state),
    canRate: nextComplaintState(c.state, 'complaint.satisfied') !== null,
    createdAt: c.createdAt.toISOString(),
  };
}

const staffView = (j: Joined, images: number[], locale: Locale): StaffComplaint => ({
  ...memberView(j, images, locale),
  memberPhone: j.memberPhone,
  overdue: j.c.overdueAt !== null,
  repliedBy: j.c.repliedBy,
});

/** My complaints, newest first, each with whether it was replied to and whether I was satisfied. */
export async function myComplaints(db: Db, accountId: number, locale: Locale): Promise<MyComplaint[]> {
  const rows = await select(db).where(eq(complaints.accountId, accountId)).orderBy(desc(complaints.id)).limit(100);
  const images = await imagesOf(
    db,
    rows.map((r) => r.c.id),
  );
  return rows.map((r) => memberView(r, images.get(r.c.id) ?? [], locale));
}

/** One of my complaints; another member's is 404 (not found), never 403. */
export async function myComplaint(db: Db, accountId: number, id: number, locale: Locale): Promise<MyComplaint> {
  const [row] = await select(db).where(and(eq(complaints.id, id), eq(complaints.accountId, accountId)));
  if (!row) throw new ApiError(Errors.notFound, { field: 'id' });
  return memberView(row, (await imagesOf(db, [id])).get(id) ?? [], locale);
}

/** The complaint locked for a change, and where the chart moves it on `event` (70141 when it refuses). */
async function lockComplaint(
  tx: Tx,
  id: number,
  event: ComplaintEvent['type'],
  mine: (c: ComplaintRow) => Promise<boolean> | boolean,
): Promise<{ c: ComplaintRow; state: ComplaintState }> {
  const [c] = await tx.select().from(complaints).where(eq(complaints.id, id)).for('update');
  if (!c || !(await mine(c))) throw new ApiError(Errors.notFound, { field: 'id' });
  const state = nextComplaintState(c.state, event);
  if (!state) throw new ApiError(Errors.complaintNotInState);
  return { c, state };
}

/** The member says whether the reply satisfied them (only once replied, only once). */
export async function rateComplaint(db: Db, clock: Clock, accountId: number, id: number, satisfied: boolean): Promise<ComplaintRow> {
  return db.transaction(async (tx) => {
    const { state } = await lockComplaint(
      tx,
      id,
      satisfied ? 'complaint.satisfied' : 'complaint.unsatisfied',
      (c) => c.accountId === accountId,
    );
    const [row] = await tx.update(complaints).set({ state, ratedAt: clock.now() }).where(eq(complaints.id, id)).returning();
    return row!;
  });
}

/** A staff member's complaints: their clubs' and those naming no club (every one for chain-wide staff). */
const inScope = (scope: number[] | null) => (scope === null ? undefined : or(isNull(complaints.clubId), inArray(complaints.clubId, scope)));

/**
 * A staff member's queue: the complaints of their clubs waiting for a reply, those unanswered for 48
 * hours (flagged) first, then oldest first.
 */
export async function complaintsForStaff(db: Db, staffId: number, locale: Locale): Promise<StaffComplaint[]> {
  const scope = await staffClubsOf(db, staffId);
  const rows = await select(db)
    .where(and(inArray(complaints.state, AWAITING_REPLY_STATES), inScope(scope)))
    .orderBy(sql`${complaints.overdueAt} is null`, asc(complaints.id))
    .limit(100);
  const images = await imagesOf(
    db,
    rows.map((r) => r.c.id),
  );
  return rows.map((r) => staffView(r, images.get(r.c.id) ?? [], locale));
}

/** One complaint a staff member may see (404 outside their clubs). */
export async function staffComplaint(db: Db, staffId: number, id: number, locale: Locale): Promise<StaffComplaint> {
  const [row] = await select(db).where(and(eq(complaints.id, id), inScope(await staffClubsOf(db, staffId))));
  if (!row) throw new ApiError(Errors.notFound, { field: 'id' });
  return staffView(row, (await imagesOf(db, [id])).get(id) ?? [], locale);
}

/** Staff reply to a complaint of their clubs (70144 empty; 70141 already replied); who and when kept; the member is notified. */
export async function replyComplaint(
  db: Db,
  clock: Clock,
  staffId: number,
  id: number,
  reply: string,
  audit?: Audit,
): Promise<ComplaintRow> {
  const text = reply.trim();
  if (text.length === 0) throw new ApiError(Errors.complaintReplyEmpty, { field: 'reply' });
  return db.transaction(async (tx) => {
    const now = clock.now();
    const scope = await staffClubsOf(tx, staffId);
    const { c, state } = await lockComplaint(
      tx,
      id,
      'complaint.reply',
      (c) => scope === null || c.clubId === null || scope.includes(c.clubId),
    );
    const [row] = await tx
      .update(complaints)
      .set({ state, reply: text, repliedBy: staffId, repliedAt: now })
      .where(eq(complaints.id, id))
      .returning();
    await tx.insert(notifications).values({ accountId: c.accountId, createdAt: now, ...complaintRepliedNotice(text) });
    await audit?.(tx, { action: 'complaint.reply', subjectKind: 'complaint', subjectId: id });
    return row!;
  });
}

/** The 48-hour job: a complaint still waiting for its first reply is flagged to staff (the chart's `complaint.overdue`). */
export async function flagOverdueComplaint(db: Db, clock: Clock, payload: unknown): Promise<void> {
  const id = (payload as { id?: unknown } | null)?.id;
  if (typeof id !== 'number') return;
  await db.transaction(async (tx) => {
    const [c] = await tx.select().from(complaints).where(eq(complaints.id, id)).for('update');
    const state = c && nextComplaintState(c.state, 'complaint.overdue');
    if (!c || !state || c.createdAt.getTime() + COMPLAINT_OVERDUE_MS > clock.now().getTime()) return;
    await tx.update(complaints).set({ state, overdueAt: clock.now() }).where(eq(complaints.id, id));
  });
}

/** The bytes of a complaint photo: mine, or (staff) one of a complaint they may see. */
export async function complaintImageBytes(db: Db, imageId: number, who: { accountId: number } | { staffId: number }) {
  const [img] = await db.select().from(complaintImages).where(eq(complaintImages.id, imageId));
  if (!img) return null;
  if ('accountId' in who) return img.accountId === who.accountId ? img : null;
  if (img.complaintId === null) return null;
  const scope = await staffClubsOf(db, who.staffId);
  const [c] = await db
    .select({ id: complaints.id })
    .from(complaints)
    .where(and(eq(complaints.id, img.complaintId), inScope(scope)));
  return c ? img : null;
}
