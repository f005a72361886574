import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { errorByCode } from '../../../domain/errors';

/*
 * Apart from the labels of booking-labels.ts: the schedule's class rows (on the Homepage's first
 * load) need those, and not the whole error catalogue this pulls in.
 */

const fallback = msg`操作失败，请稍后再试`;

/** A server refusal's translated message, by its catalogue code (src/domain/errors.ts). */
export function refusal(code: number | undefined | null): MessageDescriptor {
  return (code != null && errorByCode(code)?.message) || fallback;
}
