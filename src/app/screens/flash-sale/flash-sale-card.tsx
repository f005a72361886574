import { Trans } from '@lingui/react/macro';
import { Block } from 'konsta/react';
import type { FlashSaleActivity } from '../../../api/flash-sale';
import { countdownParts, soldPercent } from '../../../domain/flash-sale';

/** Time to the start (upcoming) or the end (live); nothing once it is sold out or over. */
function Countdown(props: { sale: FlashSaleActivity; now: number }) {
  const { sale, now } = props;
  if (sale.phase !== 'upcoming' && sale.phase !== 'live') return null;
  const to = Date.parse(sale.phase === 'upcoming' ? sale.startsAt : sale.endsAt);
  const { days, clock } = countdownParts(to - now);
  return (
    <p className="text-sm tabular-nums" data-countdown={sale.phase}>
      {sale.phase === 'upcoming' ? <Trans>距开始</Trans> : <Trans>距结束</Trans>} {days > 0 && <Trans>{days}天</Trans>}{' '}
      <span className="font-semibold">{clock}</span>
    </p>
  );
}

/** The sale's state in a word. */
function PhaseLabel(props: { phase: FlashSaleActivity['phase'] }) {
  switch (props.phase) {
    case 'upcoming':
      return <Trans>即将开始</Trans>;
    case 'live':
      return <Trans>抢购中</Trans>;
    case 'sold_out':
      return <Trans>已抢光</Trans>;
    default:
      return <Trans>已结束</Trans>;
  }
}

/**
 * The flash sale's card (spec §3 card activity detail): places taken of places on sale as a
 * progress bar, the countdown, and why it cannot be bought now (sold out: the spec's hand-speed
 * message; a place already held: one per person), shown as the server says it.
 */
export function FlashSaleCard(props: { sale: FlashSaleActivity; now: number }) {
  const { sale, now } = props;
  const pct = soldPercent(sale.sellNumber, sale.maxNumber);
  const left = Math.max(0, sale.maxNumber - sale.sellNumber);
  return (
    <Block strong inset className="!my-4" data-flash-sale={sale.id} data-phase={sale.phase}>
      <div className="flex items-center justify-between">
        <span className="rounded-full bg-red-600 px-2 py-0.5 text-xs text-white" data-phase-label>
          <PhaseLabel phase={sale.phase} />
        </span>
        <Countdown sale={sale} now={now} />
      </div>
      <div className="mt-3 flex items-baseline justify-between text-sm tabular-nums" data-progress>
        <span>
          <Trans>
            已抢 <b data-sell-number>{sale.sellNumber}</b> / <span data-max-number>{sale.maxNumber}</span> 张
          </Trans>
        </span>
        <span className="text-black/60">
          <Trans>剩余{left}张</Trans>
        </span>
      </div>
      <div
        className="mt-2 h-2 overflow-hidden rounded-full bg-red-100"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={sale.maxNumber}
        aria-valuenow={sale.sellNumber}
      >
        <div className="h-full rounded-full bg-red-600 transition-[width]" style={{ width: `${pct}%` }} />
      </div>
      {sale.message && (
        <p className="mt-3 text-center font-semibold text-red-600" role="status" data-sale-message>
          {sale.message}
        </p>
      )}
    </Block>
  );
}
