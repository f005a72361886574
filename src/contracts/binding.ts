import { z } from '@hono/zod-openapi';
import { BIND_CODE_TTL_HOURS_MAX, BIND_CODE_TTL_HOURS_MIN, TEACHER_REQUEST_STATES } from '../domain/binding';
import { CaptchaAnswer, LoginData } from './auth';
import { IdField } from './common';
import { Base64Image } from './photos';

/**
 * Binding a messaging identity to a teacher or staff account (spec §5, §8 binding; decision 028).
 * `openid` is always an open-id ticket from the silent login (decision 003), never a raw open id;
 * without it the server reads the `openId` cookie it set. Missing fields are the service's to refuse
 * with their spec §8 code (60002 code missing, 60010 fill form), so they are optional here.
 */
const Ticket = z.string().max(128).nullish().openapi({ description: 'the open-id ticket of the silent login (else the openId cookie)' });

/** POST /bind/teacher. */
export const TeacherBindBody = z.object({ code: z.string().max(64).nullish(), openid: Ticket }).openapi('TeacherBindRequest');
export type TeacherBindBody = z.infer<typeof TeacherBindBody>;

/** POST /bind/staff: the staff account's username (its phone) and password. */
export const StaffBindBody = z
  .object({
    username: z.string().max(64).nullish(),
    password: z.string().max(128).nullish(),
    openid: Ticket,
    captcha: CaptchaAnswer.nullish().openapi({ description: 'the security check, once a refusal (10020) asked for it' }),
  })
  .openapi('StaffBindRequest');
export type StaffBindBody = z.infer<typeof StaffBindBody>;

/** A binding's answer: logged in with the role bound (the token beside `data`, as a login's). */
export const BindResult = LoginData.openapi('BindResult');

/** POST /bind/new-teacher: the form of a teacher not yet in the system. */
export const NewTeacherBody = z
  .object({
    openid: Ticket,
    name: z.string().max(100).nullish(),
    phone: z.string().max(64).nullish(),
    smsCode: z.string().max(16).nullish(),
    clubId: IdField.nullish(),
    styles: z.array(z.string().max(40)).max(20).nullish(),
    photo: Base64Image.nullish(),
  })
  .openapi('NewTeacherRequest');
export type NewTeacherBody = z.infer<typeof NewTeacherBody>;

/** Where a new teacher's request stands, as its sender and staff see it. */
export const TeacherRequestView = z
  .object({
    id: z.number().int(),
    state: z.enum(TEACHER_REQUEST_STATES),
    name: z.string(),
    phone: z.string().openapi({ description: 'masked for the sender (138****0001), whole for staff' }),
    clubId: z.number().int(),
    clubName: z.string(),
    styles: z.array(z.string()),
    reason: z.string().nullable().openapi({ description: 'why staff refused ("bind info wrong")' }),
    createdAt: z.string(),
    decidedAt: z.string().nullable(),
  })
  .openapi('TeacherRequestView');
export type TeacherRequestView = z.infer<typeof TeacherRequestView>;

/** The answer to sending the form: the request and the key its sender follows it with (also a cookie). */
export const TeacherRequestSent = z.object({ key: z.string(), request: TeacherRequestView }).openapi('TeacherRequestSent');
export type TeacherRequestSent = z.infer<typeof TeacherRequestSent>;

export const TeacherRequestQuery = z.object({ key: z.string().max(64).optional() });

/** GET /bind/status: what this browser has (an open id from the silent login, a binding, a request). */
export const BindStatus = z
  .object({
    openIdPresent: z.boolean().openapi({ description: 'a live open-id ticket (from the silent login) is here' }),
    binding: z
      .object({
        role: z.enum(['teacher', 'staff']),
        name: z.string().nullable(),
        teacherId: z.number().int().nullable(),
        since: z.string(),
      })
      .nullable()
      .openapi({ description: "the logged-in teacher's or staff member's binding" }),
    request: TeacherRequestView.nullable(),
  })
  .openapi('BindStatus');
export type BindStatus = z.infer<typeof BindStatus>;

export const BindStatusQuery = z.object({ openid: z.string().max(128).optional(), key: z.string().max(64).optional() });

/** POST /staff/bind-codes: a code for one teacher; `phone` makes the teacher's login when they have none. */
export const IssueBindCodeBody = z
  .object({
    teacherId: IdField,
    phone: z.string().max(64).nullish(),
    ttlHours: z.number().int().min(BIND_CODE_TTL_HOURS_MIN).max(BIND_CODE_TTL_HOURS_MAX).nullish(),
  })
  .openapi('IssueBindCodeRequest');
export type IssueBindCodeBody = z.infer<typeof IssueBindCodeBody>;

/** A bind code as staff see it: the code itself only in the answer that issued it. */
export const BindCodeView = z
  .object({
    id: z.number().int(),
    teacherId: z.number().int(),
    teacherName: z.string(),
    hint: z.string().openapi({ description: 'the last two characters' }),
    status: z.enum(['live', 'used', 'revoked', 'expired']),
    createdAt: z.string(),
    expiresAt: z.string(),
    usedAt: z.string().nullable(),
  })
  .openapi('BindCodeView');
export type BindCodeView = z.infer<typeof BindCodeView>;

export const BindCodeIssued = BindCodeView.extend({ code: z.string().openapi({ description: 'shown once' }) }).openapi('BindCodeIssued');
export type BindCodeIssued = z.infer<typeof BindCodeIssued>;

export const IdBody = z.object({ id: IdField });

export const RefuseRequestBody = z.object({ id: IdField, reason: z.string().trim().min(1).max(200) }).openapi('RefuseTeacherRequest');

/** A teacher as the bind-code form lists them: whether they have a login and whether it is bound. */
export const StaffTeacherRow = z
  .object({
    id: z.number().int(),
    name: z.string(),
    accountId: z.number().int().nullable(),
    phone: z.string().nullable(),
    bound: z.boolean(),
  })
  .openapi('StaffTeacherRow');
export type StaffTeacherRow = z.infer<typeof StaffTeacherRow>;

/** A bound teacher or staff account, for staff to unbind. */
export const BindingRow = z
  .object({
    accountId: z.number().int(),
    role: z.enum(['teacher', 'staff']),
    name: z.string().nullable(),
    phone: z.string(),
    since: z.string(),
  })
  .openapi('BindingRow');
export type BindingRow = z.infer<typeof BindingRow>;

export const UnbindBody = z.object({ accountId: IdField }).openapi('UnbindRequest');
