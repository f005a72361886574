import type { PageQuery } from '../contracts/common';
import type {
  CardAdviser,
  CardAdviserBody,
  CardDetail,
  CardFamily,
  CardGift,
  CardExtendBody,
  CardFreezeBody,
  CardHistoryItem,
  CardHistoryQuery,
  MemberCourse,
  Purchase,
} from '../contracts/cards';
import type { Paged } from '../domain/envelope';
import type { ApiClient } from './client';

// The answers are the server's own schemas, inferred (src/contracts/cards.ts): they cannot drift.
export type { CardAdviser, CardAdviserBody, CardFamily, CardGift, CardExtendBody, CardFreezeBody, CardHistoryItem, MemberCourse, Purchase };
/** One of my cards with its studio's name, its uses spent and what the card chart allows now. */
export type MemberCardDetail = CardDetail;

/** What members own besides bookings: a card with its history, my courses, my purchases. */
export function cardCalls(http: ApiClient) {
  return {
    card: (id: number) => http.get<MemberCardDetail>('/customers/cards/detail', { query: { id } }),
    cardHistory: (q: CardHistoryQuery) => http.get<Paged<CardHistoryItem>>('/customers/cards/history', { query: q }),
    courses: (q: PageQuery) => http.get<Paged<MemberCourse>>('/customers/courses', { query: q }),
    purchases: (q: PageQuery) => http.get<Paged<Purchase>>('/customers/purchases', { query: q }),
    /** activates one of my inactive cards (the card chart decides; 30001 otherwise) */
    activateCard: (id: number, idempotencyKey: string) =>
      http.post<MemberCardDetail>('/customers/cards/activate', { body: { id }, idempotencyKey }),
    /** freezes one of my cards from one Shanghai day to another, both frozen (decision 024) */
    freezeCard: (body: CardFreezeBody, idempotencyKey: string) =>
      http.post<MemberCardDetail>('/customers/cards/freeze', { body, idempotencyKey }),
    /** unfreezes one of my cards, or calls off its planned freeze */
    unfreezeCard: (id: number, idempotencyKey: string) =>
      http.post<MemberCardDetail>('/customers/cards/unfreeze', { body: { id }, idempotencyKey }),
    /** extends one of my cards to end on a later Shanghai day */
    extendCard: (body: CardExtendBody, idempotencyKey: string) =>
      http.post<MemberCardDetail>('/customers/cards/extend', { body, idempotencyKey }),
    /** the advisers a member may choose in one club (decision 034) */
    advisers: (clubId: number) => http.get<CardAdviser[]>('/customers/cards/advisers', { query: { clubId } }),
    /** changes one of my cards' adviser: a club, then one of its advisers */
    changeAdviser: (body: CardAdviserBody, idempotencyKey: string) =>
      http.post<MemberCardDetail>('/customers/cards/adviser', { body, idempotencyKey }),
    /** one of my family main cards' sharing: its places and sub-card holders (decision 040) */
    family: (id: number) => http.get<CardFamily>('/customers/cards/family', { query: { id } }),
    /** adds a sub-card holder by phone */
    addFamilySub: (body: { id: number; phone: string }, idempotencyKey: string) =>
      http.post<CardFamily>('/customers/cards/family/add', { body, idempotencyKey }),
    /** removes a sub-card holder */
    removeFamilySub: (body: { id: number; subId: number }, idempotencyKey: string) =>
      http.post<CardFamily>('/customers/cards/family/remove', { body, idempotencyKey }),
    /** gives one of my cards to another member by phone */
    giveCard: (body: { id: number; phone: string }, idempotencyKey: string) =>
      http.post<CardGift>('/customers/cards/gift', { body, idempotencyKey }),
  };
}
