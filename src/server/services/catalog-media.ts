/**
 * Demo images, generated: the seed's pictures are small SVGs drawn from their URL alone
 * (/api/media/<kind>/<slug>.svg), so nothing is fetched, nothing large is shipped, and the same URL
 * always gives the same bytes (cacheable forever).
 */
export const MEDIA_KINDS = ['avatar', 'club', 'banner', 'activity', 'goods'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/** A slug: lower-case words joined by hyphens (also what makes the avatar's initials). */
export const MEDIA_SLUG_RE = /^[a-z0-9]+(?:-[a-z0-9]+){0,5}$/;

/** The URL the seed stores for a generated image. */
export function mediaUrl(kind: MediaKind, slug: string): string {
  if (!MEDIA_SLUG_RE.test(slug)) throw new Error(`bad media slug: ${slug}`);
  return `/api/media/${kind}/${slug}.svg`;
}

/** FNV-1a: a stable small hash so a slug always gets the same colours. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Calm studio colours (hue, saturation, lightness), picked by hash. */
const PALETTE: readonly [number, number, number][] = [
  [152, 38, 42],
  [172, 45, 36],
  [24, 70, 58],
  [340, 45, 55],
  [262, 35, 52],
  [205, 55, 45],
  [40, 75, 52],
  [12, 55, 50],
];

function colours(slug: string): [string, string] {
  const h = hash(slug);
  const a = PALETTE[h % PALETTE.length] ?? PALETTE[0]!;
  const b = PALETTE[(h >>> 8) % PALETTE.length] ?? PALETTE[1]!;
  const c2 = b[0] === a[0] ? [(a[0] + 40) % 360, a[1], a[2] + 10] : b;
  return [`hsl(${a[0]} ${a[1]}% ${a[2]}%)`, `hsl(${c2[0]} ${c2[1]}% ${c2[2]}%)`];
}

function initials(slug: string): string {
  return slug
    .split('-')
    .filter((w) => /^[a-z]/.test(w))
    .slice(0, 2)
    .map((w) => w[0]!.toUpperCase())
    .join('');
}

function svg(w: number, h: number, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">${body}</svg>`;
}

function gradient(id: string, from: string, to: string): string {
  return `<defs><linearGradient id="${id}" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>`;
}

/** Draws the image for a kind and slug (slug already checked against MEDIA_SLUG_RE). */
export function renderMedia(kind: MediaKind, slug: string): string {
  const [c1, c2] = colours(`${kind}:${slug}`);
  const r = hash(slug);
  switch (kind) {
    case 'avatar':
      return svg(
        240,
        240,
        `${gradient('g', c1, c2)}<rect width="240" height="240" fill="url(#g)"/>` +
          `<circle cx="120" cy="250" r="110" fill="#fff" fill-opacity=".18"/>` +
          `<text x="120" y="138" font-family="Helvetica,Arial,sans-serif" font-size="88" font-weight="600" fill="#fff" text-anchor="middle" dominant-baseline="middle">${initials(slug)}</text>`,
      );
    case 'club': {
      // a studio front: a floor line, windows and a round sun
      const sun = 60 + (r % 220);
      return svg(
        750,
        420,
        `${gradient('g', c1, c2)}<rect width="750" height="420" fill="url(#g)"/>` +
          `<circle cx="${sun}" cy="110" r="52" fill="#fff" fill-opacity=".35"/>` +
          `<rect x="90" y="170" width="570" height="210" rx="10" fill="#fff" fill-opacity=".22"/>` +
          [0, 1, 2, 3]
            .map((i) => `<rect x="${130 + i * 130}" y="210" width="90" height="120" rx="6" fill="#fff" fill-opacity=".35"/>`)
            .join('') +
          `<rect y="380" width="750" height="40" fill="#000" fill-opacity=".12"/>`,
      );
    }
    case 'banner':
    case 'activity': {
      const w = kind === 'banner' ? 750 : 690;
      const h = kind === 'banner' ? 320 : 360;
      const a = 40 + (r % 60);
      const b = 60 + ((r >>> 6) % 80);
      return svg(
        w,
        h,
        `${gradient('g', c1, c2)}<rect width="${w}" height="${h}" fill="url(#g)"/>` +
          `<path d="M0 ${h - a} C ${w * 0.25} ${h - b - 60}, ${w * 0.6} ${h - a + 40}, ${w} ${h - b} V ${h} H 0 Z" fill="#fff" fill-opacity=".22"/>` +
          `<path d="M0 ${h - a / 2} C ${w * 0.3} ${h - b}, ${w * 0.7} ${h}, ${w} ${h - a} V ${h} H 0 Z" fill="#fff" fill-opacity=".18"/>` +
          `<circle cx="${w - 120}" cy="${90 + (r % 40)}" r="${46 + (r % 24)}" fill="#fff" fill-opacity=".3"/>`,
      );
    }
    case 'goods':
      // a card face: stripes and a chip
      return svg(
        600,
        380,
        `${gradient('g', c1, c2)}<rect width="600" height="380" rx="28" fill="url(#g)"/>` +
          `<rect x="48" y="120" width="86" height="64" rx="10" fill="#fff" fill-opacity=".45"/>` +
          `<rect x="48" y="260" width="300" height="18" rx="9" fill="#fff" fill-opacity=".35"/>` +
          `<rect x="48" y="296" width="200" height="18" rx="9" fill="#fff" fill-opacity=".25"/>` +
          `<circle cx="500" cy="90" r="${40 + (r % 30)}" fill="#fff" fill-opacity=".25"/>`,
      );
  }
}
