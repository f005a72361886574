import { assign, fromPromise, setup } from 'xstate';
import type { MemberByPhone } from '../src/api/card-transfers';
import type { CouponGift, CouponGiftBody } from '../src/api/coupons';
import type { Envelope } from '../src/domain/envelope';
import { isOk } from '../src/domain/envelope';
import { newIntentKey } from '../src/domain/intent-key';
import { isValidPhone } from '../src/domain/validation';

export interface CouponGiftInput {
  couponId: number;
}

export interface CouponGiftContext extends CouponGiftInput {
  /** the friend's phone as typed */
  phone: string;
  /** the gifting terms accepted */
  agreed: boolean;
  /** who the phone belongs to, as the lookup said (the name masked; null: no name on record), asked about before the gift */
  recipientName?: string | null;
  /** one per intent (this phone, these terms), reused when a lost gift is sent again */
  idempotencyKey?: string;
  /** the server's refusal: 30036 no such member, 70112 myself, 70110 not giftable, 70111 limit reached */
  errorCode?: number;
  /** the gift made: the friend (masked) and the gifts left */
  gift?: CouponGift;
}

export interface CouponGiftRequest extends CouponGiftBody {
  idempotencyKey: string;
}

export type CouponGiftEvent =
  | { type: 'phone.change'; phone: string }
  | { type: 'terms.change'; agreed: boolean }
  | { type: 'gift.submit' }
  | { type: 'confirm.accept' }
  | { type: 'confirm.dismiss' };

/**
 * Gifting one of my unused coupons to another member (/mine/coupons/all/Donation?id=; spec §5 "coupon
 * gift needs agreement and a phone", §8 "coupon transfer limit reached"; decisions 032, 035). The
 * friend's phone and the gifting terms (readable on the page) accepted; "gift" checks the phone's shape,
 * then the agreement, then looks the phone up (no such member is said at the phone before anything is
 * asked) and asks once, naming the friend (masked) and the coupon (decision 102: a gift cannot be
 * taken back); confirmed, it sends the gift under one Idempotency-Key per intent (a lost gift sent
 * again is the same request: made once). The server's refusal is said, naming the field (the phone: no
 * such member, myself; the coupon: not giftable; the limit reached). Effects are provided: actors
 * lookupMember (GET /customers/members/phone) and giftCoupon.
 */
export const couponGiftMachine = setup({
  types: {
    context: {} as CouponGiftContext,
    events: {} as CouponGiftEvent,
    input: {} as CouponGiftInput,
  },
  actors: {
    lookupMember: fromPromise<Envelope<MemberByPhone>, { phone: string }>(async () => {
      throw new Error('lookupMember is provided by the app');
    }),
    giftCoupon: fromPromise<Envelope<CouponGift>, CouponGiftRequest>(async () => {
      throw new Error('giftCoupon is provided by the app');
    }),
  },
  actions: {
    setPhone: assign({ phone: (_, p: { phone: string }) => p.phone, idempotencyKey: undefined, errorCode: undefined }),
    setAgreed: assign({ agreed: (_, p: { agreed: boolean }) => p.agreed, idempotencyKey: undefined, errorCode: undefined }),
    intent: assign({ idempotencyKey: ({ context }) => context.idempotencyKey ?? newIntentKey(), errorCode: undefined }),
    keepCode: assign({ errorCode: (_, p: { code: number }) => p.code }),
    keepGift: assign({ gift: (_, p: { gift: CouponGift }) => p.gift }),
    keepRecipient: assign({ recipientName: (_, p: { name: string | null }) => p.name }),
  },
  guards: {
    phoneInvalid: ({ context }) => !isValidPhone(context.phone),
    notAgreed: ({ context }) => !context.agreed,
    refused: (_, p: { envelope: Envelope<unknown> }) => !isOk(p.envelope),
  },
}).createMachine({
  id: 'couponGift',
  context: ({ input }) => ({ ...input, phone: '', agreed: false }),
  initial: 'form',
  states: {
    form: {
      description: 'The coupon, the friend’s phone, the gifting terms (readable on the page) with "I agree", and "gift".',
      initial: 'clean',
      states: {
        clean: { description: 'Nothing said under the form: the member types the phone and accepts the terms.' },
        phoneInvalid: {
          description: '"Gift" was tapped with a phone that is not a mobile number: "enter a correct phone" is said at the phone.',
        },
        notAgreed: { description: '"Gift" was tapped before the gifting terms were accepted: this is said at the terms.' },
        refused: {
          description:
            'The server refused the gift: no such member or myself (said at the phone), the coupon no longer giftable, or the gift limit reached (said at the coupon); nothing was gifted.',
        },
        unreachable: {
          description:
            'The lookup or the gift did not reach the server: "network unreachable" is said; "gift" again looks up and asks again, and sends the same request (made once).',
        },
      },
      on: {
        'phone.change': { target: '.clean', actions: { type: 'setPhone', params: ({ event }) => ({ phone: event.phone }) } },
        'terms.change': { target: '.clean', actions: { type: 'setAgreed', params: ({ event }) => ({ agreed: event.agreed }) } },
        'gift.submit': [
          { guard: 'phoneInvalid', target: '.phoneInvalid' },
          { guard: 'notAgreed', target: '.notAgreed' },
          { target: 'lookingUp' },
        ],
      },
    },
    lookingUp: {
      description: 'The phone is looked up: "gift" shows it is checking and the form cannot be changed; nothing is gifted yet.',
      invoke: {
        id: 'lookupMember',
        src: 'lookupMember',
        input: ({ context }) => ({ phone: context.phone.trim() }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'form.refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'confirming', actions: { type: 'keepRecipient', params: ({ event }) => ({ name: event.output.data?.name ?? null }) } },
        ],
        onError: 'form.unreachable',
      },
    },
    confirming: {
      description:
        'The confirm asks once: "gift to **明 (136****0001)? A gift cannot be taken back", with the coupon\'s name and value; nothing is sent until the member confirms, and not now returns to the form as it was.',
      on: {
        'confirm.accept': { target: 'submitting', actions: 'intent' },
        'confirm.dismiss': 'form.clean',
      },
    },
    submitting: {
      description: 'The gift was sent: "gift" shows it is working and cannot be tapped again; the form cannot be changed.',
      invoke: {
        id: 'giftCoupon',
        src: 'giftCoupon',
        input: ({ context }) => ({
          couponId: context.couponId,
          phone: context.phone.trim(),
          agreed: true as const,
          idempotencyKey: context.idempotencyKey!,
        }),
        onDone: [
          {
            guard: { type: 'refused', params: ({ event }) => ({ envelope: event.output }) },
            target: 'form.refused',
            actions: { type: 'keepCode', params: ({ event }) => ({ code: event.output.code }) },
          },
          { target: 'gifted', actions: { type: 'keepGift', params: ({ event }) => ({ gift: event.output.data }) } },
        ],
        onError: 'form.unreachable',
      },
    },
    gifted: {
      description: 'Gifted: the page says to whom (name and phone masked) and the gifts left, with the way back to my coupons.',
      type: 'final',
    },
  },
});
