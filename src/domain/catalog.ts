/**
 * The catalogue's fixed dictionaries (spec §3, §9), shared by the server and the app so both use the
 * same keys. Labels are plain bilingual pairs: the server answers the request's language with them
 * (GET /api/index/home/dict/select), the app can show them without a catalog round-trip.
 */
export interface DictEntry<K extends string = string> {
  readonly value: K;
  readonly zh: string;
  readonly en: string;
}

function entries<const K extends string>(list: readonly DictEntry<K>[]): readonly DictEntry<K>[] {
  return list;
}

/** What a goods row sells. */
export const GOODS_KINDS = entries([
  { value: 'card', zh: '会员卡', en: 'Membership card' },
  { value: 'coupon', zh: '优惠券', en: 'Coupon' },
  { value: 'workshop', zh: '大师工作坊', en: 'Master workshop' },
  { value: 'open', zh: '公开课', en: 'Open class' },
  { value: 'private', zh: '私教课', en: 'Private class' },
  { value: 'primary', zh: '初级课', en: 'Primary class' },
  { value: 'training', zh: '培训课程', en: 'Teacher training' },
] as const);
export type GoodsKind = (typeof GOODS_KINDS)[number]['value'];

/** Membership card types of spec §3. */
export const CARD_TYPES = entries([
  { value: 'private-lesson', zh: '私教卡', en: 'Private-lesson card' },
  { value: 'gift', zh: '礼品卡', en: 'Gift card' },
  { value: 'family-main', zh: '亲情主卡', en: 'Family main card' },
  { value: 'family-sub', zh: '亲情副卡', en: 'Family sub card' },
  { value: 'restricted', zh: '限制卡', en: 'Restricted card' },
  { value: 'gifted', zh: '赠送卡', en: 'Gifted card' },
  { value: 'time-based', zh: '期限卡', en: 'Time-based card' },
  { value: 'count', zh: '次卡', en: 'Count card' },
  { value: 'equity', zh: '权益卡', en: 'Equity card' },
] as const);
export type CardType = (typeof CARD_TYPES)[number]['value'];

/** Class types of spec §9. */
export const CLASS_TYPES = entries([
  { value: 'workshop', zh: '大师工作坊', en: 'Master workshop' },
  { value: 'open', zh: '公开课', en: 'Open class' },
  { value: 'private', zh: '私教课', en: 'Private class' },
  { value: 'small-group', zh: '小班课', en: 'Small group class' },
  { value: 'regular', zh: '常规课', en: 'Regular class' },
  { value: 'training', zh: '培训课', en: 'Training course' },
] as const);
export type ClassTypeKey = (typeof CLASS_TYPES)[number]['value'];

/** Difficulty of spec §9. */
export const DIFFICULTIES = entries([
  { value: 'beginner', zh: '初级', en: 'Beginner' },
  { value: 'intermediate', zh: '中级', en: 'Intermediate' },
  { value: 'advanced', zh: '高级', en: 'Advanced' },
] as const);
export type Difficulty = (typeof DIFFICULTIES)[number]['value'];

/** Time of day of spec §9 (course filter). */
export const TIMES_OF_DAY = entries([
  { value: 'morning', zh: '上午', en: 'Morning' },
  { value: 'afternoon', zh: '下午', en: 'Afternoon' },
  { value: 'evening', zh: '晚上', en: 'Evening' },
] as const);
export type TimeOfDay = (typeof TIMES_OF_DAY)[number]['value'];

/** The "effect" course filter (spec §3 filter labels). */
export const EFFECTS = entries([
  { value: 'flexibility', zh: '柔韧', en: 'Flexibility' },
  { value: 'strength', zh: '力量', en: 'Strength' },
  { value: 'relaxation', zh: '放松减压', en: 'Relaxation' },
  { value: 'posture', zh: '体态矫正', en: 'Posture' },
  { value: 'balance', zh: '平衡', en: 'Balance' },
] as const);
export type Effect = (typeof EFFECTS)[number]['value'];

/**
 * The dictionaries GET /index/home/dict/select answers, by its `type` query value.
 * classType and style are answered from the database (class_types, styles) so they can carry more
 * than a label; their keys are the ones above (styles are an open list).
 */
export const DICT_TYPES = ['cardType', 'goodsKind', 'classType', 'style', 'difficulty', 'timeOfDay', 'effect'] as const;
export type DictType = (typeof DICT_TYPES)[number];

/** The fixed dictionaries (those not read from the database). */
export const FIXED_DICTS: Partial<Record<DictType, readonly DictEntry[]>> = {
  cardType: CARD_TYPES,
  goodsKind: GOODS_KINDS,
  difficulty: DIFFICULTIES,
  timeOfDay: TIMES_OF_DAY,
  effect: EFFECTS,
};

export const GOODS_KIND_VALUES = GOODS_KINDS.map((e) => e.value) as [GoodsKind, ...GoodsKind[]];
export const CARD_TYPE_VALUES = CARD_TYPES.map((e) => e.value) as [CardType, ...CardType[]];

/** Picks a label in the language asked for. */
export function dictLabel(entry: Pick<DictEntry, 'zh' | 'en'>, locale: 'zh' | 'en'): string {
  return locale === 'en' ? entry.en : entry.zh;
}
