import type { CardType, GoodsKind } from '../../../domain/catalog';
import type { Clock } from '../../../domain/clock';
import { mediaUrl } from '../../services/catalog-media';
import type { Tx } from '../client';
import { activities, banners, flashSales, goods } from '../schema/index';
import { DAY_MS } from '../../../domain/time';

interface GoodsSeed {
  kind: GoodsKind;
  cardType?: CardType;
  slug: string;
  name: string;
  nameEn: string;
  list: number;
  member: number;
  stock?: number;
  sold?: number;
  uses?: number;
  validityDays?: number;
  description: string;
  descriptionEn: string;
  club?: number;
  teacher?: number;
  /** days from now */
  startsIn?: number;
  durationDays?: number;
  newCustomersOnly?: boolean;
  perPersonLimit?: number;
  onShelf?: boolean;
}

/** Every card type of spec §3, then the other kinds; prices in cents. */
const GOODS: readonly GoodsSeed[] = [
  {
    kind: 'card',
    cardType: 'count',
    slug: 'count-10',
    name: '10次卡',
    nameEn: '10-class card',
    list: 120000,
    member: 108000,
    uses: 10,
    validityDays: 180,
    description: '可在任意门店预约常规团课10次，180天内有效。',
    descriptionEn: 'Ten regular group classes at any club within 180 days.',
  },
  {
    kind: 'card',
    cardType: 'time-based',
    slug: 'annual',
    name: '年卡',
    nameEn: 'Annual card',
    list: 680000,
    member: 598000,
    validityDays: 365,
    description: '一年内不限次数预约常规团课。',
    descriptionEn: 'Unlimited regular group classes for a year.',
  },
  {
    kind: 'card',
    cardType: 'private-lesson',
    slug: 'private-10',
    name: '私教10节卡',
    nameEn: 'Private lessons x10',
    list: 480000,
    member: 432000,
    uses: 10,
    validityDays: 180,
    description: '与指定老师一对一私教10节。',
    descriptionEn: 'Ten one-to-one lessons with the teacher of your choice.',
  },
  {
    kind: 'card',
    cardType: 'gift',
    slug: 'gift-card',
    name: '礼品卡',
    nameEn: 'Gift card',
    list: 100000,
    member: 95000,
    uses: 8,
    validityDays: 365,
    description: '送给朋友的8次课礼品卡，可转赠一次。',
    descriptionEn: 'An eight-class gift for a friend; can be passed on once.',
  },
  {
    kind: 'card',
    cardType: 'family-main',
    slug: 'family-main',
    name: '亲情年卡（主卡）',
    nameEn: 'Family annual card (main)',
    list: 980000,
    member: 880000,
    uses: 100,
    validityDays: 365,
    description: '主卡可绑定最多两张副卡，共用100次团课；主卡不可转让。',
    descriptionEn: 'The main card takes up to two sub cards, sharing 100 group classes; it cannot be transferred.',
  },
  {
    kind: 'card',
    cardType: 'family-sub',
    slug: 'family-sub',
    name: '亲情年卡（副卡）',
    nameEn: 'Family annual card (sub)',
    list: 380000,
    member: 340000,
    validityDays: 365,
    description: '需绑定一张亲情主卡使用。',
    descriptionEn: 'Used together with a family main card.',
  },
  {
    kind: 'card',
    cardType: 'restricted',
    slug: 'weekend',
    name: '周末卡',
    nameEn: 'Weekend card',
    list: 240000,
    member: 216000,
    uses: 24,
    validityDays: 180,
    description: '仅限周六、周日及节假日预约。',
    descriptionEn: 'Saturdays, Sundays and public holidays only.',
  },
  {
    kind: 'card',
    cardType: 'gifted',
    slug: 'trial-gifted',
    name: '体验赠卡',
    nameEn: 'Complimentary trial card',
    list: 19900,
    member: 0,
    stock: 30,
    uses: 2,
    validityDays: 30,
    newCustomersOnly: true,
    perPersonLimit: 1,
    description: '新会员专享，限量30张，可体验两次团课。',
    descriptionEn: 'For new members: 30 complimentary cards, two group classes each.',
  },
  {
    kind: 'card',
    cardType: 'equity',
    slug: 'equity',
    name: '权益卡',
    nameEn: 'Benefits card',
    list: 299900,
    member: 269900,
    validityDays: 365,
    description: '一年内购课享9折、每月一次免费私教体验。',
    descriptionEn: '10% off courses for a year and one free private trial each month.',
  },
  {
    kind: 'coupon',
    slug: 'coupon-50',
    name: '满500减50优惠券',
    nameEn: '¥50 off ¥500 coupon',
    list: 990,
    member: 500,
    stock: 200,
    validityDays: 30,
    perPersonLimit: 2,
    description: '购买会员卡满500元可用。',
    descriptionEn: 'For a card purchase of ¥500 or more.',
  },
  {
    kind: 'workshop',
    slug: 'ashtanga-intensive',
    name: '阿斯汤加周末工作坊',
    nameEn: 'Ashtanga weekend intensive',
    list: 168000,
    member: 148000,
    stock: 20,
    sold: 6,
    club: 3,
    teacher: 6,
    startsIn: 16,
    durationDays: 2,
    description: '普丽娅老师两天六小时深度工作坊：一序列精讲与调整。',
    descriptionEn: 'Six hours over two days with Priya Sharma: the primary series, explained and adjusted.',
  },
  {
    kind: 'open',
    slug: 'riverside-open',
    name: '徐汇滨江户外公开课',
    nameEn: 'Riverside open class',
    list: 9900,
    member: 7900,
    stock: 40,
    sold: 12,
    club: 1,
    teacher: 3,
    startsIn: 9,
    durationDays: 1,
    description: '周末清晨在黄浦江边的流瑜伽。',
    descriptionEn: 'Weekend morning vinyasa by the Huangpu river.',
  },
  {
    kind: 'private',
    slug: 'private-single',
    name: '私教体验课',
    nameEn: 'Private trial lesson',
    list: 58000,
    member: 52000,
    uses: 1,
    validityDays: 30,
    club: 0,
    teacher: 0,
    description: '60分钟一对一课程，含体态评估。',
    descriptionEn: 'Sixty minutes one-to-one, with a posture assessment.',
  },
  {
    kind: 'primary',
    slug: 'beginner-8',
    name: '零基础入门8节课',
    nameEn: 'Beginner course, 8 classes',
    list: 128000,
    member: 108000,
    uses: 8,
    validityDays: 60,
    stock: 12,
    sold: 3,
    club: 2,
    teacher: 5,
    startsIn: 5,
    durationDays: 28,
    description: '四周八节，从呼吸与基础体式学起。',
    descriptionEn: 'Four weeks, eight classes, starting from breath and basic poses.',
  },
  {
    kind: 'training',
    slug: 'ttc-200',
    name: '200小时教师培训',
    nameEn: '200-hour teacher training',
    list: 2380000,
    member: 2180000,
    stock: 16,
    sold: 9,
    club: 3,
    teacher: 6,
    startsIn: 40,
    durationDays: 60,
    description: '国际认证200小时教师培训，含解剖、哲学与教学法。',
    descriptionEn: 'Internationally certified 200-hour training: anatomy, philosophy and teaching method.',
  },
  {
    kind: 'card',
    cardType: 'count',
    slug: 'flash-11',
    name: '双十一限量次卡',
    nameEn: 'Singles Day count card',
    list: 111100,
    member: 99900,
    uses: 11,
    validityDays: 120,
    perPersonLimit: 1,
    description: '11次团课，限量30张，每人限购一张。',
    descriptionEn: 'Eleven group classes, 30 cards only, one per member.',
  },
  {
    kind: 'card',
    cardType: 'time-based',
    slug: 'season-old',
    name: '季卡（已下架）',
    nameEn: 'Season card (retired)',
    list: 220000,
    member: 198000,
    validityDays: 90,
    onShelf: false,
    description: '已停售。',
    descriptionEn: 'No longer sold.',
  },
];

