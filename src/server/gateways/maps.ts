import { REQUEST_TIMEOUT_MS } from '../../domain/limits';
import type { Config } from '../config';
import type { LatLng, MapsGateway } from './index';

const EARTH_RADIUS_M = 6_371_008.8;

/** Great-circle distance in metres (haversine). */
export function greatCircleMetres(a: LatLng, b: LatLng): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h))));
}

/** The local maps adapter: straight-line distance, no provider needed. */
export function localMaps(): MapsGateway {
  return { distances: async (from, to) => to.map((p) => greatCircleMetres(from, p)) };
}

export const TENCENT_MATRIX_URL = 'https://apis.map.qq.com/ws/distance/v1/matrix';
/** The provider's limit for one origin: at most 200 destinations per request. */
export const TENCENT_MAX_DESTINATIONS = 200;

export interface TencentMapsOptions {
  key: string;
  /** driving (default), walking or bicycling */
  mode?: 'driving' | 'walking' | 'bicycling';
  /** injectable for tests; the global fetch otherwise */
  fetch?: typeof fetch;
  timeoutMs?: number;
  baseUrl?: string;
}

interface TencentMatrixAnswer {
  status: number;
  message?: string;
  result?: { rows?: { elements?: { distance?: number; duration?: number }[] }[] };
}

/** Coordinates as the provider wants them: "lat,lng" with 6 decimals (about 0.1 m). */
const point = (p: LatLng) => `${p.lat.toFixed(6)},${p.lng.toFixed(6)}`;

/** The request for one origin to many destinations (distance matrix, one row). */
export function tencentMatrixUrl(opts: Pick<TencentMapsOptions, 'key' | 'mode' | 'baseUrl'>, from: LatLng, to: LatLng[]): string {
  const url = new URL(opts.baseUrl ?? TENCENT_MATRIX_URL);
  url.searchParams.set('mode', opts.mode ?? 'driving');
  url.searchParams.set('from', point(from));
  url.searchParams.set('to', to.map(point).join(';'));
  url.searchParams.set('key', opts.key);
  return url.toString();
}

/**
 * Tencent Maps WebService distance matrix (GET /ws/distance/v1/matrix): road distance from one
 * point to each destination, in order. Throws on a transport error, a non-zero status or a short
 * answer; the caller decides the fallback. A destination the provider cannot route (-1) is reported
 * as the straight-line distance so the list stays complete.
 */
export function tencentMaps(opts: TencentMapsOptions): MapsGateway {
  const doFetch = opts.fetch ?? fetch;
  return {
    async distances(from, to) {
      const out: number[] = [];
      for (let i = 0; i < to.length; i += TENCENT_MAX_DESTINATIONS) {
        const chunk = to.slice(i, i + TENCENT_MAX_DESTINATIONS);
        const res = await doFetch(tencentMatrixUrl(opts, from, chunk), {
          method: 'GET',
          headers: { accept: 'application/json' },
          signal: AbortSignal.timeout(opts.timeoutMs ?? REQUEST_TIMEOUT_MS),
        });
        if (!res.ok) throw new Error(`tencent maps: HTTP ${res.status}`);
        const body = (await res.json()) as TencentMatrixAnswer;
        if (body.status !== 0) throw new Error(`tencent maps: status ${body.status} ${body.message ?? ''}`.trim());
        const elements = body.result?.rows?.[0]?.elements ?? [];
        if (elements.length !== chunk.length)
          throw new Error(`tencent maps: ${elements.length} distances for ${chunk.length} destinations`);
        elements.forEach((e, j) => {
          const d = e.distance;
          out.push(typeof d === 'number' && d >= 0 ? Math.round(d) : greatCircleMetres(from, chunk[j]!));
        });
      }
      return out;
    },
  };
}

/** Picks the adapter from config.maps: Tencent with a key, else the local straight-line one. */
export function createMapsGateway(config: Config, fetchImpl?: typeof fetch): MapsGateway {
  if (config.maps.provider === 'tencent') {
    if (!config.maps.tencentKey) throw new Error('maps provider tencent needs TENCENT_MAPS_KEY');
    return tencentMaps({ key: config.maps.tencentKey, fetch: fetchImpl });
  }
  return localMaps();
}
