/**
 * Binding a messaging identity to a teacher or staff account (spec §5 binding, §6, §8; decision 028).
 * Bind codes are issued by staff for one teacher, single use, and expire; only their hash is stored.
 * A new teacher's request waits for staff (pending, confirmed, refused): the chart is
 * machines/domain/binding-teacher-request.machine.ts.
 */
export const TEACHER_REQUEST_STATES = ['pending', 'confirmed', 'refused'] as const;
export type TeacherRequestState = (typeof TEACHER_REQUEST_STATES)[number];

/** A bind code lives 72 hours unless staff set otherwise (1 hour to 30 days). */
export const BIND_CODE_TTL_HOURS = 72;
export const BIND_CODE_TTL_HOURS_MIN = 1;
export const BIND_CODE_TTL_HOURS_MAX = 720;

/** Eight characters from an alphabet without look-alikes (0/O, 1/I/L), read aloud or typed on a phone. */
export const BIND_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const BIND_CODE_LENGTH = 8;

/** What a person typed, as the code is stored: upper case, spaces and dashes dropped. */
export function normalizeBindCode(raw: string | undefined | null): string {
  return (raw ?? '').toUpperCase().replace(/[\s-]/g, '');
}

/** Whether a typed code can be a bind code at all (else it is invalid without a lookup). */
export function isBindCodeShape(code: string): boolean {
  return code.length === BIND_CODE_LENGTH && [...code].every((c) => BIND_CODE_ALPHABET.includes(c));
}

/** A bind code as staff see it in their list: live until used, revoked or past its expiry. */
export type BindCodeStatus = 'live' | 'used' | 'revoked' | 'expired';

/** The status of a bind code at `now`: used and revoked are final; a live code expires by time. */
export function bindCodeStatus(c: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date }, now: Date): BindCodeStatus {
  if (c.usedAt) return 'used';
  if (c.revokedAt) return 'revoked';
  return c.expiresAt.getTime() <= now.getTime() ? 'expired' : 'live';
}

/** Name on a new teacher's request: 1 to 20 characters (spec §9 real name max 20). */
export const TEACHER_NAME_MAX = 20;

/** A new teacher's form, as the app holds it and the server checks it. */
export interface NewTeacherForm {
  name: string;
  phone: string;
  smsCode: string;
  clubId: number | null;
  styles: readonly string[];
  photo: string;
}

/** The form's fields in the order they are asked for; the first empty one is named by "fill form" (60010). */
export const NEW_TEACHER_FIELDS = ['name', 'phone', 'smsCode', 'clubId', 'styles', 'photo'] as const;
export type NewTeacherField = (typeof NEW_TEACHER_FIELDS)[number];

/** The first field of the form left empty, or undefined when every field is filled. */
export function firstMissingField(f: { [K in NewTeacherField]?: unknown }): NewTeacherField | undefined {
  return NEW_TEACHER_FIELDS.find((k) => {
    const v = f[k];
    if (Array.isArray(v)) return v.length === 0;
    if (typeof v === 'string') return v.trim() === '';
    return v === null || v === undefined || v === 0;
  });
}
