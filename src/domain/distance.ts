/**
 * How far a club is, as the Homepage and the club list show it (spec §2 "clubs with distance"):
 * under 1 km in whole metres rounded to 10 m ("800 m"), from 1 km in km with one decimal ("1.2 km"),
 * from 100 km in whole km ("120 km"). Unknown or negative distances give an empty string.
 */
export function formatDistance(metres: number | null | undefined): string {
  if (metres == null || !Number.isFinite(metres) || metres < 0) return '';
  if (metres < 1000) {
    const m = Math.max(10, Math.round(metres / 10) * 10);
    // 995 m rounds to 1000 m: say 1.0 km instead
    if (m < 1000) return `${m} m`;
  }
  const km = metres / 1000;
  if (km < 100) return `${(Math.round(km * 10) / 10).toFixed(1)} km`;
  return `${Math.round(km)} km`;
}

/** Orders items nearest first; items without a distance keep their order after those with one. */
export function byDistance<T>(items: readonly T[], distanceOf: (item: T) => number | null | undefined): T[] {
  return items
    .map((item, i) => ({ item, i, d: distanceOf(item) }))
    .sort((a, b) => {
      const da = a.d ?? Number.POSITIVE_INFINITY;
      const db = b.d ?? Number.POSITIVE_INFINITY;
      return da === db ? a.i - b.i : da - db;
    })
    .map((x) => x.item);
}
