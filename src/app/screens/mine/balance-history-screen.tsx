import { Trans } from '@lingui/react/macro';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { BalanceLedgerRow } from '../../../api/payments';
import type { Paged } from '../../../domain/envelope';
import { formatYuan } from '../../../domain/money';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { EmptyList, PagedList } from '../../ui/paged-list';
import { BalanceHistoryRow } from './balance-history-row';

/** Changes per page. */
export const BALANCE_HISTORY_PAGE_SIZE = 20;

/** /mine/balanceHistory: page 0 of my balance history (members only: the route sends visitors to log in). */
export async function loader({ context }: LoaderFunctionArgs): Promise<{ page: Paged<BalanceLedgerRow> }> {
  const r = await apiFrom(context).payments.balanceHistory({ pagenum: 0, pagesize: BALANCE_HISTORY_PAGE_SIZE });
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return { page: r.data };
}

/**
 * /mine/balanceHistory (spec §2 "balance change history", decision 021): my balance now (the newest
 * change's balance after it), then every change, newest first, paged as I scroll.
 */
export default function BalanceHistoryScreen() {
  const { page } = useLoaderData() as { page: Paged<BalanceLedgerRow> };
  const now = page.list[0]?.balanceAfterCents ?? 0;
  return (
    <div className="pt-3 pb-6" data-balance-history>
      <p className="mx-4 mb-3 rounded-xl bg-white px-4 py-3">
        <span className="block text-sm text-black/60">
          <Trans>当前余额</Trans>
        </span>
        <span className="block text-2xl font-semibold tabular-nums" data-balance-now>
          {formatYuan(now)}
        </span>
      </p>
      <PagedList
        name="balance-history"
        className="mx-4 divide-y divide-black/5 overflow-hidden rounded-xl"
        first={page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().payments.balanceHistory({ pagenum, pagesize })}
        itemKey={(r) => r.id}
        row={(r) => <BalanceHistoryRow row={r} />}
        empty={<EmptyList name="balance-history" message={<Trans>还没有余额变动记录</Trans>} />}
      />
    </div>
  );
}
