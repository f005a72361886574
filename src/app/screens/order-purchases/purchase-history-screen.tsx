import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { Purchase } from '../../../api/cards';
import { shanghaiClock, shanghaiDate } from '../../../domain/time';
import { dictLabel, GOODS_KINDS } from '../../../domain/catalog';
import type { Paged } from '../../../domain/envelope';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { EmptyList, PagedList } from '../../ui/paged-list';
import { MoneyBreakdown } from '../../ui/money-breakdown';

const PAGE_SIZE = 10;

/** /myPurchaseHistory: page 0 of my paid orders (members only: the route sends visitors to log in). */
export async function loader({ context }: LoaderFunctionArgs): Promise<{ page: Paged<Purchase> }> {
  const r = await apiFrom(context).cards.purchases({ pagenum: 0, pagesize: PAGE_SIZE });
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return { page: r.data };
}

/** One paid order: what was bought, when, and its money (each payer's line, decision 101); it opens the order. */
function PurchaseRow(props: { p: Purchase }) {
  const { i18n } = useLingui();
  const p = props.p;
  const kind = GOODS_KINDS.find((k) => k.value === p.goodsKind);
  return (
    <Link
      to={`/orderdetail?orderNo=${encodeURIComponent(p.orderNo)}`}
      className="block rounded-xl bg-white p-3 active:opacity-80"
      data-purchase={p.orderNo}
    >
      <div className="flex gap-3">
        <img
          src={p.image}
          alt=""
          width={64}
          height={64}
          loading="lazy"
          decoding="async"
          className="h-16 w-16 shrink-0 rounded-lg bg-black/5 object-cover"
        />
        <div className="min-w-0 flex-1">
          <p className="flex items-center gap-2">
            <span className="truncate font-semibold" data-purchase-name>
              {p.goodsName}
            </span>
            {kind && (
              <span className="shrink-0 rounded bg-primary/10 px-1.5 py-0.5 text-xs text-primary">
                {dictLabel(kind, i18n.locale === 'en' ? 'en' : 'zh')}
              </span>
            )}
          </p>
          {(p.phaseName || p.teacherName) && (
            <p className="truncate text-xs text-black/60">{[p.phaseName, p.teacherName].filter(Boolean).join(' · ')}</p>
          )}
          <p className="text-xs text-black/60 tabular-nums">
            {p.paidAt ? `${shanghaiDate(p.paidAt)} ${shanghaiClock(new Date(p.paidAt))}` : null}
          </p>
          <p className="truncate text-xs text-black/60 tabular-nums">
            <Trans>订单号 {p.orderNo}</Trans>
          </p>
        </div>
      </div>
      <MoneyBreakdown money={p.money} className="mt-2 border-t border-black/5 pt-2" />
    </Link>
  );
}

/** /myPurchaseHistory (spec §2 history): my paid orders, newest first, with what each cost. */
export default function PurchaseHistoryScreen() {
  const { page } = useLoaderData() as { page: Paged<Purchase> };
  return (
    <div className="pt-3 pb-6" data-purchase-history>
      <PagedList
        name="purchases"
        first={page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().cards.purchases({ pagenum, pagesize })}
        itemKey={(p) => p.orderNo}
        row={(p) => <PurchaseRow p={p} />}
        empty={
          <EmptyList
            name="purchases"
            message={<Trans>还没有购买记录</Trans>}
            action={
              <Button large rounded component={Link} {...{ to: '/vipcard?tab=shop' }}>
                <Trans>去购买会员卡</Trans>
              </Button>
            }
          />
        }
      />
    </div>
  );
}