/** Goods, activities and banners; ids follow GOODS order. */
export async function seedGoods(tx: Tx, clock: Clock, clubIds: readonly number[], teacherIds: readonly number[]) {
  const now = clock.now().getTime();
  const goodsRows = await tx
    .insert(goods)
    .values(
      GOODS.map((g, i) => ({
        kind: g.kind,
        cardType: g.cardType ?? null,
        name: g.name,
        nameEn: g.nameEn,
        image: mediaUrl('goods', g.slug),
        listPriceCents: g.list,
        memberPriceCents: g.member,
        stock: g.stock ?? null,
        sold: g.sold ?? 0,
        onShelf: g.onShelf ?? true,
        uses: g.uses ?? null,
        validityDays: g.validityDays ?? null,
        description: g.description,
        descriptionEn: g.descriptionEn,
        clubId: g.club === undefined ? null : clubIds[g.club]!,
        teacherId: g.teacher === undefined ? null : teacherIds[g.teacher]!,
        startsAt: g.startsIn === undefined ? null : new Date(now + g.startsIn * DAY_MS),
        endsAt: g.startsIn === undefined ? null : new Date(now + (g.startsIn + (g.durationDays ?? 1)) * DAY_MS),
        newCustomersOnly: g.newCustomersOnly ?? false,
        perPersonLimit: g.perPersonLimit ?? null,
        sort: i,
        createdAt: new Date(now - 30 * DAY_MS),
      })),
    )
    .returning({ id: goods.id });
  const goodsId = (slug: string) => goodsRows[GOODS.findIndex((g) => g.slug === slug)]!.id;

  const [singlesDay] = await tx
    .insert(activities)
    .values([
      {
        title: '双十一限量次卡抢购',
        titleEn: 'Singles Day flash sale',
        image: mediaUrl('activity', 'singles-day'),
        summary: '11次团课仅需¥999，限量30张。',
        summaryEn: 'Eleven classes for ¥999, 30 cards only.',
        body: '活动期间，会员可以¥999购买11次团课次卡，每人限购一张，售完即止。购买后120天内有效，全部门店通用。',
        bodyEn:
          'During the sale members can buy an eleven-class card for ¥999, one per member, while stocks last. Valid for 120 days at every club.',
        startsAt: new Date(now - 9 * DAY_MS),
        endsAt: new Date(now + 11 * DAY_MS),
        goodsId: goodsId('flash-11'),
        sort: 0,
      },
      {
        title: '新会员30张体验赠卡',
        titleEn: '30 complimentary trial cards',
        image: mediaUrl('activity', 'trial-cards'),
        summary: '首次到店的新朋友免费领取两次团课体验。',
        summaryEn: 'First-time visitors get two group classes free.',
        body: '限量30张体验赠卡，新会员每人限领一张，可在30天内体验任意两节常规团课。',
        bodyEn: 'Thirty complimentary cards, one per new member, each good for two regular classes within 30 days.',
        startsAt: new Date(now - 20 * DAY_MS),
        endsAt: new Date(now + 40 * DAY_MS),
        goodsId: goodsId('trial-gifted'),
        sort: 1,
      },
      {
        title: '普丽娅阿斯汤加工作坊报名中',
        titleEn: 'Ashtanga intensive with Priya: open for sign-up',
        image: mediaUrl('activity', 'ashtanga-intensive'),
        summary: '两天六小时，一序列精讲。',
        summaryEn: 'Two days, six hours, the primary series in depth.',
        body: '来自瑞诗凯诗的普丽娅老师将在新天地店带来两天的阿斯汤加深度工作坊，名额20人。',
        bodyEn: 'Priya Sharma from Rishikesh leads a two-day Ashtanga intensive at Xintiandi; 20 places.',
        startsAt: new Date(now - 3 * DAY_MS),
        endsAt: new Date(now + 16 * DAY_MS),
        clubId: clubIds[3]!,
        goodsId: goodsId('ashtanga-intensive'),
        sort: 2,
      },
      {
        title: '冬日冥想周',
        titleEn: 'Winter meditation week',
        image: mediaUrl('activity', 'meditation-week'),
        summary: '陆家嘴店每晚20:00免费冥想。',
        summaryEn: 'Free meditation at Lujiazui every evening at 8 pm.',
        body: '12月第一周，陆家嘴店每晚20:00开放免费冥想课，会员可携一位朋友参加。',
        bodyEn: 'In the first week of December the Lujiazui club holds a free meditation class every evening at 8 pm; bring a friend.',
        startsAt: new Date(now + 11 * DAY_MS),
        endsAt: new Date(now + 18 * DAY_MS),
        clubId: clubIds[2]!,
        places: 12,
        sort: 3,
      },
      {
        title: '国庆亲子瑜伽日',
        titleEn: 'National Day family yoga',
        image: mediaUrl('activity', 'family-day'),
        summary: '已结束，感谢参与。',
        summaryEn: 'Finished: thank you for joining.',
        body: '国庆期间的亲子瑜伽日已圆满结束。',
        bodyEn: 'The National Day family yoga day is over.',
        startsAt: new Date(now - 50 * DAY_MS),
        endsAt: new Date(now - 45 * DAY_MS),
        sort: 4,
      },
    ])
    .returning({ id: activities.id, startsAt: activities.startsAt, endsAt: activities.endsAt });

  // the Singles Day flash sale (decision 009): 30 cards, live from a day ago until the activity ends;
  // the sale's counter is the card's only limit (the goods row has no stock of its own)
  await tx.insert(flashSales).values({
    goodsId: goodsId('flash-11'),
    activityId: singlesDay!.id,
    title: '双十一限量次卡抢购',
    titleEn: 'Singles Day flash sale',
    startsAt: new Date(now - DAY_MS),
    endsAt: singlesDay!.endsAt,
    maxNumber: 30,
    createdAt: new Date(now - 30 * DAY_MS),
  });

  await tx.insert(banners).values([
    { title: '双十一限量次卡', titleEn: 'Singles Day count card', image: mediaUrl('banner', 'singles-day'), link: '/event11', sort: 0 },
    {
      title: '新会员体验赠卡',
      titleEn: 'Trial cards for new members',
      image: mediaUrl('banner', 'trial-cards'),
      link: '/vipcard',
      sort: 1,
    },
    { title: '大师工作坊', titleEn: 'Master workshops', image: mediaUrl('banner', 'workshops'), link: '/greatworkshop', sort: 2 },
    {
      title: '夏季活动（已下线）',
      titleEn: 'Summer event (retired)',
      image: mediaUrl('banner', 'summer'),
      link: '/activity',
      active: false,
      sort: 3,
    },
  ]);
}
