/** Root font size of spec §9: 32px per 750px viewport width, the ratio capped at 2. */
export function rootFontSize(viewportWidth: number): number {
  return 32 * Math.min(viewportWidth / 750, 2);
}
