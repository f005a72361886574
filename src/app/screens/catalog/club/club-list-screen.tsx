import { Trans } from '@lingui/react/macro';
import { BlockTitle } from 'konsta/react';
import { useMemo } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router-dom';
import { byDistance } from '../../../../domain/distance';
import { apiFrom } from '../../../api-context';
import { useClubDistances } from '../../../ui/use-club-distances';
import { ClubRow, LocateHint } from './club-row';

export async function loader({ context }: LoaderFunctionArgs) {
  const r = await apiFrom(context).catalog.clubs();
  if (r.code !== 200) throw new Response(null, { status: 503 });
  return { clubs: r.data };
}

/** /club: every club of the chain, nearest first once the member's position is known. */
export default function ClubListScreen() {
  const { clubs } = useLoaderData<typeof loader>();
  const { distances, state, locate, retry } = useClubDistances();
  const sorted = useMemo(() => (distances ? byDistance(clubs, (c) => distances.get(c.id)) : clubs), [clubs, distances]);

  return (
    <>
      <BlockTitle className="flex items-center justify-between">
        <Trans>全部门店（{clubs.length}）</Trans>
        <Link to="/map" className="inline-flex items-center text-sm font-normal text-primary" data-map-link>
          <Trans>地图</Trans>
        </Link>
      </BlockTitle>
      <LocateHint state={state} onLocate={locate} onRetry={retry} />
      <ul className="divide-y divide-black/5 bg-white">
        {sorted.map((c) => (
          <ClubRow key={c.id} club={c} distance={distances?.get(c.id)} />
        ))}
      </ul>
      {clubs.length === 0 && (
        <p className="p-8 text-center text-black/60">
          <Trans>暂无门店</Trans>
        </p>
      )}
    </>
  );
}
