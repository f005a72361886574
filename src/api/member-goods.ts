import type { BookingRowState } from '../domain/booking-rules';
import type { GoodsKind } from '../domain/catalog';
import type { Paged } from '../domain/envelope';
import type { OrderState, PayMethod } from '../domain/orders';
import type { MemberCard } from './booking';
import type { ApiClient } from './client';

/**
 * One line of a card's history, newest first: bought (what it cost), activated, or a class booked
 * with it (the booking's state and the uses it spent; a cancelled booking gave its uses back).
 */
export type CardHistoryItem =
  | { kind: 'bought'; at: string; orderNo: string; paidCents: number }
  | { kind: 'activated'; at: string }
  | { kind: 'class'; at: string; bookingId: number; state: BookingRowState; usesSpent: number; classTitle: string; clubName: string; classStartsAt: string };

/** One of my cards with its studio's name (spec §3 card: name, number, studio, status, ...). */
export interface MemberCardDetail extends MemberCard {
  /** null: the card is good at every club */
  clubName: string | null;
  goodsId: number | null;
  /** uses spent so far; null for a time-based card */
  usesUsed: number | null;
  /** what the card chart allows now */
  operations: ('activate' | 'freeze' | 'unfreeze' | 'transfer' | 'extend' | 'refund')[];
}

/** A course I bought (my goods): what it is and the uses it has left. */
export interface MemberCourse {
  id: number;
  goodsId: number;
  kind: GoodsKind;
  name: string;
  image: string;
  usesTotal: number | null;
  usesLeft: number | null;
  phaseId: number | null;
  phaseName: string | null;
  teacherId: number | null;
  teacherName: string | null;
  clubId: number | null;
  clubName: string | null;
  startsAt: string | null;
  endsAt: string | null;
  validUntil: string | null;
  /** active, all uses spent, or past its validity */
  status: 'active' | 'used_up' | 'expired';
  orderNo: string;
  boughtAt: string;
}

/** One of my paid orders: what was bought and what it cost (spec §3 order fields). */
export interface Purchase {
  orderNo: string;
  goodsId: number;
  goodsName: string;
  goodsKind: GoodsKind;
  image: string;
  phaseName: string | null;
  teacherName: string | null;
  state: OrderState;
  payMethod: PayMethod | null;
  priceCents: number;
  couponDeductionCents: number;
  balanceUsedCents: number;
  amountToPayCents: number;
  paidAt: string | null;
}

/** What members own besides bookings: a card with its history, my courses, my purchases. */
export function memberGoodsCalls(http: ApiClient) {
  return {
    card: (id: number) => http.get<MemberCardDetail>('/customers/cards/detail', { query: { id } }),
    cardHistory: (q: { id: number; pagenum: number; pagesize: number }) => http.get<Paged<CardHistoryItem>>('/customers/cards/history', { query: q }),
    courses: (q: { pagenum: number; pagesize: number }) => http.get<Paged<MemberCourse>>('/customers/courses', { query: q }),
    purchases: (q: { pagenum: number; pagesize: number }) => http.get<Paged<Purchase>>('/customers/purchases', { query: q }),
    /** activates one of my inactive cards (the card chart decides; 30001 otherwise) */
    activateCard: (id: number, idempotencyKey: string) => http.post<MemberCardDetail>('/customers/cards/activate', { body: { id }, idempotencyKey }),
  };
}
