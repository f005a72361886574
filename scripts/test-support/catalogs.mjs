import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { StepFailure } from './run-steps.mjs';

// `lingui extract` into a scratch copy must find nothing new or obsolete, and every
// English message must be translated. The working tree's catalogs are never written.

/** Parses a .po file into a Map of `msgctxt\u0004msgid` -> msgstr (obsolete `#~` entries skipped). */
function parsePo(text) {
  const entries = new Map();
  let cur = null;
  let field = null;
  const flush = () => {
    if (cur && cur.msgid !== '') entries.set(`${cur.msgctxt ?? ''}\u0004${cur.msgid}`, cur.msgstr ?? '');
    cur = null;
    field = null;
  };
  const unquote = (s) => JSON.parse(s.replace(/\\([^"\\nt])/g, '$1'));
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) {
      if (line === '' || (cur && field === 'msgstr')) flush();
      continue;
    }
    const m = /^(msgctxt|msgid|msgstr)\s+(".*")$/.exec(line);
    if (m) {
      if (m[1] === 'msgctxt' || (m[1] === 'msgid' && cur && cur.msgid !== undefined)) flush();
      cur ??= {};
      field = m[1];
      cur[field] = unquote(m[2]);
    } else if (line.startsWith('"') && cur && field) {
      cur[field] += unquote(line);
    }
  }
  flush();
  return entries;
}

/** The catalogs step of `npm test`; `ctx.exec` runs lingui, `ctx.say` reports. */
export async function catalogs(root, bin, ctx) {
  const { tsImport } = await import('tsx/esm/api');
  const mod = await tsImport(path.join(root, 'lingui.config.ts'), import.meta.url);
  const config = mod.default?.default ?? mod.default;
  const scratch = mkdtempSync(path.join(tmpdir(), 'yoga-catalogs-'));
  try {
    const abs = (p) => p.replace('<rootDir>', root);
    const catalogsCfg = config.catalogs.map((c) => ({
      ...c,
      path: path.join(scratch, path.relative(root, abs(c.path))),
      include: c.include.map(abs),
      exclude: (c.exclude ?? []).map(abs),
    }));
    // start from the committed catalogs so translations carry over, then extract into the copy
    for (const c of config.catalogs) {
      for (const locale of config.locales) {
        const from = `${abs(c.path).replace('{locale}', locale)}.po`;
        const to = `${path.join(scratch, path.relative(root, abs(c.path))).replace('{locale}', locale)}.po`;
        if (existsSync(from)) {
          mkdirSync(path.dirname(to), { recursive: true });
          writeFileSync(to, readFileSync(from));
        }
      }
    }
    const cfgFile = path.join(scratch, 'lingui.config.json');
    writeFileSync(cfgFile, JSON.stringify({ ...config, rootDir: root, catalogs: catalogsCfg }, null, 2));
    const ex = await ctx.exec(bin('lingui'), ['extract', '--clean', '--config', cfgFile]);
    if (ex.code !== 0) throw new StepFailure(`lingui extract failed (exit ${ex.code})`);
    const problems = [];
    let messages = 0;
    for (const c of config.catalogs) {
      for (const locale of config.locales) {
        const rel = `${path.relative(root, abs(c.path)).replace('{locale}', locale)}.po`;
        const mine = existsSync(path.join(root, rel)) ? parsePo(readFileSync(path.join(root, rel), 'utf8')) : new Map();
        const fresh = parsePo(readFileSync(path.join(scratch, rel), 'utf8'));
        messages = Math.max(messages, fresh.size);
        const show = (k) => JSON.stringify(k.split('\u0004').pop());
        const added = [...fresh.keys()].filter((k) => !mine.has(k));
        const obsolete = [...mine.keys()].filter((k) => !fresh.has(k));
        if (added.length)
          problems.push(`${rel}: ${added.length} message(s) in the code but not in the catalog: ${added.slice(0, 5).map(show).join(', ')}`);
        if (obsolete.length)
          problems.push(`${rel}: ${obsolete.length} message(s) no longer in the code: ${obsolete.slice(0, 5).map(show).join(', ')}`);
        if (locale !== config.sourceLocale) {
          const empty = [...mine].filter(([, v]) => v.trim() === '').map(([k]) => k);
          if (empty.length) problems.push(`${rel}: ${empty.length} untranslated message(s): ${empty.slice(0, 5).map(show).join(', ')}`);
        }
      }
    }
    if (problems.length) {
      for (const p of problems) ctx.say(`  ${p}`);
      throw new StepFailure('the catalogs are out of date: run `npm run extract`, then translate every empty English msgstr');
    }
    ctx.say(`catalogs: ${messages} messages, ${config.locales.join(' and ')} up to date and complete`);
    return { passed: 1, failed: 0, note: `${messages} messages` };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
