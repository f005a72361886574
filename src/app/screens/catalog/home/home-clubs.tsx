import { Trans } from '@lingui/react/macro';
import { useMemo } from 'react';
import { Link } from 'react-router-dom';
import type { Club } from '../../../../api/catalog';
import { byDistance } from '../../../../domain/distance';
import { useClubDistances } from '../../../ui/use-club-distances';
import { ClubRow, LocateHint } from '../club/club-row';

/** The Homepage's clubs: rendered on the server, distances added once the position is known. */
export function HomeClubs(props: { clubs: Club[] }) {
  const { distances, state, locate, retry } = useClubDistances();
  const sorted = useMemo(() => (distances ? byDistance(props.clubs, (c) => distances.get(c.id)) : props.clubs), [props.clubs, distances]);
  if (props.clubs.length === 0) return null;
  return (
    <section className="mx-4 mt-4 overflow-hidden rounded-xl bg-white" aria-labelledby="home-clubs">
      <div className="flex items-center justify-between px-4 pt-3">
        <h2 id="home-clubs" className="text-base font-semibold">
          <Trans>附近门店</Trans>
        </h2>
        <Link to="/club" className="text-sm text-primary">
          <Trans>全部门店</Trans> ›
        </Link>
      </div>
      <LocateHint state={state} onLocate={locate} onRetry={retry} />
      <ul className="divide-y divide-black/5">
        {sorted.map((c) => (
          <ClubRow key={c.id} club={c} distance={distances?.get(c.id)} />
        ))}
      </ul>
    </section>
  );
}
