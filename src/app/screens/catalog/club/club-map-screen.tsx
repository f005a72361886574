import { Trans, useLingui } from '@lingui/react/macro';
import { BlockTitle } from 'konsta/react';
import { useMemo, useState } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import type { Club } from '../../../../api/catalog';
import { byDistance, formatDistance } from '../../../../domain/distance';
import { apiFrom } from '../../../api-context';
import { useClubDistances } from '../../../ui/use-club-distances';
import { bridgeHost } from '../../orders/wechat-bridge';
import { ClubRow, LocateHint } from './club-row';
import { lightMap } from './map-projection';

export async function loader({ context }: LoaderFunctionArgs) {
  const r = await apiFrom(context).catalog.clubs();
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { clubs: r.data };
}

/** The map provider's own page for a point (Tencent Maps' marker URI): navigation outside the messaging app. */
export const markerUri = (c: Club) =>
  `https://apis.map.qq.com/uri/v1/marker?marker=${encodeURIComponent(`coord:${c.lat},${c.lng};title:${c.name};addr:${c.address}`)}&referer=yoga-club`;

/** The messaging app's bridge as the map uses it: its own map, navigating from where the member is. */
interface LocationBridge {
  invoke(
    name: 'openLocation',
    params: { latitude: number; longitude: number; name: string; address: string; scale: number },
    callback: (res: { err_msg?: string }) => void,
  ): void;
}

/**
 * Navigation to a club: inside the messaging app its own map opens on the club (openLocation through
 * the page's bridge), with the route from where the member is; elsewhere the map provider's page.
 */
function Navigate(props: { club: Club }) {
  const { club } = props;
  return (
    <a
      href={markerUri(club)}
      target="_blank"
      rel="noopener noreferrer"
      data-navigate={club.id}
      className="inline-flex items-center rounded-full bg-primary px-4 text-white"
      onClick={(e) => {
        const bridge = ((bridgeHost() ?? window) as unknown as { WeixinJSBridge?: LocationBridge }).WeixinJSBridge;
        if (!bridge) return;
        e.preventDefault();
        bridge.invoke(
          'openLocation',
          { latitude: club.lat, longitude: club.lng, name: club.name, address: club.address, scale: 16 },
          () => {},
        );
      }}
    >
      <Trans>导航</Trans>
    </a>
  );
}

/**
 * /map (spec §2): the chain's clubs on a map the app draws from their coordinates (decision 039),
 * numbered as in the list below it (nearest first once the member is located). A tap on a marker
 * shows that club with its distance and a way to navigate there.
 */
export default function ClubMapScreen() {
  const { clubs } = useLoaderData<typeof loader>();
  const { t } = useLingui();
  const { distances, state, locate, retry } = useClubDistances();
  const sorted = useMemo(() => (distances ? byDistance(clubs, (c) => distances.get(c.id)) : clubs), [clubs, distances]);
  const map = useMemo(() => lightMap(sorted), [sorted]);
  const [chosenId, setChosenId] = useState<number | null>(null);
  const chosen = sorted.find((c) => c.id === chosenId) ?? null;

  return (
    <>
      <BlockTitle>
        <Trans>门店地图（{clubs.length}）</Trans>
      </BlockTitle>
      <div
        className="relative mx-4 overflow-hidden rounded-xl border border-black/10 bg-[#eef3ea]"
        style={{ paddingTop: `${Math.round(map.aspect * 10_000) / 100}%` }}
        role="group"
        aria-label={t`门店地图`}
        data-club-map
      >
        {/* a light grid: the map is drawn by the app, no provider's tiles */}
        <svg className="absolute inset-0 h-full w-full" aria-hidden="true" preserveAspectRatio="none" viewBox="0 0 100 100">
          {[20, 40, 60, 80].map((v) => (
            <g key={v} stroke="rgba(0,0,0,0.07)" strokeWidth="0.4">
              <line x1={v} y1="0" x2={v} y2="100" />
              <line x1="0" y1={v} x2="100" y2={v} />
            </g>
          ))}
        </svg>
        <span className="absolute top-1 right-2 text-xs text-black/60" aria-hidden="true">
          <Trans>北</Trans> ↑
        </span>
        {sorted.map((c, i) => {
          const spot = map.spots[i]!;
          const on = c.id === chosenId;
          return (
            <button
              key={c.id}
              type="button"
              data-map-marker={c.id}
              aria-pressed={on}
              aria-label={c.name}
              onClick={() => setChosenId(c.id)}
              className="absolute flex h-11 w-11 -translate-x-1/2 -translate-y-1/2 items-center justify-center"
              style={{ left: `${spot.left}%`, top: `${spot.top}%`, zIndex: on ? 2 : 1 }}
            >
              <span
                className={`flex h-7 w-7 items-center justify-center rounded-full text-sm font-semibold shadow ${on ? 'scale-125 bg-primary text-white' : 'bg-white text-primary'}`}
              >
                {i + 1}
              </span>
            </button>
          );
        })}
      </div>
      {chosen ? (
        <div className="mx-4 mt-3 flex items-center gap-3 rounded-xl bg-white p-3" data-map-chosen={chosen.id}>
          <span className="min-w-0 flex-1">
            <span className="block truncate font-semibold">{chosen.name}</span>
            <span className="block truncate text-sm text-black/60">{chosen.address}</span>
            {distances?.get(chosen.id) !== undefined && (
              <span className="block text-xs text-black/60 tabular-nums">{formatDistance(distances.get(chosen.id))}</span>
            )}
          </span>
          <Navigate club={chosen} />
        </div>
      ) : (
        <p className="mx-4 mt-3 text-sm text-black/60">
          <Trans>点地图上的编号查看门店</Trans>
        </p>
      )}
      <LocateHint state={state} onLocate={locate} onRetry={retry} />
      <ol className="divide-y divide-black/5 bg-white">
        {sorted.map((c) => (
          <ClubRow key={c.id} club={c} distance={distances?.get(c.id)} />
        ))}
      </ol>
    </>
  );
}
