import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { CardStatus } from '../../../../machines/domain/card-transitions';

/** Spec §4 card status, as the member reads it (the chart's state names are the keys). */
export const CARD_STATUS_LABELS: Record<CardStatus, MessageDescriptor> = {
  inactive: msg`未激活`,
  in_use: msg`使用中`,
  invalid: msg`已失效`,
  expired: msg`已过期`,
  transferred: msg`已转让`,
  frozen: msg`已冻结`,
};

/** Badge colours per card status (Tailwind classes). */
export const CARD_STATUS_TINTS: Record<CardStatus, string> = {
  inactive: 'bg-amber-100 text-amber-700',
  in_use: 'bg-emerald-100 text-emerald-700',
  invalid: 'bg-black/5 text-black/60',
  expired: 'bg-black/5 text-black/60',
  transferred: 'bg-violet-100 text-violet-700',
  frozen: 'bg-sky-100 text-sky-700',
};

/** A card's status as a small badge. */
export function cardStatusBadgeClass(status: CardStatus): string {
  return `shrink-0 rounded px-1.5 py-0.5 text-xs ${CARD_STATUS_TINTS[status]}`;
}
