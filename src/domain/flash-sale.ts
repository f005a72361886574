import { Errors, type ErrorDef } from './errors';

/**
 * A flash sale's phase (spec §4 "sold out when sellNumber is at least maxNumber"), the same rule for
 * the server's answer and the app's card. Times are instants; the window is [startsAt, endsAt).
 */
export type FlashSalePhase = 'upcoming' | 'live' | 'sold_out' | 'ended';

export interface FlashSaleFacts {
  startsAt: Date;
  endsAt: Date;
  sellNumber: number;
  maxNumber: number;
}

export function flashSalePhase(s: FlashSaleFacts, now: Date): FlashSalePhase {
  if (now.getTime() < s.startsAt.getTime()) return 'upcoming';
  if (now.getTime() >= s.endsAt.getTime()) return 'ended';
  if (s.sellNumber >= s.maxNumber) return 'sold_out';
  return 'live';
}

/** Why nobody can buy now (sold out: the spec's "hand speed is not fast enough"), or null. */
export function flashSaleRefusal(phase: FlashSalePhase): ErrorDef | null {
  switch (phase) {
    case 'upcoming':
      return Errors.flashSaleNotStarted;
    case 'ended':
      return Errors.flashSaleEnded;
    case 'sold_out':
      return Errors.goodsSoldOut;
    default:
      return null;
  }
}

/** A countdown as days and zero-padded clock parts; negative time counts as zero. */
export function countdownParts(ms: number): { days: number; clock: string } {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const rest = total % 86_400;
  const pad = (n: number) => String(n).padStart(2, '0');
  return { days, clock: `${pad(Math.floor(rest / 3600))}:${pad(Math.floor((rest % 3600) / 60))}:${pad(rest % 60)}` };
}

/** Share of places taken, 0-100, for the progress bar. */
export function soldPercent(sellNumber: number, maxNumber: number): number {
  if (maxNumber <= 0) return 100;
  return Math.min(100, Math.round((sellNumber / maxNumber) * 100));
}
