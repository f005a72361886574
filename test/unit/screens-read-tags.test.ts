import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Screens read a chart's state by its typed tags (`snapshot.hasTag('busy')`) or by one
 * `snapshot.matches(...)`, never by a list of state names copied from the chart and tried one by one
 * (`(['ready', 'submitting'] as const).find((k) => s.matches(k))`, `STATES.some((k) => s.matches(k))`):
 * a copied list goes stale silently when the chart gains, renames or nests a state, where a tag is
 * declared in the chart's types (a misspelt one fails typecheck) and documented in its header.
 *
 * The scan: a `.find(`, `.some(`, `.filter(`, `.every(`, `.findIndex(` or `.findLast(` whose arrow
 * callback calls `.matches(` with its own parameter, in any file under src/app. Plain text, no
 * parser: fast, and what it looks for is narrow enough that strings and comments do not confuse it.
 * KNOWN names the files still to be changed (each with why it waits): the list only shrinks, and a
 * file rid of the pattern must leave it.
 */
const repo = path.resolve(import.meta.dirname, '../..');
const KNOWN: Record<string, string> = {};

const CALLBACK = /\.(?:find|some|filter|every|findIndex|findLast)\(\s*(?:\(\s*([A-Za-z_$][\w$]*)[^)]*\)|([A-Za-z_$][\w$]*))\s*=>/g;

/** The text between the parenthesis before `from` and the one that closes it (strings are not looked into). */
function inside(text: string, from: number): string {
  let depth = 1;
  for (let i = from; i < text.length; i++) {
    if (text[i] === '(') depth++;
    else if (text[i] === ')' && --depth === 0) return text.slice(from, i);
  }
  return text.slice(from);
}

/** The lines (1-based) where a callback tries state names one by one with `.matches(`. */
function copiedStateLists(text: string): number[] {
  const lines: number[] = [];
  for (const m of text.matchAll(CALLBACK)) {
    const param = m[1] ?? m[2]!;
    const body = inside(text, m.index + m[0].length);
    const uses = new RegExp(`(?<![\\w$.])${param.replace(/\$/g, '\\$')}(?![\\w$])`);
    const asksEach = [...body.matchAll(/\.matches\(/g)].some((c) => uses.test(inside(body, c.index + c[0].length)));
    if (asksEach) lines.push(text.slice(0, m.index).split('\n').length);
  }
  return lines;
}

function sources(dir: string): string[] {
  return readdirSync(path.join(repo, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sources(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

describe('the scan for copied state-name lists', () => {
  it('finds a list literal, a constant of names and the keys of a record, however they are wrapped', () => {
    const planted = [
      "const a = useSelector(x, (s) => (['ready', 'submitting'] as const).find((k) => s.matches(k)) ?? 'ready');",
      'const b = (',
      '  [',
      "    'editing',",
      "    'saving',",
      '  ] as const',
      ').find((k) => s.matches({ editing: { form: k } }));',
      'const c = STATES.some((step) =>',
      '  snapshot.matches(step),',
      ');',
      'const d = (Object.keys(FEEDBACK) as Key[]).find(key => s.matches({ editing: key }));',
    ].join('\n');
    expect(copiedStateLists(planted)).toEqual([1, 7, 8, 11]);
  });

  it('leaves alone tags, one state matched, and a list of snapshots each asked about one state', () => {
    const fine = [
      "const busy = useSelector(x, (s) => s.hasTag('busy'));",
      'const k = FIELDS.find((tag) => s.hasTag(tag));',
      "const confirming = useSelector(x, (s) => s.matches({ activating: 'confirming' }));",
      "const any = rows.some((r) => r.snapshot.matches('open'));",
      "const kind = list.find((step) => s.matches('ready') && step.ok);",
    ].join('\n');
    expect(copiedStateLists(fine)).toEqual([]);
  });
});

describe('screens read chart state by tags or one matches (src/app)', () => {
  const found = sources('src/app')
    .map((file) => ({ file, lines: copiedStateLists(readFileSync(path.join(repo, file), 'utf8')) }))
    .filter((f) => f.lines.length > 0);

  it('no file tries a list of state names with matches', () => {
    expect(
      found.filter((f) => !(f.file in KNOWN)).map((f) => `${f.file}:${f.lines.join(',')}`),
      'read the chart by a typed tag (declared in its types, put on its states, said in its header) or one matches',
    ).toEqual([]);
  });

  it('KNOWN names only files that still have the pattern', () => {
    expect(Object.keys(KNOWN).filter((file) => !found.some((f) => f.file === file))).toEqual([]);
  });
});
