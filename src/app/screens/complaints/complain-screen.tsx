import { Trans } from '@lingui/react/macro';
import { Block, BlockTitle, Button } from 'konsta/react';
import { Link, type LoaderFunctionArgs, useLoaderData, useLocation } from 'react-router-dom';
import type { MyComplaint } from '../../../api/complaints';
import { shanghaiFormat } from '../../../domain/time';
import { apiFrom } from '../../api-context';
import { parseId } from '../../ui/data-or';
import { NotFoundState } from '../../ui/not-found-state';
import { useStableRevalidate } from '../../ui/use-stable-revalidate';
import { ComplaintBadges } from './complaint-badges';
import { ComplaintView } from './complaint-view';

interface ComplainData {
  /** null: the server could not be reached */
  list: MyComplaint[] | null;
  /** ?id= asked for one */
  openId: number | null;
}

export async function loader({ context, request }: LoaderFunctionArgs): Promise<ComplainData> {
  const openId = parseId(new URL(request.url).searchParams.get('id'));
  try {
    const r = await apiFrom(context).complaints.mine();
    return { list: r.code === 200 ? r.data : null, openId };
  } catch {
    return { list: null, openId };
  }
}

/**
 * /complain (requiresLogin): my complaints, newest first, each replied or not and satisfied or not
 * (spec §3); /complain?id= opens one (its reply, and whether I am satisfied). Writing one is
 * /complain/createcomplain.
 */
export default function ComplainScreen() {
  const { list, openId } = useLoaderData() as ComplainData;
  const revalidate = useStableRevalidate();
  const { search } = useLocation();
  if (list === null)
    return (
      <Block className="text-center text-sm" role="alert">
        <p className="text-rose-600">
          <Trans>网络无法连接</Trans>
        </p>
        <Button rounded inline className="mx-auto mt-2" onClick={revalidate}>
          <Trans>重试</Trans>
        </Button>
      </Block>
    );
  if (openId !== null) {
    const one = list.find((c) => c.id === openId);
    if (!one) return <NotFoundState message={<Trans>没有找到这条投诉</Trans>} backTo="/complain" backLabel={<Trans>我的投诉</Trans>} />;
    // a new actor per complaint (and per visit): it starts where the server says the complaint is
    return <ComplaintView key={`${one.id}${search}`} complaint={one} clubs={[]} />;
  }
  return (
    <article className="pb-6" data-complaint-list>
      <BlockTitle>
        <Trans>我的投诉</Trans>
      </BlockTitle>
      {list.length === 0 ? (
        <p className="p-6 text-center text-sm text-black/60">
          <Trans>您还没有投诉</Trans>
        </p>
      ) : (
        <ul className="mx-4 divide-y divide-black/5 rounded-xl bg-white">
          {list.map((c) => (
            <li key={c.id} data-complaint-row={c.id}>
              <Link to={`/complain?id=${c.id}`} className="block p-3 text-sm">
                <ComplaintBadges complaint={c} />
                <p className="line-clamp-2">{c.content}</p>
                <p className="text-xs text-black/60">{shanghaiFormat(new Date(c.createdAt), 'YYYY-MM-DD HH:mm')}</p>
              </Link>
            </li>
          ))}
        </ul>
      )}
      <Block>
        <Button large rounded component={Link} {...{ to: '/complain/createcomplain' }}>
          <Trans>我要投诉</Trans>
        </Button>
      </Block>
    </article>
  );
}
