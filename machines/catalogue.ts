import type { AnyStateMachine } from 'xstate';
import { bookingBookMachine } from './booking-book.machine';
import { bookingItemMachine } from './booking-item.machine';
import { cardAdviserMachine } from './card-adviser.machine';
import { cardFamilyMachine } from './card-family.machine';
import { cardGiftMachine } from './card-gift.machine';
import { cardExtendMachine } from './card-extend.machine';
import { cardTransferMachine } from './card-transfer.machine';
import { refundRequestMachine } from './card-refund.machine';
import { cardFreezeMachine } from './card-freeze.machine';
import { cardItemMachine } from './card-item.machine';
import { authPasswordChangeMachine } from './auth-password-change.machine';
import { bookingCheckInMachine } from './booking-check-in.machine';
import { orderCheckoutMachine } from './order-checkout.machine';
import { catalogClubDistancesMachine } from './catalog-club-distances.machine';
import { bookingMachine } from './domain/booking.machine';
import { cardMachine } from './domain/card.machine';
import { scheduleClassMachine } from './domain/schedule-class.machine';
import { couponMachine } from './domain/coupon.machine';
import { orderMachine } from './domain/order.machine';
import { friendPayInvitationMachine } from './domain/friend-pay-invitation.machine';
import { paymentAttemptMachine } from './domain/payment-attempt.machine';
import { paymentPartMachine } from './domain/payment-part.machine';
import { paymentMachine } from './domain/payment.machine';
import { photoReviewMachine } from './domain/photo-review.machine';
import { refundMachine } from './domain/refund.machine';
import { scheduleTeacherConfirmationMachine } from './domain/schedule-teacher-confirmation.machine';
import { cardTransferApplicationMachine } from './domain/card-transfer-application.machine';
import { cardRefundMachine } from './domain/card-refund.machine';
import { authLoginMachine } from './auth-login.machine';
import { orderCancelMachine } from './order-cancel.machine';
import { pagerMachine } from './pager.machine';
import { staffDecisionMachine } from './staff-decision.machine';
import { complaintMachine } from './complaint.machine';
import { invoiceRequestMachine } from './invoice-request.machine';
import { accountClosingRequestMachine } from './account-closing-request.machine';
import { accountClosingMachine } from './domain/account-closing.machine';
import { complaintMachine as complaintLifecycle } from './domain/complaint.machine';
import { invoiceMachine as invoiceLifecycle } from './domain/invoice.machine';
import { personInfoMachine } from './person-info.machine';
import { couponGiftMachine } from './coupon-gift.machine';
import { paymentOrderMachine } from './payment-order.machine';
import { photoUploadMachine } from './photo-upload.machine';
import { photoAvatarMachine } from './photo-avatar.machine';
import { authPasswordResetMachine } from './auth-password-reset.machine';
import { scheduleConfirmMachine } from './schedule-confirm.machine';
import { authSessionMachine } from './auth-session.machine';
import { scheduleTeacherAssignMachine } from './schedule-teacher-assign.machine';
import { scheduleClassFormMachine } from './schedule-class-form.machine';
import { authSmsCodeMachine } from './auth-sms-code.machine';
import { orderSplitMachine } from './order-split.machine';
import { friendPayInviteMachine } from './friend-pay-invite.machine';
import { friendPayResultMachine } from './friend-pay-result.machine';
import { friendPayMachine } from './friend-pay.machine';
import { catalogSurveyPromptMachine } from './catalog-survey-prompt.machine';
import { bindingTeacherMachine } from './binding-teacher.machine';
import { staffBindMachine } from './staff-bind.machine';
import { bindingNewTeacherMachine } from './binding-new-teacher.machine';
import { bindingTeacherRequestMachine } from './domain/binding-teacher-request.machine';

/** One chart: the file it is defined in (relative to the repo) and the machine. */
export interface Chart {
  file: string;
  machine: AnyStateMachine;
}

/**
 * Every chart in machines/ and machines/domain/, for the /dev/machines page and `npm run machines`
 * (test/machines/catalogue.test.ts fails when a *.machine.ts file is missing here).
 */
