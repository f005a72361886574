import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every decision record in docs/decisions is one page with a header right under its title:
 *
 *   # NNN: title
 *
 *   - Date: YYYY-MM-DD
 *   - Status: Accepted | Superseded by NNN | Amended by NNN, MMM
 *   - Supersedes: NNN, MMM | —
 *
 * A later pass that changes a decision is a new record pointing back, not an appendix.
 */
const DIR = 'docs/decisions';
const MAX_LINES = 150;

const FILE = /^(\d{3})-[a-z0-9-]+\.md$/;
const DATE = /^- Date: (\d{4}-\d{2}-\d{2})$/;
const STATUS = /^- Status: (Accepted|Superseded by (\d{3})|Amended by (\d{3}(?:, \d{3})*))$/;
const SUPERSEDES = /^- Supersedes: (—|\d{3}(?:, \d{3})*)$/;

type DecisionRecord = {
  file: string;
  number: string;
  lines: string[];
  problems: string[];
  date?: string;
  /** The records that superseded or amended this one (its Status). */
  changedBy: string[];
  /** The records this one supersedes or amends (its Supersedes). */
  changes: string[];
};

function lineCount(text: string): number {
  const lines = text.split('\n');
  return text.endsWith('\n') ? lines.length - 1 : lines.length;
}

