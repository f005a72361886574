import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One name per area in every layer. The areas are the first column of the table in
 * docs/architecture.md (the one list); each layer's folder holds one entry per area, named with the
 * area's noun: the noun itself, its plural, or the noun and a dash (`card`, `cards/`,
 * `card-freeze.machine.ts`). A few entries in each layer are shared by several areas and say so in
 * their name (the API client, the contracts' common schemas, the staff console). A file whose name
 * belongs to no area sits outside every area's folders, and a newcomer cannot find it from the map.
 *
 * Every entry is named so now (the old names' list, NOT_YET, was emptied and removed): a new entry
 * named for no area fails, and so does a shared name that no longer names an entry.
 */

const root = path.resolve(import.meta.dirname, '../..');

function areasFromArchitecture(): string[] {
  const text = readFileSync(path.join(root, 'docs/architecture.md'), 'utf8');
  const names = [...text.matchAll(/^\| \*\*([a-z-]+)\*\*/gm)].map((m) => m[1]!);
  return names;
}

/** The layers and how an entry's name is read from a file or folder in them. */
const LAYERS: { dir: string; entries: (dir: string) => string[]; shared: string[] }[] = [
  { dir: 'src/app/screens', entries: folders, shared: ['staff', 'mine', 'system', 'dev'] },
  // pager: the one list pager of every paged list (`src/app/ui/paged-list.tsx`: bookings, cards, coupons,
  // courses, activities, balance, purchases), so it belongs to no one area
  { dir: 'machines', entries: files(/\.machine\.ts$/), shared: ['pager'] },
  { dir: 'machines/domain', entries: files(/(-transitions|\.machine)\.ts$/), shared: [] },
  { dir: 'src/api', entries: files(/\.ts$/), shared: ['client', 'index'] },
  { dir: 'src/contracts', entries: files(/\.ts$/), shared: ['common'] },
  { dir: 'src/server/routes', entries: files(/\.ts$/), shared: ['index', 'docs', 'health', 'dev-auth', 'dev-pay'] },
  { dir: 'src/server/services', entries: (d) => [...folders(d), ...files(/\.ts$/)(d)], shared: [] },
  { dir: 'src/server/db/schema', entries: files(/\.ts$/), shared: ['index'] },
];

function folders(dir: string): string[] {
  return readdirSync(path.join(root, dir)).filter((f) => statSync(path.join(root, dir, f)).isDirectory());
}

function files(suffix: RegExp) {
  return (dir: string) =>
    readdirSync(path.join(root, dir))
      .filter((f) => suffix.test(f) && statSync(path.join(root, dir, f)).isFile())
      .map((f) => f.replace(suffix, ''));
}

/** The area's noun, its plural (`cards`, `activities`), or either followed by a dash. */
const plural = (a: string) => (a.endsWith('y') ? `${a.slice(0, -1)}ies` : `${a}s`);
const belongs = (name: string, areas: string[]) => areas.some((a) => [a, plural(a)].some((n) => name === n || name.startsWith(`${n}-`)));

describe('one name per area', () => {
  const areas = areasFromArchitecture();

  it('docs/architecture.md lists the areas, each once', () => {
    expect(areas.length).toBeGreaterThanOrEqual(15);
    expect(new Set(areas).size).toBe(areas.length);
  });

  for (const layer of LAYERS) {
    it(`${layer.dir}: every entry is named for its area`, () => {
      const entries = layer.entries(layer.dir);
      const outside = entries.filter((e) => !layer.shared.includes(e) && !belongs(e, areas));
      expect(outside, `named for no area of docs/architecture.md (rename it, or add the area to the table)`).toEqual([]);
      const gone = layer.shared.filter((e) => !entries.includes(e));
      expect(gone, 'shared names that name no entry of the folder: take them off').toEqual([]);
    });
  }
});
