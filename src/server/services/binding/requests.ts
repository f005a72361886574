import { and, asc, eq } from 'drizzle-orm';
import { nextTeacherRequestState, TEACHER_REQUEST_OPEN_STATES } from '../../../../machines/domain/binding-teacher-request-transitions';
import { firstMissingField, TEACHER_NAME_MAX } from '../../../domain/binding';
import type { Clock } from '../../../domain/clock';
import { Errors, type ErrorDef } from '../../../domain/errors';
import { PHOTO_MAX_BYTES, sniffImageType } from '../../../domain/photo-review';
import { isValidPhone, trimInput } from '../../../domain/validation';
import type { Db, Tx } from '../../db/client';
import type { KeyAdapter } from '../../gateways/keys/key-adapter';
import type { Audit } from '../staff-audit/audit-log';
import { openImage, sealImage, teacherRequestPhotoContext } from '../person-privacy/images';
import { accounts, clubs, openIdBindings, styles, teacherRequests, teachers } from '../../db/schema/index';
import { stateIn } from '../../db/state-checks';
import { ApiError } from '../../http/api-error';
import { imageTooLarge } from '../../http/image-too-large';
import { accountByPhone } from '../auth/accounts';
import { spendTicket } from '../auth/openid-tickets';
import { consumeCode } from '../auth/sms-codes';
import { maskPhone } from '../cards/transfer';
import { hashSecret, newSecret } from '../auth-tokens';
import { refuseBoundOpenId, requireOpenId } from './common';
import type { NewTeacherBody, TeacherRequestSent, TeacherRequestView } from '../../../contracts/binding';

type RequestRow = typeof teacherRequests.$inferSelect;

/** The public URL of a confirmed teacher's photo (the bytes stay with the request). */
export const teacherRequestPhotoUrl = (id: number) => `/api/bind/new-teacher/${id}/photo`;

async function viewOf(db: Db | Tx, r: RequestRow, forStaff: boolean): Promise<TeacherRequestView> {
  const [club] = await db.select({ name: clubs.name }).from(clubs).where(eq(clubs.id, r.clubId));
  return {
    id: r.id,
    state: r.state,
    name: r.name,
    phone: forStaff ? r.phone : maskPhone(r.phone),
    clubId: r.clubId,
    clubName: club?.name ?? '',
    styles: r.styles,
    reason: r.state === 'refused' ? r.reason : null,
    createdAt: r.createdAt.toISOString(),
    decidedAt: r.decidedAt?.toISOString() ?? null,
  };
}

const fill = (field: string) => new ApiError(Errors.fillForm, { field, values: { field } });

/**
 * POST /bind/new-teacher: a teacher not yet in the system asks to be added (spec §5). The open id
 * first (60001), then every field filled (60010 naming the first empty one), the phone (10010) and
 * its SMS code (10003, the wrong try counted), a club and styles that exist and a phone that is no
 * one's login yet (60012 bind info wrong), an image (70009/70047). One pending request per open id
 * (60013); an open id already bound is 60006. The ticket is spent; the request keeps the open id,
 * and its sender follows it with the key answered here.
 */
export async function submitTeacherRequest(
  deps: { db: Db; clock: Clock; gateways: { keys: KeyAdapter } },
  input: NewTeacherBody,
): Promise<TeacherRequestSent> {
  const { db, clock } = deps;
  const outcome = await db.transaction(
    async (tx): Promise<{ ok: true; sent: TeacherRequestSent } | { ok: false; error: ErrorDef; field: string }> => {
      const ticket = await requireOpenId(tx, input.openid, clock);
      const name = trimInput(input.name);
      const phone = trimInput(input.phone);
      const smsCode = trimInput(input.smsCode);
      const chosen = [...new Set((input.styles ?? []).map((s) => s.trim()).filter(Boolean))];
      const missing = firstMissingField({ name, phone, smsCode, clubId: input.clubId, styles: chosen, photo: input.photo });
      if (missing) throw fill(missing);
      if (!input.clubId || !input.photo) throw fill('clubId');
      if ([...name].length > TEACHER_NAME_MAX) throw new ApiError(Errors.invalidField, { field: 'name', values: { field: 'name' } });
      if (!isValidPhone(phone)) throw new ApiError(Errors.invalidPhone, { field: 'phone' });
      const bytes = Buffer.from(input.photo, 'base64');
      if (bytes.length > PHOTO_MAX_BYTES) throw imageTooLarge('photo');
      const type = sniffImageType(bytes);
      if (!type) throw new ApiError(Errors.photoType, { field: 'photo' });
      await refuseBoundOpenId(tx, ticket.openId);
      const [pending] = await tx
        .select({ id: teacherRequests.id })
        .from(teacherRequests)
        .where(and(eq(teacherRequests.openId, ticket.openId), stateIn(teacherRequests.state, TEACHER_REQUEST_OPEN_STATES)));
      if (pending) throw new ApiError(Errors.teacherRequestPending);
      if ((await consumeCode(tx, phone, smsCode, clock)) !== 'ok') return { ok: false, error: Errors.wrongCode, field: 'smsCode' };
      const [club] = await tx.select({ id: clubs.id }).from(clubs).where(eq(clubs.id, input.clubId));
      if (!club) return { ok: false, error: Errors.bindInfoWrong, field: 'clubId' };
      const known = await tx.select({ key: styles.key }).from(styles);
      if (!chosen.every((s) => known.some((k) => k.key === s))) return { ok: false, error: Errors.bindInfoWrong, field: 'styles' };
      if (await accountByPhone(tx, phone)) return { ok: false, error: Errors.bindInfoWrong, field: 'phone' };
      const state = nextTeacherRequestState('none', 'request.submit')!;
      const sealed = await sealImage(deps.gateways.keys, bytes, teacherRequestPhotoContext(ticket.openId));
      const key = newSecret();
      const [row] = await tx
        .insert(teacherRequests)
        .values({
          openId: ticket.openId,
          viewHash: hashSecret(key),
          name,
          phone,
          clubId: input.clubId,
          styles: chosen,
          photoType: type,
          photo: sealed.cipher,
          photoWrappedKey: sealed.key.wrappedKey,
          photoKeyId: sealed.key.keyId,
          photoNonce: sealed.key.nonce,
          state,
          createdAt: clock.now(),
        })
        .returning();
      await spendTicket(tx, ticket.id, clock);
      return { ok: true, sent: { key, request: await viewOf(tx, row!, false) } };
    },
  );
  if (!outcome.ok) throw new ApiError(outcome.error, { field: outcome.field });
  return outcome.sent;
}

