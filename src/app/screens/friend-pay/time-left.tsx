import { Trans } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { countdownParts } from '../../../domain/flash-sale';
import { appTimers, clockFrom } from '../../app-clock';

/**
 * The time left until `expiresAt` by the app's clock (the server's time, app-clock.ts), counted down
 * every second on the app's timers (a path test moves them with the chart's delays).
 */
export function useTimeLeft(expiresAt: string | undefined): number {
  const clock = clockFrom(undefined);
  const [now, setNow] = useState(() => clock.now().getTime());
  useEffect(() => {
    if (!expiresAt) return;
    const timers = appTimers();
    let id: unknown;
    const tick = () => {
      setNow(clock.now().getTime());
      id = timers.setTimeout(tick, 1000);
    };
    tick();
    return () => timers.clearTimeout(id);
  }, [expiresAt, clock]);
  return expiresAt ? Math.max(0, Date.parse(expiresAt) - now) : 0;
}

/** "剩余 00:59:59": an invitation's hour counting down (the server rendered it a moment earlier: no hydration warning). */
export function TimeLeft(props: { expiresAt: string }) {
  const left = countdownParts(useTimeLeft(props.expiresAt)).clock;
  return (
    <p className="text-sm text-black/60 tabular-nums">
      <Trans>
        剩余时间{' '}
        <span data-time-left suppressHydrationWarning>
          {left}
        </span>
      </Trans>
    </p>
  );
}
