import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { screens } from '../../../src/app/routes';
import { CONSOLE_SECTIONS } from '../../../src/app/screens/staff/console-sections';

/**
 * Every staff page is reachable from the console's home (decision 097): a `staff/...` route is a
 * section of the console, or a page one of the sections' screens links to (a class's form from the
 * class list). A new staff page without a way in fails here, not in front of staff.
 */
const SUBPAGES: Record<string, { parent: string; from: string; link: RegExp }> = {
  'staff/classes/new': {
    parent: '/staff/classes',
    from: 'src/app/screens/staff/staff-classes-screen.tsx',
    link: /to=\{`\/staff\/classes\/new[?`]/,
  },
  'staff/classes/:id/edit': {
    parent: '/staff/classes',
    from: 'src/app/screens/staff/staff-classes-screen.tsx',
    link: /to=\{`\/staff\/classes\/\$\{[^}]+\}\/edit[?`]/,
  },
};

describe('the staff console reaches every staff page', () => {
  const staffPaths = screens.map((s) => s.path).filter((p) => p === 'staff' || p.startsWith('staff/'));
  const sectionPaths = new Set(CONSOLE_SECTIONS.map((s) => s.path));

  it('has a section for every staff route without a parameter, or a link from a section page', () => {
    expect(staffPaths.length).toBeGreaterThan(10);
    const stranded = staffPaths.filter((p) => {
      if (p === 'staff' || sectionPaths.has(`/${p}`)) return false;
      const sub = SUBPAGES[p];
      return !(sub && sub.link.test(readFileSync(sub.from, 'utf8')));
    });
    expect(stranded).toEqual([]);
  });

  it('every section opens a route of the table', () => {
    const all = new Set(screens.map((s) => `/${s.path}`));
    for (const s of CONSOLE_SECTIONS) expect(all.has(s.path), s.key).toBe(true);
  });

  it('the subpages named here are routes still, reached from a page that is a section', () => {
    for (const [path, sub] of Object.entries(SUBPAGES)) {
      expect(staffPaths, path).toContain(path);
      expect(sectionPaths.has(sub.parent), sub.parent).toBe(true);
    }
  });
});
