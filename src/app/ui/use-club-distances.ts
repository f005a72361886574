import { useSelector } from '@xstate/react';
import { useMemo, useState } from 'react';
import { createActor, fromPromise, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import { catalogClubDistancesMachine, type GeoPermission, type Position } from '../../../machines/catalog-club-distances.machine';
import { browserApiOrThrow } from '../api-context';
import { useActorSlot, type ActorSlot } from '../shared-actors';

export type ClubDistancesActor = ActorRefFrom<typeof catalogClubDistancesMachine>;
export type LocateState = 'checking' | 'idle' | 'locating' | 'located' | 'denied' | 'unavailable';

const GEO_OPTIONS: PositionOptions = { enableHighAccuracy: false, timeout: 8000, maximumAge: 10 * 60_000 };

/** The browser's answer before asking: a browser without the Permissions API may still locate on a tap. */
async function geoPermission(): Promise<GeoPermission> {
  if (typeof navigator === 'undefined' || !navigator.permissions?.query) return 'prompt';
  return (await navigator.permissions.query({ name: 'geolocation' })).state;
}

/** The browser's position; fails with the browser's error (code 1: not allowed; 2 when it has no geolocation). */
function browserPosition(): Promise<Position> {
  return new Promise((resolve, reject) => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) return reject({ code: 2 });
    navigator.geolocation.getCurrentPosition((p) => resolve({ lat: p.coords.latitude, lng: p.coords.longitude }), reject, GEO_OPTIONS);
  });
}

/** The distances chart with the browser's geolocation and the API. */
function provided() {
  return catalogClubDistancesMachine.provide({
    actors: {
      checkPermission: fromPromise(geoPermission),
      position: fromPromise(browserPosition),
      fetchDistances: fromPromise(({ input }) => browserApiOrThrow().catalog.clubDistances(input)),
    },
  });
}

/**
 * The app's one distances actor (kept in its actor slot, so Home → clubs → a club does not ask
 * again); during server rendering, an unstarted one (the page renders without distances).
 */
function obtain(slot: ActorSlot<ClubDistancesActor> | null): ClubDistancesActor {
  if (typeof window === 'undefined' || !slot) return createActor(catalogClubDistancesMachine);
  slot.current ??= { actor: createActor(provided()).start() };
  return slot.current.actor;
}

/** What the locate line shows, from the chart's tags (an unstarted actor, in server rendering, shows nothing yet). */
const stateOf = (s: SnapshotFrom<typeof catalogClubDistancesMachine>): LocateState =>
  s.hasTag('offered')
    ? 'idle'
    : s.hasTag('locating')
      ? 'locating'
      : s.hasTag('located')
        ? 'located'
        : s.hasTag('denied')
          ? 'denied'
          : s.hasTag('unavailable')
            ? 'unavailable'
            : 'checking';

/**
 * Metres from the member to each club (spec §2 "clubs with distance"), from the catalogClubDistances chart
 * (machines/catalog-club-distances.machine.ts). Never blocks the screen: the list renders first.
 */
export function useClubDistances() {
  const slot = useActorSlot<ClubDistancesActor>('clubDistances');
  const [actor] = useState(() => obtain(slot));
  const state = useSelector(actor, stateOf);
  const list = useSelector(actor, (s) => s.context.distances);
  const distances = useMemo(() => (list ? new Map(list.map((d) => [d.id, d.distance])) : undefined), [list]);
  return {
    distances,
    state,
    locate: () => actor.send({ type: 'distances.locate' }),
    retry: () => actor.send({ type: 'distances.retry' }),
  };
}
