import {
  canApplyCard,
  cardOperations,
  type CardFactsForChart,
  type CardOperation,
  type CardStatus,
} from '../../../../machines/domain/card-transitions';
import type { ExtensionRule } from '../../../domain/card-rules';
import { Errors, type ErrorName } from '../../../domain/errors';
import type { Locale } from '../../i18n';
import { translate } from '../../i18n';

/**
 * The card operations this server has an endpoint for. The card chart knows more (transfer and
 * refund: spec §4); each joins this list with its endpoint, so the API never offers an
 * operation a member cannot carry out.
 */
export const CARD_OPERATIONS_SERVED: ReadonlySet<CardOperation> = new Set<CardOperation>([
  'activate',
  'freeze',
  'unfreeze',
  'extend',
  'transfer',
  'refund',
  'changeAdviser',
]);

/** What a card in `status` (with its stored facts) offers now: what the chart allows and the server can do. */
export function cardOperationsServed(status: CardStatus, facts: CardFactsForChart): CardOperation[] {
  return cardOperations(status, facts).filter((op) => CARD_OPERATIONS_SERVED.has(op));
}

/** The card-management operations the card page lists, each offered or refused with its reason. */
export type ManagedOperation = 'freeze' | 'unfreeze' | 'extend' | 'transfer' | 'refund' | 'changeAdviser' | 'family' | 'gift';

export interface OperationOffer {
  operation: ManagedOperation;
  allowed: boolean;
  code: number | null;
  message: string | null;
}

const STATUS_REFUSAL: Record<CardStatus, ErrorName> = {
  inactive: 'cardInactive',
  in_use: 'cardStatusForbids',
  invalid: 'cardIsInvalid',
  expired: 'cardIsExpired',
  transferred: 'cardIsTransferred',
  frozen: 'cardIsFrozen',
};

/** Spec §8 cards: why a card in `status` refuses an operation the chart does not allow there. */
export function statusRefusal(status: CardStatus): ErrorName {
  return STATUS_REFUSAL[status];
}

/** Why the chart refuses a freeze of a card: one is planned already, or its status. */
export function freezeStatusRefusal(facts: CardFactsForChart): ErrorName {
  return facts.freezePlanned ? 'freezePlanned' : 'freezeStatusForbids';
}

/**
 * Why the card refuses each managed operation now, before any dates are chosen (the same reasons the
 * endpoints give): the chart by status and facts, then for extension the card type's rule. Unfreeze
 * is listed only for a card frozen or with a freeze planned.
 */
export function operationRefusals(
  card: { status: CardStatus; extensionCount: number; validUntil: Date | null },
  facts: CardFactsForChart,
  rule: ExtensionRule | null,
): Partial<Record<ManagedOperation, ErrorName | null>> {
  const out: Partial<Record<ManagedOperation, ErrorName | null>> = {};
  out.freeze = canApplyCard(card.status, 'card.freeze', facts) ? null : freezeStatusRefusal(facts);
  if (card.status === 'frozen' || facts.freezePlanned)
    out.unfreeze = canApplyCard(card.status, 'card.unfreeze', facts) ? null : statusRefusal(card.status);
  if (!canApplyCard(card.status, 'card.extend', facts)) out.extend = statusRefusal(card.status);
  else if (!rule || rule.maxExtensions <= 0 || card.validUntil === null) out.extend = 'extensionNotAllowed';
  else out.extend = card.extensionCount >= rule.maxExtensions ? 'extensionLimitReached' : null;
  out.changeAdviser = canApplyCard(card.status, 'card.changeAdviser', facts) ? null : statusRefusal(card.status);
  return out;
}

/** The offers as the API answers them, translated. */
export function offersOf(
  refusals: Partial<Record<ManagedOperation, ErrorName | null>>,
  locale: Locale,
  values: Partial<Record<ManagedOperation, Record<string, string>>> = {},
): OperationOffer[] {
  return (['freeze', 'unfreeze', 'extend', 'transfer', 'refund', 'changeAdviser', 'family', 'gift'] as const).flatMap((operation) => {
    if (!(operation in refusals)) return [];
    const why = refusals[operation] ?? null;
    return [
      {
        operation,
        allowed: why === null,
        code: why ? Errors[why].code : null,
        message: why ? translate(locale, Errors[why].message, values[operation]) : null,
      },
    ];
  });
}
