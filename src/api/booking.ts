import type {
  BookAnswer,
  BookBody,
  BookingWindow,
  CancelAnswer,
  CancelGives,
  CardForClass,
  CheckinAnswer,
  CheckinBody,
  ClassDetail,
  ClassItem,
  MemberCard,
  MineQuery,
  MyBooking,
  ScheduleItem,
  ScheduleQuery,
} from '../contracts/booking';
import type { PhotoUploadBody, PhotoView } from '../contracts/photos';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The request and answer types are the server's own schemas, inferred (src/contracts/booking.ts): they cannot drift.
export type {
  BookAnswer,
  BookingWindow,
  CancelAnswer,
  CancelGives,
  CardForClass,
  CheckinAnswer,
  ClassDetail,
  ClassItem,
  MemberCard,
  MyBooking,
  PhotoView,
  ScheduleItem,
  ScheduleQuery,
};
export type BookRequest = BookBody;

/** Spec §4 states of a class for the caller, and not-open: beyond their booking window (decision 014). */
export type ClassState = ScheduleItem['state'];
/** What the confirm step reminds the member of for one card. */
export type CardReminder = CardForClass['reminders'][number];
/** Which of my bookings: upcoming or past, a page, optionally one Shanghai month (the calendar). */
export type MineRequest = Pick<MineQuery, 'scope'> & Partial<Omit<MineQuery, 'scope'>>;

/** Booking calls: schedule, class, cards for a class, book, cancel, leave a queue, my bookings. */
export function bookingCalls(http: ApiClient) {
  return {
    schedule: (q: ScheduleQuery) => http.get<ScheduleItem[]>('/customers/classes/schedule', { query: { ...q } }),
    /** null for a visitor: the window is the member's */
    window: () => http.get<BookingWindow | null>('/customers/classes/window'),
    detail: (id: number) => http.get<ClassDetail>('/customers/classes/detail', { query: { id } }),
    cardsForClass: (classId: number) => http.get<CardForClass[]>('/customers/classes/cards', { query: { classId } }),
    /** one idempotency key per intent: a retry sends the same key and books once */
    book: (body: BookRequest, idempotencyKey: string) => http.post<BookAnswer>('/customers/classes/book', { body, idempotencyKey }),
    cancel: (bookingId: number, idempotencyKey: string) =>
      http.post<CancelAnswer>('/customers/classes/cancel', { body: { bookingId }, idempotencyKey }),
    cancelQueue: (bookingId: number, idempotencyKey: string) =>
      http.post<CancelAnswer>('/customers/classes/queue/cancel', { body: { bookingId }, idempotencyKey }),
    mine: (q: MineRequest) => http.get<Paged<MyBooking>>('/customers/classes/mine', { query: q }),
    cards: () => http.get<MemberCard[]>('/customers/cards'),
    /** my front photo for face check-in: none, under review, rejected (reason), passed */
    photo: () => http.get<PhotoView>('/customers/photo'),
    /** check in to a class I booked with the code its QR carried; one key per tap */
    checkIn: (body: CheckinBody, idempotencyKey: string) =>
      http.post<CheckinAnswer>('/customers/classes/checkin', { body, idempotencyKey }),
    /** base64 JPEG/PNG/WebP, at most PHOTO_MAX_BYTES decoded */
    uploadPhoto: (image: PhotoUploadBody['image']) => http.post<PhotoView>('/customers/photo', { body: { image } }),
  };
}

/** The .ics file of one booking: a plain link (the server reads the token cookie as well as the header). */
export function icsPath(bookingId: number): string {
  return `/api/customers/classes/ics?bookingId=${bookingId}`;
}
