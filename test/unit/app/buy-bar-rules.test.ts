import { describe, expect, it } from 'vitest';
import type { GoodsDetail, GoodsPhase, GoodsTeacher } from '../../../src/api/catalog-goods';
import { buyBarState, payAgreementPath, priceFor } from '../../../src/app/screens/catalog/courses/buy-bar-rules';
import { choiceMade, requiredChoice } from '../../../src/domain/goods-choice';

type BarGoods = Parameters<typeof buyBarState>[0];

/** A phase and a teacher as the server answers them (src/contracts/catalog.ts), with what the test varies. */
const phase = (p: Pick<GoodsPhase, 'id' | 'name'> & Partial<GoodsPhase>): GoodsPhase => ({
  startsAt: null,
  endsAt: null,
  isUable: true,
  message: null,
  ...p,
});
const teacher = (id: number, name: string): GoodsTeacher => ({ id, name, photo: '', clubName: null });

const workshop: BarGoods = { id: 11, kind: 'workshop', isUable: true, message: null, phases: [], teachers: [] };
const training: BarGoods = {
  id: 15,
  kind: 'training',
  isUable: true,
  message: null,
  phases: [phase({ id: 1, name: '一期' }), phase({ id: 2, name: '二期', isUable: false, message: '已满' })],
  teachers: [],
};
const privateClass: BarGoods = {
  id: 13,
  kind: 'private',
  isUable: true,
  message: null,
  phases: [],
  teachers: [teacher(4, 'A'), teacher(7, 'B')],
};

describe('before buying, the phase or teacher is chosen (spec §5)', () => {
  it('a training course with phases needs a phase; a private class with teachers needs a teacher; others need nothing', () => {
    expect(requiredChoice(training)).toBe('phase');
    expect(requiredChoice(privateClass)).toBe('teacher');
    expect(requiredChoice(workshop)).toBeNull();
    expect(requiredChoice({ kind: 'training', phases: [] })).toBeNull();
    expect(requiredChoice({ kind: 'private', teachers: [] })).toBeNull();
    // a teacher list on another kind is information, not a choice
    expect(requiredChoice({ kind: 'workshop', teachers: [{ id: 1 }] })).toBeNull();
  });

  it('Buy is disabled, saying what to choose, until a phase is chosen', () => {
    expect(buyBarState(training, {}, true)).toEqual({ step: 'choose', need: 'phase' });
    expect(buyBarState(training, { phaseId: 1 }, true)).toEqual({ step: 'buy', to: '/agreement/payagreement?id=15&phaseId=1' });
  });

  it('a phase that cannot be chosen, or one that is not offered, does not count', () => {
    expect(buyBarState(training, { phaseId: 2 }, true)).toEqual({ step: 'choose', need: 'phase' });
    expect(buyBarState(training, { phaseId: 99 }, true)).toEqual({ step: 'choose', need: 'phase' });
    expect(choiceMade(training as Parameters<typeof choiceMade>[0], { teacherId: 1 })).toBe(false);
  });

  it('Buy is disabled until a listed teacher is chosen', () => {
    expect(buyBarState(privateClass, {}, true)).toEqual({ step: 'choose', need: 'teacher' });
    expect(buyBarState(privateClass, { teacherId: 5 }, true)).toEqual({ step: 'choose', need: 'teacher' });
    expect(buyBarState(privateClass, { teacherId: 7 }, true)).toEqual({ step: 'buy', to: '/agreement/payagreement?id=13&teacherId=7' });
  });

  it('only the choice the goods need goes to the agreement', () => {
    expect(buyBarState(workshop, { phaseId: 3, teacherId: 4 }, true)).toEqual({ step: 'buy', to: '/agreement/payagreement?id=11' });
    expect(buyBarState(training, { phaseId: 1, teacherId: 4 }, true)).toEqual({
      step: 'buy',
      to: '/agreement/payagreement?id=15&phaseId=1',
    });
  });
});

describe('the visitor gate: a visitor logs in before buying (spec §5, §6)', () => {
  it('a visitor pressing Buy goes to /login/<the agreement, choice kept> as one encoded segment', () => {
    expect(buyBarState(workshop, {}, false)).toEqual({
      step: 'login',
      to: `/login/${encodeURIComponent('/agreement/payagreement?id=11')}`,
    });
    expect(buyBarState(privateClass, { teacherId: 4 }, false)).toEqual({
      step: 'login',
      to: `/login/${encodeURIComponent('/agreement/payagreement?id=13&teacherId=4')}`,
    });
  });

  it('the choice comes before the login gate: a visitor who has not chosen is told to choose', () => {
    expect(buyBarState(privateClass, {}, false)).toEqual({ step: 'choose', need: 'teacher' });
    expect(buyBarState(training, {}, false)).toEqual({ step: 'choose', need: 'phase' });
  });
});

describe('goods that cannot be bought', () => {
  it('say why, for visitors and members alike, whatever is chosen', () => {
    const soldOut: BarGoods = { ...training, isUable: false, message: '手速不够快' };
    expect(buyBarState(soldOut, { phaseId: 1 }, true)).toEqual({ step: 'unavailable', message: '手速不够快' });
    expect(buyBarState(soldOut, {}, false)).toEqual({ step: 'unavailable', message: '手速不够快' });
  });
});

describe('the price shown (spec §1: member price only after login)', () => {
  const g: Pick<GoodsDetail, 'listPriceCents' | 'memberPriceCents' | 'phases'> = {
    listPriceCents: 2380000,
    memberPriceCents: 2180000,
    phases: [phase({ id: 1, name: '一期' }), phase({ id: 2, name: '二期', listPriceCents: 1280000, memberPriceCents: 1180000 })],
  };

  it("a member sees the goods' member price, or the chosen phase's own", () => {
    expect(priceFor(g, {})).toEqual({ listPriceCents: 2380000, memberPriceCents: 2180000 });
    expect(priceFor(g, { phaseId: 1 })).toEqual({ listPriceCents: 2380000, memberPriceCents: 2180000 });
    expect(priceFor(g, { phaseId: 2 })).toEqual({ listPriceCents: 1280000, memberPriceCents: 1180000 });
  });

  it('a visitor (no member price from the server) sees list prices only', () => {
    const visitor = { ...g, memberPriceCents: undefined };
    expect(priceFor(visitor, {})).toEqual({ listPriceCents: 2380000 });
    expect(priceFor(visitor, { phaseId: 2 })).toEqual({ listPriceCents: 1280000 });
  });

  it('the agreement path carries id, phaseId and teacherId as the spec names them', () => {
    expect(payAgreementPath(5, { phaseId: 2, teacherId: 3 })).toBe('/agreement/payagreement?id=5&phaseId=2&teacherId=3');
  });
});
