import { describe, expect, it } from 'vitest';
import {
  CARD_TYPE_VALUES,
  CARD_TYPES,
  CLASS_TYPES,
  DICT_TYPES,
  DIFFICULTIES,
  dictLabel,
  EFFECTS,
  FIXED_DICTS,
  GOODS_KIND_VALUES,
  GOODS_KINDS,
  TIMES_OF_DAY,
  type DictEntry,
} from '../../src/domain/catalog';

const en = (list: readonly DictEntry[]) => list.map((e) => e.en);
const zh = (list: readonly DictEntry[]) => list.map((e) => e.zh);

describe('the fixed dictionaries of spec §3 and §9', () => {
  it('difficulty: beginner, intermediate, advanced (spec §9), in that order', () => {
    expect(DIFFICULTIES.map((e) => e.value)).toEqual(['beginner', 'intermediate', 'advanced']);
    expect(zh(DIFFICULTIES)).toEqual(['初级', '中级', '高级']);
    expect(en(DIFFICULTIES)).toEqual(['Beginner', 'Intermediate', 'Advanced']);
  });

  it('time of day: morning, afternoon, evening (spec §9)', () => {
    expect(TIMES_OF_DAY.map((e) => e.value)).toEqual(['morning', 'afternoon', 'evening']);
    expect(zh(TIMES_OF_DAY)).toEqual(['上午', '下午', '晚上']);
    expect(en(TIMES_OF_DAY)).toEqual(['Morning', 'Afternoon', 'Evening']);
  });

  it('class types: master workshop, open, private, small group, regular, training (spec §9)', () => {
    expect(CLASS_TYPES.map((e) => e.value)).toEqual(['workshop', 'open', 'private', 'small-group', 'regular', 'training']);
    expect(en(CLASS_TYPES)).toEqual([
      'Master workshop',
      'Open class',
      'Private class',
      'Small group class',
      'Regular class',
      'Training course',
    ]);
    expect(zh(CLASS_TYPES)).toEqual(['大师工作坊', '公开课', '私教课', '小班课', '常规课', '培训课']);
  });

  it('card types: private-lesson, gift, family main, family sub, restricted, gifted, time-based, count, equity (spec §3)', () => {
    expect(CARD_TYPE_VALUES).toEqual([
      'private-lesson',
      'gift',
      'family-main',
      'family-sub',
      'restricted',
      'gifted',
      'time-based',
      'count',
      'equity',
    ]);
    expect(CARD_TYPES.map((e) => e.value)).toEqual(CARD_TYPE_VALUES);
    expect(zh(CARD_TYPES)).toEqual(['私教卡', '礼品卡', '亲情主卡', '亲情副卡', '限制卡', '赠送卡', '期限卡', '次卡', '权益卡']);
    expect(en(CARD_TYPES)).toEqual([
      'Private-lesson card',
      'Gift card',
      'Family main card',
      'Family sub card',
      'Restricted card',
      'Gifted card',
      'Time-based card',
      'Count card',
      'Equity card',
    ]);
  });

  it('goods kinds: what members buy (spec §1: cards, coupons, open classes, master workshops, private classes, teacher training)', () => {
    expect(GOODS_KIND_VALUES).toEqual(['card', 'coupon', 'workshop', 'open', 'private', 'primary', 'training']);
    expect(GOODS_KINDS.map((e) => e.value)).toEqual(GOODS_KIND_VALUES);
    expect(zh(GOODS_KINDS)).toEqual(['会员卡', '优惠券', '大师工作坊', '公开课', '私教课', '初级课', '培训课程']);
    expect(en(GOODS_KINDS)).toEqual([
      'Membership card',
      'Coupon',
      'Master workshop',
      'Open class',
      'Private class',
      'Primary class',
      'Teacher training',
    ]);
  });

  it('the "effect" course filter (spec §3 filter labels)', () => {
    expect(EFFECTS.map((e) => e.value)).toEqual(['flexibility', 'strength', 'relaxation', 'posture', 'balance']);
    expect(zh(EFFECTS)).toEqual(['柔韧', '力量', '放松减压', '体态矫正', '平衡']);
    expect(en(EFFECTS)).toEqual(['Flexibility', 'Strength', 'Relaxation', 'Posture', 'Balance']);
  });

  it('every value in a dictionary is one key, never two entries with the same key', () => {
    for (const list of [GOODS_KINDS, CARD_TYPES, CLASS_TYPES, DIFFICULTIES, TIMES_OF_DAY, EFFECTS]) {
      expect(new Set(list.map((e) => e.value)).size).toBe(list.length);
    }
  });
});

describe('GET /index/home/dict/select answers these dictionaries', () => {
  it('by type: card types, goods kinds, class types, styles, difficulty, time of day, effect', () => {
    expect([...DICT_TYPES]).toEqual(['cardType', 'goodsKind', 'classType', 'style', 'difficulty', 'timeOfDay', 'effect']);
  });

  it('the fixed ones from here; class types and styles from the database (they carry more than a label)', () => {
    expect(FIXED_DICTS).toEqual({
      cardType: CARD_TYPES,
      goodsKind: GOODS_KINDS,
      difficulty: DIFFICULTIES,
      timeOfDay: TIMES_OF_DAY,
      effect: EFFECTS,
    });
    expect(FIXED_DICTS.classType).toBeUndefined();
    expect(FIXED_DICTS.style).toBeUndefined();
  });

  it('a label in the language asked for: English for en, Chinese otherwise', () => {
    const entry = { zh: '次卡', en: 'Count card' };
    expect(dictLabel(entry, 'en')).toBe('Count card');
    expect(dictLabel(entry, 'zh')).toBe('次卡');
  });
});
