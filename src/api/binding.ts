import type { LoginEnvelope } from './auth';
import type { AuditEntry, AuditQuery, RevealedIdNumber } from '../contracts/staff-audit';
import type {
  BindCodeIssued,
  BindCodeView,
  BindingRow,
  BindStatus,
  NewTeacherBody,
  StaffTeacherRow,
  TeacherRequestSent,
  TeacherRequestView,
} from '../contracts/binding';
import type { CheckinAnswer } from '../contracts/booking';
import type { StaffCounts } from '../contracts/staff-counts';
import type { StaffMemberBody, StaffMemberForm, StaffMemberRegistered } from '../contracts/staff-members';
import type { MemberPhoto, PhotoReviewBody, PhotoReviewed, PhotoToReview } from '../contracts/photos';
import type { StaffRefund } from '../contracts/refunds';
import type { StaffTransfer } from '../contracts/card-transfers';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/binding.ts): they cannot drift.
export type { StaffCounts };
export type {
  BindCodeIssued,
  BindCodeView,
  BindingRow,
  BindStatus,
  NewTeacherBody,
  StaffTeacherRow,
  TeacherRequestSent,
  TeacherRequestView,
};

/**
 * Binding (decision 028). The open-id ticket of the silent login travels in the `openId` cookie the
 * server set, so the binding calls send only what the person typed.
 */
export function bindingCalls(http: ApiClient) {
  return {
    /** on the server render the cookies are passed as the query (the browser sends them itself) */
    status: (q: { openid?: string; key?: string } = {}) => http.get<BindStatus>('/bind/status', { query: q }),
    /** a teacher's bind code: logged in as the teacher (the login's answer) */
    bindTeacher: (code: string) => http.post('/bind/teacher', { body: { code } }) as Promise<LoginEnvelope>,
    /** a staff account's username and password: logged in as staff */
    bindStaff: (username: string, password: string) => http.post('/bind/staff', { body: { username, password } }) as Promise<LoginEnvelope>,
    newTeacher: (body: Omit<NewTeacherBody, 'openid'>) => http.post<TeacherRequestSent>('/bind/new-teacher', { body }),
    /** the request sent from this browser (its key is an HttpOnly cookie) */
    myRequest: (key?: string) => http.get<TeacherRequestView>('/bind/new-teacher', { query: { key } }),
  };
}

/** The staff console's calls (role staff; others are answered 403). */
export function staffCalls(http: ApiClient) {
  return {
    teachers: () => http.get<StaffTeacherRow[]>('/staff/teachers'),
    /** every queue's size in one answer, for the console's home (decision 097) */
    counts: () => http.get<StaffCounts>('/staff/counts'),
    /** the front desk registers a walk-in member (decision 045) */
    memberForm: () => http.get<StaffMemberForm>('/staff/members/form'),
    /** no Idempotency-Key: the answer holds the initial password, which is never kept for a replay */
    registerMember: (body: StaffMemberBody) => http.post<StaffMemberRegistered>('/staff/members', { body }),
    bindCodes: () => http.get<BindCodeView[]>('/staff/bind-codes'),
    issueBindCode: (teacherId: number, phone?: string) =>
      http.post<BindCodeIssued>('/staff/bind-codes', { body: { teacherId, ...(phone ? { phone } : {}) } }),
    revokeBindCode: (id: number) => http.post<BindCodeView>('/staff/bind-codes/revoke', { body: { id } }),
    teacherRequests: () => http.get<TeacherRequestView[]>('/staff/teacher-requests'),
    confirmRequest: (id: number) => http.post<TeacherRequestView>('/staff/teacher-requests/confirm', { body: { id } }),
    refuseRequest: (id: number, reason: string) =>
      http.post<TeacherRequestView>('/staff/teacher-requests/refuse', { body: { id, reason } }),
    bindings: () => http.get<BindingRow[]>('/staff/bindings'),
    unbind: (accountId: number) => http.post<{ unbound: number }>('/staff/bindings/unbind', { body: { accountId } }),
    /** front desk: check a member's booking in (the booking's number) */
    checkIn: (bookingId: number, idempotencyKey: string) =>
      http.post<CheckinAnswer>('/staff/classes/checkin', { body: { bookingId }, idempotencyKey }),
    photos: () => http.get<PhotoToReview[]>('/staff/photos'),
    reviewPhoto: (id: number, body: PhotoReviewBody) => http.post<PhotoReviewed>(`/staff/photos/${id}/review`, { body }),
    /** a member by phone and their photo, to allow another upload (decision 042) */
    memberPhoto: (phone: string) => http.get<MemberPhoto>('/staff/photos/member', { query: { phone } }),
    allowAnotherPhoto: (id: number) => http.post<PhotoReviewed>(`/staff/photos/${id}/allow-another`),
    /** card transfer applications pending or under review, oldest first (decision 026) */
    transfers: () => http.get<StaffTransfer[]>('/staff/transfers'),
    transferStep: (step: 'take' | 'approve', id: number, idempotencyKey: string) =>
      http.post<StaffTransfer>(`/staff/transfers/${step}`, { body: { id }, idempotencyKey }),
    /** refunds failed at the provider or held (decision 021), newest first */
    refunds: () => http.get<StaffRefund[]>('/staff/refunds/attention'),
    refundStep: (step: 'release' | 'settle', refundId: number, idempotencyKey: string) =>
      http.post<StaffRefund>(`/staff/refunds/${step}`, { body: { refundId }, idempotencyKey }),
    rejectTransfer: (id: number, reason: string, idempotencyKey: string) =>
      http.post<StaffTransfer>('/staff/transfers/reject', { body: { id, reason }, idempotencyKey }),
    /** an application's whole ID number, with the reason (recorded in the audit log, decision 055) */
    revealIdNumber: (id: number, reason: string) =>
      http.post<RevealedIdNumber>('/staff/transfers/reveal-id-number', { body: { id, reason } }),
    /** the newest audit entries, optionally of one staff member or one action (decision 055) */
    audit: (q: AuditQuery) => http.get<AuditEntry[]>('/staff/audit', { query: { staffId: q.staffId, action: q.action } }),
  };
}
