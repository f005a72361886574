import type { GoodsKind } from './catalog';

/** What a buyer picks on a goods item before buying (spec §5 "phase or teacher chosen"). */
export type GoodsChoiceKind = 'phase' | 'teacher';

export interface GoodsChoice {
  phaseId?: number;
  teacherId?: number;
}

/**
 * The choice these goods need before they can be bought, or null: a training course with phases
 * needs a phase; a private class with teachers to choose from needs a teacher. One rule for the app
 * (buy bar) and anything else that asks.
 */
export function requiredChoice(g: {
  kind: GoodsKind;
  phases?: readonly unknown[] | null;
  teachers?: readonly unknown[] | null;
}): GoodsChoiceKind | null {
  if (g.phases && g.phases.length > 0) return 'phase';
  if (g.kind === 'private' && g.teachers && g.teachers.length > 0) return 'teacher';
  return null;
}

/**
 * Whether the choice is made with one of the offered options (a phase that can still be chosen, a
 * listed teacher). Goods that need no choice are always ready.
 */
export function choiceMade(
  g: { kind: GoodsKind; phases?: readonly { id: number; isUable?: boolean }[] | null; teachers?: readonly { id: number }[] | null },
  choice: GoodsChoice,
): boolean {
  const need = requiredChoice(g);
  if (need === 'phase') return (g.phases ?? []).some((p) => p.id === choice.phaseId && p.isUable !== false);
  if (need === 'teacher') return (g.teachers ?? []).some((t) => t.id === choice.teacherId);
  return true;
}
