import { useState } from 'react';
import { newIntentKey } from '../../../domain/intent-key';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';

/**
 * What a staff queue's rows share (transfers, card refunds, new-teacher requests, complaints,
 * invoices): the text typed for each row (a reason or a reply), the row whose decision is on its way,
 * the refusal the server gave a row, and `act`, which sends one decision under a new intent key (a
 * double tap acts once) and reads the queue again.
 */
export function useStaffDecisions() {
  const revalidate = useStableRevalidate();
  const [reasons, setReasons] = useState<Record<number, string>>({});
  const [error, setError] = useState<{ id: number; code: number } | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const act = async (id: number, run: (key: string) => Promise<{ code: number }>) => {
    setBusy(id);
    setError(null);
    try {
      const r = await run(newIntentKey());
      if (r.code !== 200) setError({ id, code: r.code });
    } catch {
      setError({ id, code: 70002 });
    } finally {
      setBusy(null);
      revalidate();
    }
  };
  return { revalidate, reasons, setReasons, error, busy, act };
}
