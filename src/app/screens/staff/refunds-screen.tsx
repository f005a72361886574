import { Trans, useLingui } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { useState } from 'react';
import { type LoaderFunctionArgs, useLoaderData } from 'react-router-dom';
import type { StaffRefund } from '../../../contracts/refunds';
import { newIntentKey } from '../../../domain/intent-key';
import { formatYuan } from '../../../domain/money';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { refusalMessage } from '../../ui/refusal-message';
import { staffRead, type StaffData } from './staff-data';
import { StaffPage } from './staff-parts';

export const loader = ({ context }: LoaderFunctionArgs) => staffRead(() => apiFrom(context).staff.refunds());

/**
 * /staff/refunds: refunds that need a person (decision 021): failed at the provider (with its words)
 * or held. A held one can be asked of its provider now; either can be recorded as given back another
 * way. Each tap is one intent (Idempotency-Key).
 */
export default function RefundsScreen() {
  const d = useLoaderData() as StaffData<StaffRefund[]>;
  const { i18n } = useLingui();
  const revalidate = useStableRevalidate();
  const [error, setError] = useState<{ id: number; code: number } | null>(null);
  const act = async (id: number, step: 'release' | 'settle') => {
    setError(null);
    try {
      const r = await browserApiOrThrow().staff.refundStep(step, id, newIntentKey());
      if (r.code !== 200) setError({ id, code: r.code });
    } catch {
      setError({ id, code: 70002 });
    }
    revalidate();
  };
  return (
    <StaffPage d={d} onRetry={revalidate} title={<Trans>退款处理</Trans>}>
      {(list) =>
        list.length === 0 ? (
          <p className="p-6 text-center text-sm text-black/60">
            <Trans>没有需要处理的退款</Trans>
          </p>
        ) : (
          <ul className="mx-4 mt-3 divide-y divide-black/5 rounded-xl bg-white" data-refund-list>
            {list.map((r) => (
              <li key={r.refundId} className="p-3 text-sm" data-refund={r.refundId} data-state={r.state}>
                <p className="font-medium">
                  {r.orderNo} · {formatYuan(r.amountCents)} · {r.to} · {r.state}
                </p>
                {r.failureMessage ? <p className="text-rose-600">{r.failureMessage}</p> : null}
                <p className="text-xs text-black/60">{shanghaiFormat(new Date(r.createdAt), 'YYYY-MM-DD HH:mm')}</p>
                {error?.id === r.refundId ? (
                  <p role="alert" className="text-rose-600">
                    {i18n._(refusalMessage(error.code))}
                  </p>
                ) : null}
                <div className="mt-2 flex gap-2">
                  {r.state === 'held' ? (
                    <Button small rounded inline onClick={() => void act(r.refundId, 'release')}>
                      <Trans>发起退款</Trans>
                    </Button>
                  ) : null}
                  <Button small rounded inline outline onClick={() => void act(r.refundId, 'settle')}>
                    <Trans>已线下退还</Trans>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )
      }
    </StaffPage>
  );
}
