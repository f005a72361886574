import { assign, fromPromise, setup } from 'xstate';
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

export type CouponGiftEvent = { type: 'phone.change'; phone: string } | { type: 'terms.change'; agreed: boolean } | { type: 'gift.submit' };

/**
 * Gifting one of my unused coupons to another member (/mine/coupons/all/Donation?id=; spec §5 "coupon
 * gift needs agreement and a phone", §8 "coupon transfer limit reached"; decisions 032, 035). The
 * friend's phone and the gifting terms (readable on the page) accepted; "gift" checks the phone's shape,
 * then the agreement, and sends the gift under one Idempotency-Key per intent (a lost gift sent again
 * is the same request: made once). The server's refusal is said, naming the field (the phone: no such
 * member, myself; the coupon: not giftable; the limit reached). Effects are provided: actor giftCoupon.
 */
export const couponGiftMachine = setup({
  types: {
    context: {} as CouponGiftContext,
    events: {} as CouponGiftEvent,
    input: {} as CouponGiftInput,
  },
  actors: {
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
          description: 'The gift did not reach the server: "network unreachable" is said; "gift" again sends the same request (made once).',
        },
      },
      on: {
        'phone.change': { target: '.clean', actions: { type: 'setPhone', params: ({ event }) => ({ phone: event.phone }) } },
        'terms.change': { target: '.clean', actions: { type: 'setAgreed', params: ({ event }) => ({ agreed: event.agreed }) } },
        'gift.submit': [
          { guard: 'phoneInvalid', target: '.phoneInvalid' },
          { guard: 'notAgreed', target: '.notAgreed' },
          { target: 'submitting', actions: 'intent' },
        ],
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
