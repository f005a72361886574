import { Trans } from '@lingui/react/macro';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { Activity } from '../../../api/catalog';
import type { Paged } from '../../../domain/envelope';
import { shanghaiDateSpan } from '../../../domain/time';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { EmptyList, PagedList } from '../../ui/paged-list';

const PAGE_SIZE = 10;

/** /activity and /activeList: page 0 of the chain's live activities. */
export async function loader({ context }: LoaderFunctionArgs): Promise<{ page: Paged<Activity> }> {
  const r = await apiFrom(context).catalog.activities({ pagenum: 0, pagesize: PAGE_SIZE });
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { page: r.data };
}

function ActivityRow({ a }: { a: Activity }) {
  return (
    <Link
      to={`/activity/activityDdetail?id=${a.id}`}
      className="flex gap-3 rounded-xl bg-white p-3 active:opacity-80"
      data-activity-row={a.id}
    >
      <img
        src={a.image}
        alt=""
        width={96}
        height={64}
        loading="lazy"
        decoding="async"
        className="h-16 w-24 shrink-0 rounded-lg bg-black/5 object-cover"
      />
      <div className="min-w-0 flex-1">
        <p className="truncate font-semibold">{a.title}</p>
        <p className="line-clamp-2 text-xs text-black/60">{a.summary}</p>
        <p className="mt-1 flex justify-between text-xs text-black/60 tabular-nums">
          <span>{shanghaiDateSpan(a.startsAt, a.endsAt)}</span>
          {a.places !== null ? (
            <span className="text-primary" data-takes-signup>
              <Trans>报名中</Trans>
            </span>
          ) : null}
        </p>
      </div>
    </Link>
  );
}

/**
 * /activity and /activeList (decision 033): the chain's current and coming activities,
 * paged as they scroll (the pager chart); those taking sign-ups are marked; each opens its detail.
 */
export default function ActivityListScreen() {
  const { page } = useLoaderData() as { page: Paged<Activity> };
  return (
    <div className="px-4 pt-3 pb-6" data-activity-list>
      <PagedList
        name="activities"
        first={page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().catalog.activities({ pagenum, pagesize })}
        itemKey={(a) => a.id}
        row={(a) => <ActivityRow a={a} />}
        empty={<EmptyList name="activities" message={<Trans>暂时没有活动</Trans>} />}
      />
    </div>
  );
}
