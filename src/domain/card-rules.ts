import { addDays, addShanghaiDays, daysFromTo, lastValidDay, shanghaiMidnight } from './time';

/**
 * The rules of freezing and extending a card (spec §5, decision 024), pure: the server decides with
 * them inside its transaction, the app explains with them. Dates are Shanghai calendar dates
 * ("YYYY-MM-DD"); a freeze covers both its days. Each refusal is a key of src/domain/errors.ts.
 */

/**
 * The longest freeze, in days (both ends counted). The seed's card types carry no freeze rule, so it
 * is one constant for every card (decision 024); a per-type rule would join card_type_rules.
 */
export const MAX_FREEZE_DAYS = 30;

export type FreezeDatesRefusal = 'freezeStartPast' | 'freezeEndBeforeStart' | 'freezeTooLong' | 'freezeAfterValidity';

/** Days from `from` to `until`, both counted (a freeze of one day is 1). */
export function daysBetween(from: string, until: string): number {
  return daysFromTo(from, until) + 1;
}

/**
 * Whether the dates asked for make a freeze: from today on, the end not before the start (spec §5),
 * at most MAX_FREEZE_DAYS, and starting while the card is still valid (its last valid day at the latest).
 */
export function freezeDatesRefusal(
  dates: { from: string; until: string },
  today: string,
  validUntil: Date | null,
): FreezeDatesRefusal | null {
  if (dates.from < today) return 'freezeStartPast';
  if (dates.until < dates.from) return 'freezeEndBeforeStart';
  if (daysBetween(dates.from, dates.until) > MAX_FREEZE_DAYS) return 'freezeTooLong';
  if (validUntil !== null && shanghaiMidnight(dates.from).getTime() >= validUntil.getTime()) return 'freezeAfterValidity';
  return null;
}

/**
 * The days a freeze form may offer, from the same rule as freezeDatesRefusal: the first day from today
 * to the card's last valid day, the last day from the first to MAX_FREEZE_DAYS later (both counted),
 * so the date pickers cannot reach a freeze the server would refuse.
 */
export function freezeDateBounds(
  from: string,
  today: string,
  validUntil: Date | null,
): { fromMin: string; fromMax: string | undefined; untilMin: string; untilMax: string } {
  const start = from < today ? today : from;
  return {
    fromMin: today,
    fromMax: validUntil === null ? undefined : lastValidDay(validUntil),
    untilMin: start,
    untilMax: addDays(start, MAX_FREEZE_DAYS - 1),
  };
}

/** The validity end moved by `days` calendar days in Shanghai (negative: taken back). */
export function shiftValidity(validUntil: Date | null, days: number): Date | null {
  return validUntil === null ? null : addShanghaiDays(validUntil, days);
}

/**
 * The days of a freeze not used when the member unfreezes on `today`: a running freeze gives back the
 * days from today to its end (today the card books again); a planned one gives back all of them.
 */
export function unusedFreezeDays(freeze: { from: string; until: string }, today: string): number {
  if (today < freeze.from) return daysBetween(freeze.from, freeze.until);
  if (today > freeze.until) return 0;
  return daysBetween(today, freeze.until);
}

/** The first instant after a freeze: Shanghai midnight after its last day (the time-passing job unfreezes then). */
export function freezeEndsAt(until: string): Date {
  return shanghaiMidnight(addDays(until, 1));
}

/** What a card type allows (card_type_rules): data, seeded. */
export interface ExtensionRule {
  maxExtensions: number;
  maxExtensionDays: number;
}

export type ExtensionRefusal =
  | 'extensionNotAllowed'
  | 'extensionLimitReached'
  | 'extensionNotLater'
  | 'extensionInPast'
  | 'extensionTooLong';

/**
 * Whether a card may be extended to end on `until` (spec §5: later than its end; decision 024: within
 * its type's count and length, and not ending before today). `validUntil` is the card's end now.
 */
export function extensionRefusal(
  card: { extensionCount: number; validUntil: Date | null },
  rule: ExtensionRule | null,
  until: string,
  today: string,
): ExtensionRefusal | null {
  if (!rule || rule.maxExtensions <= 0 || card.validUntil === null) return 'extensionNotAllowed';
  if (card.extensionCount >= rule.maxExtensions) return 'extensionLimitReached';
  return extensionDateRefusal(lastValidDay(card.validUntil), rule.maxExtensionDays, until, today);
}

/**
 * The part of extensionRefusal the form can say at its date field: whether `until` is later than the
 * card's last valid day `end`, not before today, and at most `maxExtensionDays` after `end`.
 */
export function extensionDateRefusal(
  end: string,
  maxExtensionDays: number,
  until: string,
  today: string,
): 'extensionNotLater' | 'extensionInPast' | 'extensionTooLong' | null {
  if (until <= end) return 'extensionNotLater';
  if (until < today) return 'extensionInPast';
  if (daysBetween(end, until) - 1 > maxExtensionDays) return 'extensionTooLong';
  return null;
}

/**
 * The new last valid days an extension form may offer, from the same rule as extensionRefusal: later
 * than the card's end and not before today, at most the type's maxExtensionDays after the end; null
 * when the card cannot be extended at all.
 */
export function extensionDateBounds(
  card: { validUntil: Date | null },
  rule: ExtensionRule | null,
  today: string,
): { min: string; max: string } | null {
  if (!rule || rule.maxExtensionDays <= 0 || card.validUntil === null) return null;
  const end = lastValidDay(card.validUntil);
  const next = addDays(end, 1);
  return { min: next < today ? today : next, max: addDays(end, rule.maxExtensionDays) };
}

/** The validity end of a card extended to end on `until`: the end of that Shanghai day. */
export function extendedValidUntil(until: string): Date {
  return shanghaiMidnight(addDays(until, 1));
}