function readRecord(file: string, text: string): DecisionRecord {
  const lines = text.split('\n');
  const number = FILE.exec(file)?.[1] ?? '';
  const record: DecisionRecord = {
    file,
    number,
    lines,
    problems: [],
    changedBy: [],
    changes: [],
  };
  const say = (problem: string) => record.problems.push(`${file}: ${problem}`);

  if (!number) say('the name is not NNN-words.md');
  const title = lines[0] ?? '';
  if (!/^# (\d{3}|NNN): \S/.test(title)) say(`line 1 is not "# NNN: title": ${title}`);
  else if (number !== '000' && !title.startsWith(`# ${number}: `)) say(`the title's number is not the file's (${number})`);
  if (lines[1] !== '') say('line 2 (under the title) is not empty');

  const date = DATE.exec(lines[2] ?? '');
  if (!date) say(`line 3 is not "- Date: YYYY-MM-DD": ${lines[2]}`);
  else if (Number.isNaN(Date.parse(`${date[1]}T00:00:00Z`))) say(`no such date: ${date[1]}`);
  else record.date = date[1];

  const status = STATUS.exec(lines[3] ?? '');
  if (!status) say(`line 4 is not "- Status: Accepted | Superseded by NNN | Amended by NNN, MMM": ${lines[3]}`);
  else if (status[2]) record.changedBy = [status[2]];
  else if (status[3]) record.changedBy = status[3].split(', ');

  const supersedes = SUPERSEDES.exec(lines[4] ?? '');
  if (!supersedes) say(`line 5 is not "- Supersedes: NNN, MMM | —": ${lines[4]}`);
  else if (supersedes[1] && supersedes[1] !== '—') record.changes = supersedes[1].split(', ');

  if (lines[5] !== undefined && lines[5] !== '') say('line 6 (under the header) is not empty');

  const count = lineCount(text);
  if (count > MAX_LINES) say(`${count} lines, more than ${MAX_LINES}: split later passes into new records`);
  return record;
}

/** The problems of a set of records, each alone and against each other. */
function checkRecords(files: { file: string; text: string }[]): string[] {
  const records = files.map(({ file, text }) => readRecord(file, text));
  const problems = records.flatMap((r) => r.problems);
  const byNumber = new Map<string, DecisionRecord>();
  for (const r of records) {
    if (!r.number) continue;
    const other = byNumber.get(r.number);
    if (other) problems.push(`${r.file}: number ${r.number} is also ${other.file}`);
    else byNumber.set(r.number, r);
  }
  for (const r of records) {
    for (const n of r.changedBy) {
      const later = byNumber.get(n);
      if (!later) problems.push(`${r.file}: its Status names ${n}, which does not exist`);
      else if (n === r.number || (later.date ?? '') < (r.date ?? ''))
        problems.push(`${r.file}: changed by ${n}, which is not dated after it`);
      else if (!later.changes.includes(r.number))
        problems.push(`${r.file}: its Status names ${n}, whose Supersedes does not name ${r.number}`);
    }
    for (const n of r.changes) {
      const earlier = byNumber.get(n);
      if (!earlier) problems.push(`${r.file}: it supersedes ${n}, which does not exist`);
      else if (n === r.number || (earlier.date ?? '') > (r.date ?? ''))
        problems.push(`${r.file}: supersedes ${n}, which is not dated before it`);
      else if (!earlier.changedBy.includes(r.number))
        problems.push(`${r.file}: it supersedes ${n}, whose Status does not name ${r.number}`);
    }
  }
  return problems;
}

function readAll(): { file: string; text: string }[] {
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.md'))
    .sort()
    .map((file) => ({ file, text: readFileSync(join(DIR, file), 'utf8') }));
}

describe('decision records (docs/decisions: one page each, with Date, Status and Supersedes)', () => {
  const files = readAll();

  it('finds the records, the template first', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(files[0]?.file).toBe('000-template.md');
  });

  it('every record has the header, allowed values, unique numbers, at most 150 lines, and names records that exist and name it back', () => {
    expect(checkRecords(files)).toEqual([]);
  });

  describe('the check itself fails on a bad record', () => {
    const good = (n: string, status = 'Accepted', supersedes = '—') =>
      `# ${n}: a title\n\n- Date: 2026-12-01\n- Status: ${status}\n- Supersedes: ${supersedes}\n\n## Context\nx\n`;

    it('accepts good records that name each other', () => {
      expect(
        checkRecords([
          { file: '001-a.md', text: good('001', 'Superseded by 003') },
          { file: '002-b.md', text: good('002', 'Amended by 003, 004') },
          { file: '003-c.md', text: good('003', 'Accepted', '001, 002') },
          { file: '004-d.md', text: good('004', 'Accepted', '002') },
        ]),
      ).toEqual([]);
    });

    it('a missing header line', () => {
      const text = good('001').replace('- Date: 2026-12-01\n', '');
      expect(checkRecords([{ file: '001-a.md', text }]).join('\n')).toMatch(/line 3/);
    });

    it('a status not among the allowed forms', () => {
      const text = good('001', 'accepted (issue 11)');
      expect(checkRecords([{ file: '001-a.md', text }]).join('\n')).toMatch(/line 4/);
    });

    it('a named record that does not exist', () => {
      expect(checkRecords([{ file: '001-a.md', text: good('001', 'Superseded by 009') }])).toEqual([
        '001-a.md: its Status names 009, which does not exist',
      ]);
      expect(checkRecords([{ file: '002-a.md', text: good('002', 'Accepted', '001') }])).toEqual([
        '002-a.md: it supersedes 001, which does not exist',
      ]);
    });

    it('a supersession only one side names', () => {
      expect(
        checkRecords([
          { file: '001-a.md', text: good('001') },
          { file: '002-b.md', text: good('002', 'Accepted', '001') },
        ]),
      ).toEqual(['002-b.md: it supersedes 001, whose Status does not name 002']);
    });

    it('a repeated number', () => {
      expect(
        checkRecords([
          { file: '001-a.md', text: good('001') },
          { file: '001-b.md', text: good('001') },
        ]),
      ).toEqual(['001-b.md: number 001 is also 001-a.md']);
    });

    it('a record longer than a page', () => {
      const text = good('001') + 'line\n'.repeat(MAX_LINES);
      expect(checkRecords([{ file: '001-a.md', text }]).join('\n')).toMatch(/more than 150/);
    });
  });
});
