/**
 * The first screen's CSS, so the first response sends what the first screen shows. The built stylesheet is
 * 145 kB, three quarters of it Tailwind utilities for every Konsta component, used or not (Konsta's
 * theme scans all its sources). A page inlines the rules whose class is in its HTML, and every rule
 * that names no class (the theme's variables, the base layer, Konsta's :root); the whole stylesheet
 * is loaded after the first paint, before the app hydrates (render.ts), so what the app renders
 * later is styled. Decision 051.
 */

/** A rule and the classes that select it: kept when the page uses any of them. */
interface KeyedRule {
  text: string;
  keys: string[];
}

/** The stylesheet in order: text every page keeps, and rules keyed by class. */
type Piece = string | KeyedRule;

export interface SplitStylesheet {
  pieces: Piece[];
  /** the last pages' CSS by the rules they kept (pages with the same classes get the same CSS) */
  recent: Map<string, string>;
}

/** Index of the brace that closes the block opened at `open` (strings and escapes skipped). */
function closingBrace(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '\\') i++;
    else if (c === '"' || c === "'") {
      for (i++; i < css.length && css[i] !== c; i++) if (css[i] === '\\') i++;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  throw new Error('critical-css: unbalanced braces');
}

/** The unescaped name of the CSS identifier starting at `at`, and where it ends. */
function readIdent(sel: string, at: number): [string, number] {
  let name = '';
  let i = at;
  while (i < sel.length) {
    const c = sel[i]!;
    if (c === '\\') {
      const hex = /^[0-9a-fA-F]{1,6} ?/.exec(sel.slice(i + 1));
      if (hex) {
        name += String.fromCodePoint(parseInt(hex[0], 16));
        i += 1 + hex[0].length;
      } else {
        name += sel[i + 1] ?? '';
        i += 2;
      }
    } else if (/[\w-]/.test(c) || c.charCodeAt(0) > 0x7f) {
      name += c;
      i++;
    } else break;
  }
  return [name, i];
}