export const charts: Chart[] = [
  { file: 'machines/auth-session.machine.ts', machine: authSessionMachine },
  { file: 'machines/auth-login.machine.ts', machine: authLoginMachine },
  { file: 'machines/auth-sms-code.machine.ts', machine: authSmsCodeMachine },
  { file: 'machines/auth-password-reset.machine.ts', machine: authPasswordResetMachine },
  { file: 'machines/auth-password-change.machine.ts', machine: authPasswordChangeMachine },
  { file: 'machines/person-info.machine.ts', machine: personInfoMachine },
  { file: 'machines/coupon-gift.machine.ts', machine: couponGiftMachine },
  { file: 'machines/booking-book.machine.ts', machine: bookingBookMachine },
  { file: 'machines/booking-item.machine.ts', machine: bookingItemMachine },
  { file: 'machines/booking-check-in.machine.ts', machine: bookingCheckInMachine },
  { file: 'machines/photo-upload.machine.ts', machine: photoUploadMachine },
  { file: 'machines/photo-avatar.machine.ts', machine: photoAvatarMachine },
  { file: 'machines/order-cancel.machine.ts', machine: orderCancelMachine },
  { file: 'machines/catalog-survey-prompt.machine.ts', machine: catalogSurveyPromptMachine },
  { file: 'machines/card-item.machine.ts', machine: cardItemMachine },
  { file: 'machines/card-freeze.machine.ts', machine: cardFreezeMachine },
  { file: 'machines/card-adviser.machine.ts', machine: cardAdviserMachine },
  { file: 'machines/card-family.machine.ts', machine: cardFamilyMachine },
  { file: 'machines/card-gift.machine.ts', machine: cardGiftMachine },
  { file: 'machines/card-extend.machine.ts', machine: cardExtendMachine },
  { file: 'machines/card-transfer.machine.ts', machine: cardTransferMachine },
  { file: 'machines/card-refund.machine.ts', machine: refundRequestMachine },
  { file: 'machines/order-checkout.machine.ts', machine: orderCheckoutMachine },
  { file: 'machines/payment-order.machine.ts', machine: paymentOrderMachine },
  { file: 'machines/order-split.machine.ts', machine: orderSplitMachine },
  { file: 'machines/friend-pay-invite.machine.ts', machine: friendPayInviteMachine },
  { file: 'machines/friend-pay.machine.ts', machine: friendPayMachine },
  { file: 'machines/friend-pay-result.machine.ts', machine: friendPayResultMachine },
  { file: 'machines/binding-teacher.machine.ts', machine: bindingTeacherMachine },
  { file: 'machines/staff-bind.machine.ts', machine: staffBindMachine },
  { file: 'machines/staff-decision.machine.ts', machine: staffDecisionMachine },
  { file: 'machines/binding-new-teacher.machine.ts', machine: bindingNewTeacherMachine },
  { file: 'machines/catalog-club-distances.machine.ts', machine: catalogClubDistancesMachine },
  { file: 'machines/pager.machine.ts', machine: pagerMachine },
  { file: 'machines/schedule-confirm.machine.ts', machine: scheduleConfirmMachine },
  { file: 'machines/schedule-teacher-assign.machine.ts', machine: scheduleTeacherAssignMachine },
  { file: 'machines/schedule-class-form.machine.ts', machine: scheduleClassFormMachine },
  { file: 'machines/complaint.machine.ts', machine: complaintMachine },
  { file: 'machines/invoice-request.machine.ts', machine: invoiceRequestMachine },
  { file: 'machines/account-closing-request.machine.ts', machine: accountClosingRequestMachine },
  { file: 'machines/domain/booking.machine.ts', machine: bookingMachine },
  { file: 'machines/domain/card.machine.ts', machine: cardMachine },
  { file: 'machines/domain/order.machine.ts', machine: orderMachine },
  { file: 'machines/domain/photo-review.machine.ts', machine: photoReviewMachine },
  { file: 'machines/domain/payment-attempt.machine.ts', machine: paymentAttemptMachine },
  { file: 'machines/domain/payment.machine.ts', machine: paymentMachine },
  { file: 'machines/domain/payment-part.machine.ts', machine: paymentPartMachine },
  { file: 'machines/domain/refund.machine.ts', machine: refundMachine },
  { file: 'machines/domain/card-transfer-application.machine.ts', machine: cardTransferApplicationMachine },
  { file: 'machines/domain/card-refund.machine.ts', machine: cardRefundMachine },
  { file: 'machines/domain/complaint.machine.ts', machine: complaintLifecycle },
  { file: 'machines/domain/invoice.machine.ts', machine: invoiceLifecycle },
  { file: 'machines/domain/account-closing.machine.ts', machine: accountClosingMachine },
  { file: 'machines/domain/friend-pay-invitation.machine.ts', machine: friendPayInvitationMachine },
  { file: 'machines/domain/coupon.machine.ts', machine: couponMachine },
  { file: 'machines/domain/schedule-class.machine.ts', machine: scheduleClassMachine },
  { file: 'machines/domain/binding-teacher-request.machine.ts', machine: bindingTeacherRequestMachine },
  { file: 'machines/domain/schedule-teacher-confirmation.machine.ts', machine: scheduleTeacherConfirmationMachine },
];

/** A state of a chart with what the member sees and can do there (its `description`), if written. */
export interface StateDoc {
  /** the state's path from the root: `active.form.editing.clean` */
  path: string;
  description?: string;
  type: string;
}

/** Every state of a chart, depth first, with its description. */
export function statesOf(machine: AnyStateMachine): StateDoc[] {
  type Node = { path: string[]; description?: string; type: string; states: Record<string, Node> };
  const out: StateDoc[] = [];
  const walk = (n: Node) => {
    if (n.path.length) out.push({ path: n.path.join('.'), description: n.description, type: n.type });
    for (const c of Object.values(n.states)) walk(c);
  };
  walk(machine.root as unknown as Node);
  return out;
}
