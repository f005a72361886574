import type { MyComplaint, StaffComplaint } from '../contracts/complaints';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/complaints.ts): they cannot drift.
export type { MyComplaint, StaffComplaint };

/** Complaints (decision 033): the member's photos, complaints and answers; the staff queue and replies. */
export function complaintCalls(http: ApiClient) {
  return {
    uploadImage: (image: string) => http.post<{ imageId: number }>('/customers/complaints/image', { body: { image } }),
    file: (body: { content: string; clubId: number | null; imageIds: number[] }, idempotencyKey: string) =>
      http.post<MyComplaint>('/customers/complaints', { body, idempotencyKey }),
    mine: () => http.get<MyComplaint[]>('/customers/complaints'),
    detail: (id: number) => http.get<MyComplaint>('/customers/complaints/detail', { query: { id } }),
    rate: (id: number, satisfied: boolean, idempotencyKey: string) =>
      http.post<MyComplaint>('/customers/complaints/rate', { body: { id, satisfied }, idempotencyKey }),
    staffQueue: () => http.get<StaffComplaint[]>('/staff/complaints'),
    staffReply: (id: number, reply: string, idempotencyKey: string) =>
      http.post<StaffComplaint>('/staff/complaints/reply', { body: { id, reply }, idempotencyKey }),
  };
}
