import type { MemberCourse } from '../../../api/cards';

/** A course's uses left of its total, or null when it has no count (unlimited while valid). */
export function courseUsesLeft(c: Pick<MemberCourse, 'usesTotal' | 'usesLeft'>): { left: number; total: number } | null {
  if (c.usesTotal === null) return null;
  return { left: Math.max(0, c.usesLeft ?? 0), total: c.usesTotal };
}
