import { useEffect, useState } from 'react';
import { useRevalidator } from 'react-router-dom';
import type { FlashSaleActivity } from '../../../api/flash-sale';
import { serverAlignedClock } from '../../app-clock';

/** How often a live or upcoming sale's numbers are read again. */
const REFRESH_MS = 5_000;

/**
 * The sale's clock: the server's time when it answered, advanced by the phone's elapsed time (the
 * first render uses the server's time alone, so the page hydrates without a mismatch). While the sale
 * is live or upcoming it re-reads the sale every few seconds and when a countdown reaches zero.
 */
export function useSaleClock(sale: FlashSaleActivity | null): number {
  const serverNow = sale ? Date.parse(sale.serverNow) : 0;
  const [now, setNow] = useState(serverNow);
  const { revalidate } = useRevalidator();
  const active = sale !== null && (sale.phase === 'live' || sale.phase === 'upcoming');
  const boundary = sale ? Date.parse(sale.phase === 'upcoming' ? sale.startsAt : sale.endsAt) : 0;

  useEffect(() => {
    setNow(serverNow);
    if (!active) return;
    // aligned again on every answer of the sale (fresher than the page's boot time)
    const clock = serverAlignedClock(new Date(serverNow).toISOString());
    const tick = setInterval(() => setNow(clock.now().getTime()), 1000);
    const refresh = setInterval(() => void revalidate(), REFRESH_MS);
    return () => {
      clearInterval(tick);
      clearInterval(refresh);
    };
  }, [serverNow, active, revalidate]);

  const reached = active && now >= boundary;
  useEffect(() => {
    if (reached) void revalidate();
  }, [reached, revalidate]);

  return now;
}
