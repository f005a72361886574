import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { SearchResult } from '../../../../api/catalog';
import { GoodsPrice } from '../../../ui/goods-price';
import { ClubRow } from '../club/club-row';
import { StateBadge } from '../../booking/class-row';
import { shanghaiClock, shanghaiMonthDay } from '../../../../domain/time';

const heading = 'px-4 pt-3 pb-1 text-sm font-semibold text-black/60';

/**
 * What the Homepage search found. Prices: the list price for everyone, the member price only when
 * the server sent it (with a valid token, spec §1).
 */
export function SearchResults(props: { keywords: string; result: SearchResult | null }) {
  const { keywords, result } = props;
  const empty =
    !result || result.classes.length + result.clubs.length + result.teachers.length + result.goods.length + result.activities.length === 0;
  return (
    <section className="mx-4 mt-3 overflow-hidden rounded-xl bg-white pb-2" aria-labelledby="home-search">
      <div className="flex items-center justify-between px-4 pt-3">
        <h2 id="home-search" className="min-w-0 truncate text-base font-semibold">
          <Trans>“{keywords}”的搜索结果</Trans>
        </h2>
        <Link to="/" className="shrink-0 text-sm text-primary">
          <Trans>清除</Trans>
        </Link>
      </div>
      {empty && (
        <p className="px-4 py-6 text-center text-sm text-black/60">
          <Trans>没有找到相关内容，换个关键词试试</Trans>
        </p>
      )}
      {result && result.classes.length > 0 && (
        <>
          <h3 className={heading}>
            <Trans>课程</Trans>
          </h3>
          <ul>
            {result.classes.map((c) => (
              <li key={c.id}>
                <Link
                  to={`/takecourse/bookcourse/bookcoursedetail?id=${c.id}`}
                  className="flex min-h-11 items-center gap-3 px-4 py-2 active:bg-black/5"
                  data-search-class={c.id}
                >
                  <span className="w-14 shrink-0 text-center text-xs tabular-nums text-black/60">
                    <span className="block">{shanghaiMonthDay(c.startsAt)}</span>
                    <span className="block text-sm font-semibold text-black">{shanghaiClock(new Date(c.startsAt))}</span>
                  </span>
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm font-medium">{c.title}</span>
                    <span className="block truncate text-xs text-black/60">{[c.teacherName, c.clubName].filter(Boolean).join(' · ')}</span>
                  </span>
                  <StateBadge state={c.state} />
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      {result && result.clubs.length > 0 && (
        <>
          <h3 className={heading}>
            <Trans>门店</Trans>
          </h3>
          <ul className="divide-y divide-black/5">
            {result.clubs.map((c) => (
              <ClubRow key={c.id} club={c} />
            ))}
          </ul>
        </>
      )}
      {result && result.teachers.length > 0 && (
        <>
          <h3 className={heading}>
            <Trans context="search results">导师</Trans>
          </h3>
          <ul>
            {result.teachers.map((t) => (
              <li key={t.id}>
                <Link to={`/tutor/tutorDetail/${t.id}`} className="flex items-center gap-3 px-4 py-2 active:bg-black/5">
                  <img src={t.photo} alt="" width={40} height={40} loading="lazy" className="h-10 w-10 rounded-full bg-black/5" />
                  <span className="min-w-0 flex-1 truncate">{t.name}</span>
                  <span className="shrink-0 text-xs text-black/60">{t.clubName}</span>
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
      {result && result.goods.length > 0 && (
        <>
          <h3 className={heading}>
            <Trans>商品</Trans>
          </h3>
          <ul>
            {result.goods.map((g) => (
              <li key={g.id} className="flex items-center gap-3 px-4 py-2">
                <img
                  src={g.image}
                  alt=""
                  width={60}
                  height={38}
                  loading="lazy"
                  className="h-[38px] w-[60px] rounded bg-black/5 object-cover"
                />
                <span className="min-w-0 flex-1 truncate text-sm">{g.name}</span>
                <span className="shrink-0 text-right">
                  <GoodsPrice listPriceCents={g.listPriceCents} memberPriceCents={g.memberPriceCents} />
                </span>
              </li>
            ))}
          </ul>
        </>
      )}
      {result && result.activities.length > 0 && (
        <>
          <h3 className={heading}>
            <Trans>活动</Trans>
          </h3>
          <ul>
            {result.activities.map((a) => (
              <li key={a.id}>
                <Link to={`/activity/activityDdetail?id=${a.id}`} className="block truncate px-4 py-2 text-sm active:bg-black/5">
                  {a.title}
                </Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
