/** A point on the earth, in degrees. */
export interface LatLng {
  lat: number;
  lng: number;
}

/** Where a point sits on the drawn map: percentages of its width and height from the top left. */
export interface MapSpot {
  left: number;
  top: number;
}

/** The drawn map: each point's spot, and the height the map needs for its width (a ratio). */
export interface LightMap {
  spots: MapSpot[];
  /** height / width of the drawn area, kept between 0.5 and 1.2 (a phone screen's map card) */
  aspect: number;
}

/** Space kept around the outermost points, as a share of the drawn area (markers stay whole). */
const PAD = 0.12;

/**
 * The clubs' positions on a map the app draws itself (decision 039: no map provider's key needed).
 * An equirectangular projection around the points' middle latitude (east-west degrees shrink by its
 * cosine), which is exact enough across one city; north is up. Points at one place, or a single
 * point, sit in the middle.
 */
export function lightMap(points: readonly LatLng[]): LightMap {
  if (points.length === 0) return { spots: [], aspect: 0.75 };
  const lats = points.map((p) => p.lat);
  const lngs = points.map((p) => p.lng);
  const [south, north] = [Math.min(...lats), Math.max(...lats)];
  const [west, east] = [Math.min(...lngs), Math.max(...lngs)];
  const shrink = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const width = (east - west) * shrink;
  const height = north - south;
  const aspect = Math.min(1.2, Math.max(0.5, width === 0 ? 0.75 : height / width));
  // the points' extent fitted into the drawn area (its aspect may have been clamped), centred
  const spanX = Math.max(width, height / aspect);
  const spanY = spanX * aspect;
  const at = (value: number, low: number, span: number, extent: number) =>
    span === 0 ? 50 : 100 * (PAD + (1 - 2 * PAD) * ((value - low) / span + (span - extent) / (2 * span)));
  // to a hundredth of a percent: the server's HTML and the app's render write the same style
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    aspect,
    spots: points.map((p) => ({
      left: round(at((p.lng - west) * shrink, 0, spanX, width)),
      top: round(at(north - p.lat, 0, spanY, height)),
    })),
  };
}
