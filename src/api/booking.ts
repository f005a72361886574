import type { BookingRowState, CancelReason, CardStatus } from '../domain/booking-rules';
import type { CardType, ClassTypeKey, Difficulty, Effect, TimeOfDay } from '../domain/catalog';
import type { Paged } from '../domain/envelope';
import type { PhotoStatus } from '../domain/photo-review';
import type { ApiClient } from './client';

/** The course filter of spec §3 (catgory is the spec's spelling), plus the day and the class type. */
export interface ScheduleQuery {
  /** Shanghai calendar day, "2026-11-21"; today by default */
  date?: string;
  clubId?: number;
  courseTimelong?: number;
  level?: Difficulty;
  courseAt?: TimeOfDay;
  catgory?: string;
  ability?: Effect;
  type?: ClassTypeKey;
  keywords?: string;
}

/** A class as the server answers it (src/server/routes/booking-schemas.ts ClassItem). */
export interface ClassItem {
  id: number;
  title: string;
  clubId: number;
  clubName: string;
  room: string;
  teacherId: number | null;
  teacherName: string | null;
  teacherPhoto: string | null;
  classType: ClassTypeKey;
  style: string;
  effect: string;
  difficulty: Difficulty;
  timeOfDay: TimeOfDay;
  startsAt: string;
  endsAt: string;
  durationMin: number;
  capacity: number;
  bookedCount: number;
  queueCount: number;
  usesCost: number;
}

/** Spec §4 booking state of a class for the caller (a visitor sees bookable / queueable / full / expired). */
/** Spec §4 states of a class for the caller, and not-open: beyond their booking window (decision 014). */
export type ClassState = 'bookable' | 'queueable' | 'full' | 'expired' | 'not-open' | 'booked' | 'queued' | 'checked-in' | 'not-checked-in';

export interface ScheduleItem extends ClassItem {
  state: ClassState;
  /** not-open: the first Shanghai date the caller may book it */
  opensOn: string | null;
  bookingId: number | null;
  queuePosition: number | null;
  promoted: boolean;
  canCancel: boolean;
  canCancelQueue: boolean;
}

/** The caller's booking window (level and cards): today, days ahead, the last open day. */
export interface BookingWindow {
  today: string;
  days: number;
  openUntil: string;
}

export interface ClassDetail extends ScheduleItem {
  clubAddress: string;
  classStatus: string;
}

export interface MemberCard {
  id: number;
  name: string;
  number: string;
  cardType: CardType;
  clubId: number | null;
  status: CardStatus;
  usesTotal: number | null;
  usesLeft: number | null;
  validFrom: string | null;
  validUntil: string | null;
  validityDays: number | null;
  extensionCount: number;
  weekendOnly: boolean;
  offPeakSlots: string[];
  bookingWindowDays: number | null;
  experience: boolean;
}

export type CardReminder = 'will-activate' | 'first-use' | 'few-uses-left' | 'short-validity';

/** One of my cards for one class: usable, or the booking code refusing it; the confirm step's reminders. */
export interface CardForClass extends MemberCard {
  usable: boolean;
  code: number | null;
  message: string | null;
  reminders: CardReminder[];
}

export interface BookRequest {
  classId: number;
  cardId: number;
  agreeNotice: true;
}

export interface BookAnswer {
  bookingId: number;
  state: 'booked' | 'queued';
  position?: number;
  activated?: boolean;
  usesLeft?: number | null;
  bookedNum: number;
}

export interface CancelAnswer {
  bookingId: number;
  state: BookingRowState;
  usesReturned?: number;
  bookedNum: number;
}

export interface MyBooking {
  bookingId: number;
  state: BookingRowState;
  promoted: boolean;
  queuePosition: number | null;
  cardId: number;
  cancelledAt: string | null;
  cancelReason: CancelReason | null;
  canCancel: boolean;
  canCancelQueue: boolean;
  class: ClassItem;
}

/** My front photo's review state (decision 007). */
export interface PhotoView {
  status: PhotoStatus;
  photoId: number | null;
  reason: string | null;
  uploadedAt: string | null;
  reviewedAt: string | null;
  canUpload: boolean;
}

/** A seat checked in (decision 007). */
export interface CheckinAnswer {
  bookingId: number;
  classId: number;
  state: 'checked_in';
  checkedInAt: string;
  usesSpent: number;
}

/** Booking calls (issue 3): schedule, class, cards for a class, book, cancel, leave a queue, my bookings. */
export function bookingCalls(http: ApiClient) {
  return {
    schedule: (q: ScheduleQuery) => http.get<ScheduleItem[]>('/customers/classes/schedule', { query: { ...q } }),
    /** null for a visitor: the window is the member's */
    window: () => http.get<BookingWindow | null>('/customers/classes/window'),
    detail: (id: number) => http.get<ClassDetail>('/customers/classes/detail', { query: { id } }),
    cardsForClass: (classId: number) => http.get<CardForClass[]>('/customers/classes/cards', { query: { classId } }),
    /** one idempotency key per intent: a retry sends the same key and books once */
    book: (body: BookRequest, idempotencyKey: string) => http.post<BookAnswer>('/customers/classes/book', { body, idempotencyKey }),
    cancel: (bookingId: number, idempotencyKey: string) => http.post<CancelAnswer>('/customers/classes/cancel', { body: { bookingId }, idempotencyKey }),
    cancelQueue: (bookingId: number, idempotencyKey: string) =>
      http.post<CancelAnswer>('/customers/classes/queue/cancel', { body: { bookingId }, idempotencyKey }),
    mine: (q: { scope: 'upcoming' | 'past'; pagenum?: number; pagesize?: number; month?: string }) => http.get<Paged<MyBooking>>('/customers/classes/mine', { query: q }),
    cards: () => http.get<MemberCard[]>('/customers/cards'),
    /** my front photo for face check-in: none, under review, rejected (reason), passed */
    photo: () => http.get<PhotoView>('/customers/photo'),
    /** check in to a class I booked with the code its QR carried; one key per tap */
    checkIn: (body: { classId: number; code: string }, idempotencyKey: string) => http.post<CheckinAnswer>('/customers/classes/checkin', { body, idempotencyKey }),
    /** base64 JPEG/PNG/WebP, at most PHOTO_MAX_BYTES decoded */
    uploadPhoto: (image: string) => http.post<PhotoView>('/customers/photo', { body: { image } }),
  };
}

/** The .ics file of one booking: a plain link (the server reads the token cookie as well as the header). */
export function icsPath(bookingId: number): string {
  return `/api/customers/classes/ics?bookingId=${bookingId}`;
}