/** The request its sender follows, by the key sending it answered; null when unknown. */
export async function teacherRequestByKey(db: Db, key: string | undefined): Promise<TeacherRequestView | null> {
  const k = key?.trim();
  if (!k) return null;
  const [row] = await db
    .select()
    .from(teacherRequests)
    .where(eq(teacherRequests.viewHash, hashSecret(k)));
  return row ? viewOf(db, row, false) : null;
}

/** GET /staff/teacher-requests: the requests staff still have to decide, oldest first. */
export async function pendingTeacherRequests(db: Db): Promise<TeacherRequestView[]> {
  const rows = await db
    .select()
    .from(teacherRequests)
    .where(stateIn(teacherRequests.state, TEACHER_REQUEST_OPEN_STATES))
    .orderBy(asc(teacherRequests.id));
  return Promise.all(rows.map((r) => viewOf(db, r, true)));
}

/**
 * The photo of a request, decrypted (decision 055): staff see any; the public sees a confirmed one (it
 * is the teacher's catalogue photo).
 */
export async function teacherRequestPhoto(
  db: Db,
  keys: KeyAdapter,
  id: number,
  confirmedOnly: boolean,
): Promise<{ id: number; contentType: string; bytes: Buffer } | null> {
  const [row] = await db.select().from(teacherRequests).where(eq(teacherRequests.id, id));
  if (!row || (confirmedOnly && row.state !== 'confirmed')) return null;
  const key = { wrappedKey: row.photoWrappedKey, keyId: row.photoKeyId, nonce: row.photoNonce };
  return { id: row.id, contentType: row.photoType, bytes: await openImage(keys, row.photo, key, teacherRequestPhotoContext(row.openId)) };
}

async function decide(
  db: Db,
  id: number,
  event: 'request.confirm' | 'request.refuse',
  apply: (tx: Tx, row: RequestRow) => Promise<Partial<RequestRow>>,
  audit?: Audit,
): Promise<TeacherRequestView> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(teacherRequests).where(eq(teacherRequests.id, id)).for('update');
    if (!row) throw new ApiError(Errors.notFound, { field: 'id' });
    const state = nextTeacherRequestState(row.state, event);
    if (!state) throw new ApiError(Errors.teacherRequestDecided);
    const set = await apply(tx, row);
    const [done] = await tx
      .update(teacherRequests)
      .set({ ...set, state })
      .where(and(eq(teacherRequests.id, id), eq(teacherRequests.state, row.state)))
      .returning();
    await audit?.(tx, {
      action: event === 'request.confirm' ? 'teacher-request.confirm' : 'teacher-request.refuse',
      subjectKind: 'teacher-request',
      subjectId: id,
      reason: done!.reason,
    });
    return viewOf(tx, done!, true);
  });
}

/**
 * POST /staff/teacher-requests/confirm: the teacher is created at the club with the styles and
 * photo, with a teacher login on the phone, and the request's open id bound to it, so the next
 * silent login logs them in as a teacher. A phone that became someone's login, or an open id bound
 * meanwhile, cannot be confirmed (60012, 60006): staff refuse it instead.
 */
export async function confirmTeacherRequest(db: Db, clock: Clock, staffId: number, id: number, audit?: Audit): Promise<TeacherRequestView> {
  return decide(
    db,
    id,
    'request.confirm',
    async (tx, row) => {
      const now = clock.now();
      if (await accountByPhone(tx, row.phone)) throw new ApiError(Errors.bindInfoWrong, { field: 'phone' });
      await refuseBoundOpenId(tx, row.openId);
      const [acc] = await tx
        .insert(accounts)
        .values({ phone: row.phone, role: 'teacher', name: row.name, createdAt: now })
        .returning({ id: accounts.id });
      const [t] = await tx
        .insert(teachers)
        .values({
          name: row.name,
          photo: teacherRequestPhotoUrl(row.id),
          styles: row.styles,
          clubId: row.clubId,
          accountId: acc!.id,
          sort: 1000,
        })
        .returning({ id: teachers.id });
      await tx.insert(openIdBindings).values({ openId: row.openId, accountId: acc!.id, createdAt: now });
      return { teacherId: t!.id, decidedBy: staffId, decidedAt: now };
    },
    audit,
  );
}

/** POST /staff/teacher-requests/refuse: the sender reads the reason ("bind info wrong", spec §8). */
export async function refuseTeacherRequest(
  db: Db,
  clock: Clock,
  staffId: number,
  id: number,
  reason: string,
  audit?: Audit,
): Promise<TeacherRequestView> {
  return decide(db, id, 'request.refuse', async () => ({ reason, decidedBy: staffId, decidedAt: clock.now() }), audit);
}
