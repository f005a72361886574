import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** Reads a .po file into msgid -> msgstr (multi-line strings joined). */
function readPo(path: string): Map<string, string> {
  const out = new Map<string, string>();
  let id: string | null = null;
  let str: string | null = null;
  let target: 'id' | 'str' | null = null;
  const flush = () => {
    if (id !== null && str !== null && id !== '') out.set(id, str);
    id = null;
    str = null;
  };
  const unquote = (s: string) => JSON.parse(s) as string;
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.startsWith('msgid ')) {
      flush();
      id = unquote(line.slice(6));
      target = 'id';
    } else if (line.startsWith('msgstr ')) {
      str = unquote(line.slice(7));
      target = 'str';
    } else if (line.startsWith('"') && target) {
      if (target === 'id') id = (id ?? '') + unquote(line);
      else str = (str ?? '') + unquote(line);
    } else if (line.trim() === '') {
      target = null;
    }
  }
  flush();
  return out;
}

const HAN = /\p{Script=Han}/u;

describe('catalogs (every user-facing string in zh and en)', () => {
  const zh = readPo('locales/zh/messages.po');
  const en = readPo('locales/en/messages.po');

  it('have the same messages in both languages', () => {
    expect([...en.keys()].sort()).toEqual([...zh.keys()].sort());
    expect(zh.size).toBeGreaterThan(0);
  });

  it('leave no English message empty', () => {
    const empty = [...en].filter(([, s]) => s.trim() === '').map(([k]) => k);
    expect(empty).toEqual([]);
  });

  it('have no Chinese characters in English messages', () => {
    const han = [...en].filter(([, s]) => HAN.test(s)).map(([k, s]) => `${k} -> ${s}`);
    expect(han).toEqual([]);
  });

  it('keep the placeholders of each message in English', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    const broken: string[] = [];
    for (const [id, s] of en) {
      const source = zh.get(id) || id;
      if (placeholders(source).join() !== placeholders(s).join()) broken.push(`${id}: ${source} -> ${s}`);
    }
    expect(broken).toEqual([]);
  });
});
