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

export function createMapsGateway(config: Config): MapsGateway {
  void config;
  return localMaps();
}
