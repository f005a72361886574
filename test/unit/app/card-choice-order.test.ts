import { describe, expect, it } from 'vitest';
import type { CardForClass } from '../../../src/api/booking';
import { choiceOrder } from '../../../src/app/screens/booking/card-choice';

const card = (id: number, usable: boolean) => ({ id, usable }) as CardForClass;

describe('the confirm step lists the cards that can book first', () => {
  it('keeps the server order within usable and unusable cards', () => {
    expect(
      choiceOrder([card(14, false), card(13, false), card(9, true), card(8, true), card(7, false), card(4, true)]).map((c) => c.id),
    ).toEqual([9, 8, 4, 14, 13, 7]);
  });
});
