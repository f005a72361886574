import { useCallback, useEffect, useState } from 'react';
import { browserApiOrThrow } from '../api-context';

export type LocateState = 'idle' | 'locating' | 'located' | 'denied' | 'unavailable';

/** Distances already fetched in this page's life: going Home → clubs does not ask again. */
let kept: Map<number, number> | undefined;

const GEO_OPTIONS: PositionOptions = { enableHighAccuracy: false, timeout: 8000, maximumAge: 10 * 60_000 };

/**
 * Metres from the member to each club (spec §2 "clubs with distance"). Never blocks the screen: the
 * list renders first; if the browser already granted geolocation the distances come in by
 * themselves, otherwise `locate()` (a tap) asks for the position.
 */
export function useClubDistances() {
  const [distances, setDistances] = useState<Map<number, number> | undefined>(kept);
  const [state, setState] = useState<LocateState>(kept ? 'located' : 'idle');

  const locate = useCallback(() => {
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      setState('unavailable');
      return;
    }
    setState('locating');
    navigator.geolocation.getCurrentPosition(
      async (pos) => {
        try {
          const r = await browserApiOrThrow().catalog.clubDistances({ lat: pos.coords.latitude, lng: pos.coords.longitude });
          if (r.code !== 200) throw new Error(String(r.code));
          kept = new Map(r.data.map((d) => [d.id, d.distance]));
          setDistances(kept);
          setState('located');
        } catch {
          setState('unavailable');
        }
      },
      (err) => setState(err.code === err.PERMISSION_DENIED ? 'denied' : 'unavailable'),
      GEO_OPTIONS,
    );
  }, []);

  useEffect(() => {
    if (kept || typeof navigator === 'undefined' || !navigator.permissions?.query) return;
    let live = true;
    navigator.permissions
      .query({ name: 'geolocation' })
      .then((p) => {
        if (live && p.state === 'granted') locate();
      })
      .catch(() => {});
    return () => {
      live = false;
    };
  }, [locate]);

  return { distances, state, locate };
}
