import { useLingui } from '@lingui/react';
import { Trans } from '@lingui/react/macro';
import { Button } from 'konsta/react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { MemberCourse } from '../../../api/cards';
import { dictLabel, GOODS_KINDS } from '../../../domain/catalog';
import { lastValidDay, shanghaiDateSpan } from '../../../domain/time';
import type { Paged } from '../../../domain/envelope';
import { apiFrom, browserApiOrThrow } from '../../api-context';
import { EmptyList, PagedList } from '../../ui/paged-list';
import { courseUsesLeft } from './purchase-rules';

const PAGE_SIZE = 10;

/** /mycourse: page 0 of my courses (members only: the route sends visitors to log in). */
export async function loader({ context }: LoaderFunctionArgs): Promise<{ page: Paged<MemberCourse> }> {
  const r = await apiFrom(context).cards.courses({ pagenum: 0, pagesize: PAGE_SIZE });
  if (r.code !== 200) throw new Response(null, { status: r.code === 401 ? 401 : 503 });
  return { page: r.data };
}

/** One course I bought: what it is, with whom or which phase, when, and the uses left. */
function CourseRow(props: { c: MemberCourse }) {
  const { i18n } = useLingui();
  const c = props.c;
  const kind = GOODS_KINDS.find((k) => k.value === c.kind);
  const uses = courseUsesLeft(c);
  return (
    <div className="flex gap-3 rounded-xl bg-white p-3" data-my-course={c.id} data-uses-left={c.usesLeft ?? ''}>
      <img
        src={c.image}
        alt=""
        width={96}
        height={64}
        loading="lazy"
        decoding="async"
        className="h-16 w-24 shrink-0 rounded-lg bg-black/5 object-cover"
      />
      <div className="min-w-0 flex-1">
        <p className="flex items-center gap-2">
          <span className="truncate font-semibold">{c.name}</span>
          {kind && (
            <span className="shrink-0 rounded bg-primary/10 px-1.5 py-0.5 text-xs text-primary">
              {dictLabel(kind, i18n.locale === 'en' ? 'en' : 'zh')}
            </span>
          )}
        </p>
        <p className="truncate text-xs text-black/60 tabular-nums">
          {[c.phaseName, c.teacherName, c.clubName, c.startsAt && c.endsAt ? shanghaiDateSpan(c.startsAt, c.endsAt) : null]
            .filter(Boolean)
            .join(' · ')}
        </p>
        <p className="mt-1 flex justify-between gap-2 text-sm tabular-nums">
          <span className={c.status === 'active' ? 'text-primary' : 'text-black/60'} data-course-status={c.status}>
            {c.status === 'expired' ? (
              <Trans>已过期</Trans>
            ) : c.status === 'used_up' ? (
              <Trans>已用完</Trans>
            ) : uses ? (
              <Trans>
                剩余{uses.left}/{uses.total}次
              </Trans>
            ) : (
              <Trans>不限次数</Trans>
            )}
          </span>
          {c.validUntil && (
            <span className="text-xs text-black/60">
              <Trans>有效期至{lastValidDay(c.validUntil)}</Trans>
            </span>
          )}
        </p>
      </div>
    </div>
  );
}

/** /mycourse (spec §2 my courses, my goods): the courses I bought with the uses they have left. */
export default function MyCourseScreen() {
  const { page } = useLoaderData() as { page: Paged<MemberCourse> };
  return (
    <div className="pt-3 pb-6" data-my-courses>
      <PagedList
        name="my-courses"
        first={page}
        fetchPage={(pagenum, pagesize) => browserApiOrThrow().cards.courses({ pagenum, pagesize })}
        itemKey={(c) => c.id}
        row={(c) => <CourseRow c={c} />}
        empty={
          <EmptyList
            name="my-courses"
            message={<Trans>还没有购买课程</Trans>}
            action={
              <Button large rounded component={Link} {...{ to: '/greatworkshop' }}>
                <Trans>去看看课程</Trans>
              </Button>
            }
          />
        }
      />
      <p className="mt-6 text-center">
        <Link to="/myPurchaseHistory" className="inline-block text-sm text-primary">
          <Trans>购买记录</Trans>
        </Link>
      </p>
    </div>
  );
}
