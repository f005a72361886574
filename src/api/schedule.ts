import type {
  AssignBody,
  CheckinLink,
  ClassBody,
  ClassCancelled,
  ClassEditBody,
  ClassSaved,
  ConfirmWeekBody,
  DeclineBody,
  StaffClass,
  StaffWeek,
  TeacherClass,
  TeacherHome,
  TeacherWeek,
} from '../contracts/schedule';
import type { ApiClient } from './client';

// The request and answer types are the server's own schemas, inferred (src/contracts/schedule.ts).
export type {
  CheckinLink,
  ClassBody,
  ClassCancelled,
  ClassEditBody,
  ClassSaved,
  StaffClass,
  StaffWeek,
  TeacherClass,
  TeacherHome,
  TeacherWeek,
};
export type ScheduleState = TeacherClass['state'];
/** What an answer to one class did: the class and its new state. */
export interface ScheduleMoved {
  id: number;
  state: string;
}

/** The teacher schedule (decision 029): a teacher's week and answers; staff's week and assignment. */
export function scheduleCalls(http: ApiClient) {
  return {
    /** my classes of the week holding `week` (a Shanghai date); this week without */
    teacherWeek: (week?: string) => http.get<TeacherWeek>('/teacher/schedule', { query: week ? { week } : {} }),
    /** my home (decision 097): today's classes and every class waiting for my answer */
    teacherHome: () => http.get<TeacherHome>('/teacher/schedule/home'),
    /** one key per tap: a retry confirms once */
    confirm: (id: number, idempotencyKey: string) =>
      http.post<ScheduleMoved>(`/teacher/schedule/${id}/confirm`, { body: {}, idempotencyKey }),
    decline: (id: number, body: DeclineBody, idempotencyKey: string) =>
      http.post<ScheduleMoved>(`/teacher/schedule/${id}/decline`, { body, idempotencyKey }),
    confirmWeek: (body: ConfirmWeekBody, idempotencyKey: string) =>
      http.post<{ confirmed: number[] }>('/teacher/schedule/confirm-week', { body, idempotencyKey }),
    /** my current or next class's signed check-in link (valid two minutes) */
    checkinLink: () => http.get<CheckinLink>('/teacher/checkin-link'),
    staffWeek: (week?: string) => http.get<StaffWeek>('/staff/schedule', { query: week ? { week } : {} }),
    /** decision 041: one key per save or cancel tap, reused by its retries */
    createClass: (body: ClassBody, idempotencyKey: string) => http.post<ClassSaved>('/staff/classes', { body, idempotencyKey }),
    editClass: (id: number, body: ClassEditBody, idempotencyKey: string) =>
      http.post<ClassSaved>(`/staff/classes/${id}`, { body, idempotencyKey }),
    cancelClass: (id: number, idempotencyKey: string) =>
      http.post<ClassCancelled>(`/staff/classes/${id}/cancel`, { body: {}, idempotencyKey }),
    assign: (id: number, body: AssignBody, idempotencyKey: string) =>
      http.post<ScheduleMoved & { teacherId: number; confirmBy: string }>(`/staff/schedule/${id}/teacher`, { body, idempotencyKey }),
  };
}
