import { Trans } from '@lingui/react/macro';
import { Link } from 'react-router-dom';
import type { Club } from '../../../../api/catalog';
import { formatDistance } from '../../../../domain/distance';
import type { LocateState } from '../../../ui/use-club-distances';

/** One club in a list: cover, name, address, hours and, once known, how far it is. */
export function ClubRow(props: { club: Club; distance?: number }) {
  const { club } = props;
  const far = formatDistance(props.distance);
  return (
    <li>
      <Link to={`/club/detail?id=${club.id}`} className="flex gap-3 px-4 py-3 active:bg-black/5" data-club={club.id}>
        <img
          src={club.coverImage}
          alt=""
          width={96}
          height={54}
          loading="lazy"
          decoding="async"
          className="h-[54px] w-[96px] shrink-0 rounded-lg bg-black/5 object-cover"
        />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className="truncate font-semibold">{club.name}</span>
            {/* the space is kept even before the distance is known: no shift when it arrives */}
            <span className="shrink-0 text-xs text-black/60 tabular-nums" data-distance>
              {far}
            </span>
          </span>
          <span className="mt-0.5 block truncate text-sm text-black/60">{club.address}</span>
          <span className="mt-0.5 block text-xs text-black/60">
            <Trans>营业时间 {club.openingHours}</Trans>
          </span>
        </span>
      </Link>
    </li>
  );
}

/** The tap that asks for the member's position, and what became of it (the line keeps its height). */
export function LocateHint(props: { state: LocateState; onLocate: () => void; onRetry: () => void }) {
  const { state } = props;
  if (state === 'located') return null;
  const again = (
    <button type="button" onClick={props.onRetry} className="ml-2 text-primary">
      <Trans>重新定位</Trans>
    </button>
  );
  return (
    <p className="flex h-8 items-center px-4 text-xs text-black/60" data-locate={state}>
      {state === 'idle' && (
        <button type="button" onClick={props.onLocate} className="text-primary">
          <Trans>定位后显示离你多远</Trans>
        </button>
      )}
      {state === 'locating' && <Trans>正在定位…</Trans>}
      {state === 'denied' && (
        <>
          <Trans>未获得定位权限，无法显示距离</Trans>
          {again}
        </>
      )}
      {state === 'unavailable' && (
        <>
          <Trans>暂时无法获取位置</Trans>
          {again}
        </>
      )}
    </p>
  );
}
