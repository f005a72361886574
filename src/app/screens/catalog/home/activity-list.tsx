import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { Activity } from '../../../../api/catalog';
import { shanghaiDateSpan } from '../../../../domain/time';

/** The Homepage's three activities (GET /activity/goods, page 0 of 3). */
export function ActivityList(props: { activities: Activity[] }) {
  if (props.activities.length === 0) return null;
  return (
    <section className="mt-4" aria-labelledby="home-activities">
      <h2 id="home-activities" className="px-4 pb-2 text-base font-semibold">
        <Trans>精彩活动</Trans>
      </h2>
      <ul className="space-y-3 px-4">
        {props.activities.map((a) => (
          <li key={a.id}>
            <Link
              to={`/activity/activityDdetail?id=${a.id}`}
              className="block overflow-hidden rounded-xl bg-white active:opacity-80"
              data-activity={a.id}
            >
              <img
                src={a.image}
                alt=""
                width={690}
                height={360}
                loading="lazy"
                decoding="async"
                className="block aspect-[690/360] h-auto w-full bg-black/5 object-cover"
              />
              <span className="block px-3 py-2.5">
                <span className="block truncate font-semibold">{a.title}</span>
                <span className="mt-0.5 line-clamp-2 block text-sm text-black/60">{a.summary}</span>
                <span className="mt-1 block text-xs text-black/60 tabular-nums">{shanghaiDateSpan(a.startsAt, a.endsAt)}</span>
              </span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