/** The selector list's parts, split at top-level commas. */
function selectorParts(selector: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < selector.length; i++) {
    const c = selector[i];
    if (c === '\\') i++;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth--;
    else if (c === ',' && depth === 0) {
      parts.push(selector.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(selector.slice(start));
  return parts;
}

/** The first class of each selector in the list: a utility's own class comes before its variant's (.dark, .group). */
function selectorKeys(selector: string): string[] | null {
  const keys: string[] = [];
  for (const part of selectorParts(selector)) {
    let found: string | null = null;
    for (let i = 0; i < part.length && found === null; i++) {
      if (part[i] === '\\') i++;
      else if (part[i] === '.') found = readIdent(part, i + 1)[0];
    }
    // a part without a class (an element, an attribute) may match anything: keep the rule
    if (found === null) return null;
    keys.push(found);
  }
  return keys;
}

/** The keys of a rule or of an at-rule's rules (@media, @supports); null when it must always be kept. */
function ruleKeys(prelude: string, body: string): string[] | null {
  if (!prelude.startsWith('@')) return selectorKeys(prelude);
  if (!/^@(media|supports|container|layer|starting-style)\b/.test(prelude)) return null;
  const keys: string[] = [];
  for (const inner of topLevelItems(body)) {
    if (inner.body === null) return null;
    const k = ruleKeys(inner.prelude, inner.body);
    if (k === null) return null;
    keys.push(...k);
  }
  return keys;
}

/** The top-level items of a block: statements ending in ";" (body null) and blocks. */
function topLevelItems(css: string): { prelude: string; body: string | null; text: string }[] {
  const items: { prelude: string; body: string | null; text: string }[] = [];
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    const semi = css.indexOf(';', i);
    if (semi >= 0 && (open < 0 || semi < open)) {
      items.push({ prelude: css.slice(i, semi).trim(), body: null, text: css.slice(i, semi + 1) });
      i = semi + 1;
      continue;
    }
    if (open < 0) {
      if (css.slice(i).trim()) items.push({ prelude: css.slice(i).trim(), body: null, text: css.slice(i) });
      break;
    }
    const close = closingBrace(css, open);
    items.push({ prelude: css.slice(i, open).trim(), body: css.slice(open + 1, close), text: css.slice(i, close + 1) });
    i = close + 1;
  }
  return items;
}

/** A block's items as pieces: a cascade layer is opened and its rules keyed one by one. */
function piecesOf(css: string, out: Piece[]): void {
  for (const item of topLevelItems(css)) {
    if (item.body !== null && /^@layer\b/.test(item.prelude)) {
      out.push(`${item.prelude}{`);
      piecesOf(item.body, out);
      out.push('}');
    } else if (item.body === null) out.push(item.text);
    else {
      const keys = ruleKeys(item.prelude, item.body);
      out.push(keys && keys.length ? { text: item.text, keys } : item.text);
    }
  }
}

/**
 * Splits a built stylesheet into the text every page needs and the rules keyed by class, in order;
 * null when it cannot be read (the page then inlines it whole).
 */
export function splitStylesheet(css: string): SplitStylesheet | null {
  const pieces: Piece[] = [];
  try {
    piecesOf(css.replace(/\/\*[\s\S]*?\*\//g, ''), pieces);
  } catch {
    return null;
  }
  return { pieces, recent: new Map() };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" };

/** The classes named in an HTML string's class attributes. */
export function classesIn(html: string): Set<string> {
  const classes = new Set<string>();
  for (const m of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of m[1]!.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_e, n: string) => ENTITIES[n]!).split(/\s+/)) {
      if (name) classes.add(name);
    }
  }
  return classes;
}

const VAR_REF = /var\(\s*(--[\w-]+)/g;
const CUSTOM_DECL = /(--[\w-]+):([^;{}]*)(;?)/g;
const PROPERTY_RULE = /@property\s+(--[\w-]+)\s*\{[^}]*\}/g;

/**
 * Drops the custom properties nothing on the page reads: a kept rule's `var()` (or one in the
 * HTML's inline styles) reads a property, and what a read property's value reads is read too.
 * Tailwind's theme declares every colour and size the whole sheet uses, and Konsta every Material
 * colour; what the first screen's rules read is a fraction of them. Layout and colour come out the
 * same: only a var() can see a custom property, and scripts see the whole stylesheet (render.ts).
 */
export function pruneCustomProperties(css: string, html: string): string {
  const values = new Map<string, string[]>();
  for (const m of css.matchAll(CUSTOM_DECL)) values.set(m[1]!, [...(values.get(m[1]!) ?? []), m[2]!]);
  const read = new Set<string>();
  const pending: string[] = [];
  const readIn = (text: string) => {
    for (const m of text.matchAll(VAR_REF)) {
      if (!read.has(m[1]!)) {
        read.add(m[1]!);
        pending.push(m[1]!);
      }
    }
  };
  readIn(html);
  readIn(css.replace(CUSTOM_DECL, ''));
  for (let name = pending.pop(); name !== undefined; name = pending.pop()) for (const v of values.get(name) ?? []) readIn(v);
  return css
    .replace(PROPERTY_RULE, (rule, name: string) => (read.has(name) ? rule : ''))
    .replace(CUSTOM_DECL, (decl, name: string) => (read.has(name) ? decl : ''));
}

const RECENT_MAX = 200;

/** The stylesheet with only the rules of classes the HTML uses (and every rule it cannot tell about). */
export function criticalCss(sheet: SplitStylesheet, html: string): string {
  const used = classesIn(html);
  let out = '';
  let key = '';
  sheet.pieces.forEach((piece, i) => {
    if (typeof piece === 'string') out += piece;
    else if (piece.keys.some((k) => used.has(k))) {
      out += piece.text;
      key += `${i},`;
    }
  });
  // inline styles may read a property; they are rare, so they are part of the key
  const inline = [...html.matchAll(/\sstyle="([^"]*var\([^"]*)"/g)].map((m) => m[1]).join('|');
  key += inline;
  const known = sheet.recent.get(key);
  if (known !== undefined) return known;
  const pruned = pruneCustomProperties(out, inline);
  if (sheet.recent.size >= RECENT_MAX) sheet.recent.delete(sheet.recent.keys().next().value!);
  sheet.recent.set(key, pruned);
  return pruned;
}
