/**
 * Compiled by `tsc` (npm run typecheck), never run: the app's API types are the server's zod schemas
 * inferred (src/contracts, decision 019), so they cannot drift. What is still written by hand beside
 * them is pinned here: a domain type the contract mirrors, and the few request types the app derives.
 */
import { expectTypeOf } from 'vitest';
import type { CheckoutBody, CreateOrderBody, Order, PayAnswer } from '../../src/api/orders';
import type { Order as OrderContract, PaymentStart as PaymentStartContract, QuoteBody } from '../../src/contracts/orders';
import type { PaymentStart } from '../../src/domain/payment-start';
import type { BookRequest } from '../../src/api/booking';
import type { SurveyAnswer } from '../../src/api/catalog';
import type { BookBody } from '../../src/contracts/booking';
import type { SurveyAnswerIn } from '../../src/contracts/catalog';
import type { LoginEnvelope, LoginRequest, ValidCodeEnvelope } from '../../src/api/auth';
import type { CodeSent, CodeTooSoon, LoginBody, LoginData, Profile, TokenCheck } from '../../src/contracts/auth';
import type { ResetTicket } from '../../src/contracts/auth-password';
import type { PhotoReviewed, PhotoToReview, PhotoView } from '../../src/contracts/photos';
import type { LoginInput } from '../../src/server/services/auth/login';
import type { profileOf } from '../../src/server/services/auth/accounts';
import type { checkToken } from '../../src/server/services/auth/sessions';
import type { startReset } from '../../src/server/services/auth/passwords';
import type { myPhoto, photosToReview, reviewPhoto } from '../../src/server/services/photos';

// the app's Order is the contract's (the hand copy lacked issuedCourseId)
expectTypeOf<Order>().toEqualTypeOf<OrderContract>();
expectTypeOf<Order>().toHaveProperty('issuedCourseId').toEqualTypeOf<number | null>();
// the payment start the server's gateways build (domain) is exactly what the contract documents
expectTypeOf<PaymentStartContract>().toEqualTypeOf<PaymentStart>();
expectTypeOf<PayAnswer['payment']>().toEqualTypeOf<PaymentStart | null>();
// a checkout body is a quote body plus the amount shown; creating adds the agreement
expectTypeOf<CheckoutBody>().toMatchTypeOf<QuoteBody>();
expectTypeOf<CreateOrderBody['agreementAccepted']>().toEqualTypeOf<boolean>();
// the survey answer the app sends (a union) is one the contract's object accepts
expectTypeOf<SurveyAnswer>().toMatchTypeOf<SurveyAnswerIn>();
// a booking request is the contract's body, notice agreed
expectTypeOf<BookRequest>().toEqualTypeOf<BookBody>();

// login: the app's body (login types it offers) fits the contract's; the answer's data is the contract's LoginData
expectTypeOf<LoginRequest>().toMatchTypeOf<LoginBody>();
expectTypeOf<LoginRequest['loginType']>().toEqualTypeOf<'password' | 'code' | 'openid'>();
expectTypeOf<LoginEnvelope['data']>().toEqualTypeOf<LoginData>();
expectTypeOf<LoginEnvelope['token']>().toEqualTypeOf<string>();
expectTypeOf<ValidCodeEnvelope['data']>().toEqualTypeOf<CodeSent | CodeTooSoon | null>();
// the server's services answer the contract's types themselves (no second copy on the server either)
expectTypeOf<LoginInput>().toEqualTypeOf<LoginBody>();
expectTypeOf<ReturnType<typeof profileOf>>().toEqualTypeOf<Profile>();
expectTypeOf<Awaited<ReturnType<typeof checkToken>>>().toEqualTypeOf<TokenCheck>();
expectTypeOf<Awaited<ReturnType<typeof startReset>>>().toEqualTypeOf<ResetTicket>();
expectTypeOf<Awaited<ReturnType<typeof myPhoto>>>().toEqualTypeOf<PhotoView>();
expectTypeOf<Awaited<ReturnType<typeof photosToReview>>>().toEqualTypeOf<PhotoToReview[]>();
expectTypeOf<Awaited<ReturnType<typeof reviewPhoto>>>().toEqualTypeOf<PhotoReviewed>();
