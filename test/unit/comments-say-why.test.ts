import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Code comments say why, not which issue asked: "issue 12" tells a reader nothing once the tracker
 * is gone or renumbered, and it stands where the reason should be. This fails on a comment in src,
 * machines, scripts or test that cites an issue number ("issue 12", "Issues 4 and 5"). Strings (test
 * data, OpenAPI descriptions) are not comments and are not checked here.
 */
const repo = path.resolve(import.meta.dirname, '../..');
const FOLDERS = ['src', 'machines', 'scripts', 'test'];
const SELF = path.relative(repo, import.meta.filename);
const CITES_ISSUE = /\bissues? #?\d+/i;

const SCRIPT: Record<string, ts.ScriptKind> = {
  '.ts': ts.ScriptKind.TS,
  '.mts': ts.ScriptKind.TS,
  '.cts': ts.ScriptKind.TS,
  '.tsx': ts.ScriptKind.TSX,
  '.js': ts.ScriptKind.JS,
  '.mjs': ts.ScriptKind.JS,
  '.cjs': ts.ScriptKind.JS,
  '.jsx': ts.ScriptKind.JSX,
};

/** The comments of a TypeScript or JavaScript file, each with the line it starts on, read by the TypeScript parser. */
function scriptComments(file: string, text: string): Array<{ line: number; text: string }> {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, SCRIPT[path.extname(file)]);
  const seen = new Set<number>();
  const found: Array<{ line: number; text: string }> = [];
  const keep = (ranges: readonly ts.CommentRange[] | undefined) => {
    for (const r of ranges ?? []) {
      if (seen.has(r.pos)) continue;
      seen.add(r.pos);
      found.push({ line: source.getLineAndCharacterOfPosition(r.pos).line + 1, text: text.slice(r.pos, r.end) });
    }
  };
  // every token's leading and trailing trivia: a comment before a closing brace belongs to that token
  const walk = (node: ts.Node) => {
    keep(ts.getLeadingCommentRanges(text, node.pos));
    keep(ts.getTrailingCommentRanges(text, node.end));
    for (const child of node.getChildren(source)) walk(child);
  };
  walk(source);
  return found;
}

/** The comments of a SQL file (`--` to the end of the line, outside quotes; `/* ... *\/`) or a CSS file (`/* ... *\/`). */
function otherComments(file: string, text: string): Array<{ line: number; text: string }> {
  const found: Array<{ line: number; text: string }> = [];
  const lineOf = (at: number) => text.slice(0, at).split('\n').length;
  // quoted text is blanked first (same length), so a `--` or `/*` inside a string is not a comment
  const bare = text.replace(/'(?:[^']|'')*'/g, (q) => ' '.repeat(q.length));
  for (const m of bare.matchAll(/\/\*[\s\S]*?\*\//g))
    found.push({ line: lineOf(m.index), text: text.slice(m.index, m.index + m[0].length) });
  if (path.extname(file) === '.sql')
    for (const m of bare.matchAll(/--[^\n]*/g)) found.push({ line: lineOf(m.index), text: text.slice(m.index, m.index + m[0].length) });
  return found;
}

/** The comments of a file that cite an issue, as `path:line: comment`. */
function issueCitations(file: string, text: string): string[] {
  if (!CITES_ISSUE.test(text)) return [];
  const ext = path.extname(file);
  const comments = ext in SCRIPT ? scriptComments(file, text) : ext === '.sql' || ext === '.css' ? otherComments(file, text) : [];
  return comments.filter((c) => CITES_ISSUE.test(c.text)).map((c) => `${file}:${c.line}: ${c.text.trim().split('\n')[0]}`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(path.join(repo, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(repo, path.join(e.parentPath, e.name)));
}

describe('comments say why, not which issue asked', () => {
  it('finds a citation in a comment, not in a string (the check itself works)', () => {
    expect(issueCitations('a.ts', '// issue 12: the friend pays\nconst a = 1;')).toHaveLength(1);
    expect(issueCitations('a.ts', '/**\n * Friend pay (issues 4 and 5).\n */\nexport const a = 1;')).toHaveLength(1);
    expect(issueCitations('a.tsx', 'const v = (\n  <p>\n    {/* Issue 16 */}\n    x\n  </p>\n);')).toHaveLength(1);
    expect(issueCitations('a.ts', 'function f() {\n  g();\n  // issue 3\n}')).toHaveLength(1);
    expect(issueCitations('a.sql', "-- Issue 17, decision 048\nselect '-- issue 4';")).toHaveLength(1);
    expect(issueCitations('a.css', '/* issue 16: touch targets */\na { color: red; }')).toHaveLength(1);
    expect(issueCitations('a.ts', "const text = good('001', 'accepted (issue 11)');")).toEqual([]);
    expect(issueCitations('a.ts', '// every tap shows its effect (decision 050)')).toEqual([]);
  });

  it('no comment in src, machines, scripts or test cites an issue number', () => {
    const files = FOLDERS.flatMap(filesUnder).filter((f) => f !== SELF);
    expect(files.length).toBeGreaterThan(500);
    const found = files.flatMap((f) => issueCitations(f, readFileSync(path.join(repo, f), 'utf8')));
    expect(found, 'say the reason instead (a decision record may follow as a pointer)').toEqual([]);
  });
});
