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
