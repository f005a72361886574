import { Trans } from '@lingui/react/macro';
import { Link, useLoaderData } from 'react-router-dom';
import { browserApiOrThrow } from '../../api-context';
import { NotFoundState } from '../../ui/not-found-state';
import { PagedList } from '../../ui/paged-list';
import { cardDetailLoader, type CardDetailData } from './card-detail-data';
import { CardHeader } from './card-header';
import { CardHistoryRow, HISTORY_LIST_CLASS, historyKey, NoCardHistory } from './card-history-row';
import { myCardPath } from './my-card-row';

/** History lines per page. */
const HISTORY_PAGE_SIZE = 20;

export const loader = cardDetailLoader(HISTORY_PAGE_SIZE);

/** /mine/CardDetailPage?id=: one card's whole history (bought, activated, each class), newest first, paged. */
export default function CardHistoryScreen() {
  const { card, status, history } = useLoaderData() as CardDetailData;
  if (!card || !status)
    return <NotFoundState message={<Trans>没有找到这张会员卡</Trans>} backTo="/vipcard?tab=mine" backLabel={<Trans>我的会员卡</Trans>} />;
  return (
    <article className="pb-6" data-card-history-page={card.id}>
      <CardHeader card={card} status={status} />
      {history ? (
        <PagedList
          name="card-history"
          className={HISTORY_LIST_CLASS}
          first={history}
          fetchPage={(pagenum, pagesize) => browserApiOrThrow().cards.cardHistory({ id: card.id, pagenum, pagesize })}
          itemKey={historyKey}
          row={(h) => <CardHistoryRow item={h} />}
          empty={<NoCardHistory />}
        />
      ) : (
        <p className="py-6 text-center text-sm text-black/60">
          <Trans>使用记录加载失败，请稍后再试</Trans>
        </p>
      )}
      <p className="mt-4 text-center">
        <Link to={myCardPath(card.id)} className="text-sm text-primary">
          <Trans>查看会员卡详情</Trans>
        </Link>
      </p>
    </article>
  );
}
