import { CLASS_TYPES } from '../../../domain/catalog';
import { mediaUrl } from '../../services/catalog-media';
import type { Tx } from '../client';
import { advisers, classTypes, clubs, styles, teachers } from '../schema/index';

/** Four studios in Shanghai (GCJ-02 coordinates, as Chinese maps use). */
const CLUBS = [
  {
    name: '静安寺旗舰店',
    nameEn: "Jing'an Temple Flagship",
    address: '上海市静安区南京西路1788号国际中心3楼',
    addressEn: "3F, 1788 International Center, 1788 West Nanjing Road, Jing'an District",
    phone: '021-62881788',
    lat: 31.22347,
    lng: 121.44583,
    slug: 'jingan',
    intro: '地铁2号线静安寺站步行3分钟。四间教室、恒温空中瑜伽室与淋浴更衣区，每天早七点到晚十点开课。',
    introEn:
      "Three minutes' walk from Jing'an Temple station (Line 2). Four studios, a heated aerial room, showers and lockers; classes from 7 am to 10 pm.",
    openingHours: '07:00-22:00',
  },
  {
    name: '徐家汇店',
    nameEn: 'Xujiahui',
    address: '上海市徐汇区虹桥路1号港汇中心二座12楼',
    addressEn: '12F, Tower 2, Grand Gateway, 1 Hongqiao Road, Xuhui District',
    phone: '021-64071001',
    lat: 31.19523,
    lng: 121.43704,
    slug: 'xujiahui',
    intro: '位于徐家汇商圈，窗外是城市天际线。擅长空中瑜伽与普拉提小班课。',
    introEn: 'In the heart of Xujiahui with a skyline view. Known for aerial yoga and small-group Pilates.',
    openingHours: '07:30-21:30',
  },
  {
    name: '陆家嘴店',
    nameEn: 'Lujiazui',
    address: '上海市浦东新区世纪大道8号国金中心二期6楼',
    addressEn: '6F, IFC Phase II, 8 Century Avenue, Pudong New Area',
    phone: '021-50128008',
    lat: 31.23652,
    lng: 121.50195,
    slug: 'lujiazui',
    intro: '为金融城的上班族设计：午间45分钟快课、晚间阴瑜伽与冥想。',
    introEn: 'Made for the financial district: 45-minute lunch classes, evening yin yoga and meditation.',
    openingHours: '06:30-22:00',
  },
  {
    name: '新天地店',
    nameEn: 'Xintiandi',
    address: '上海市黄浦区马当路245号新天地时尚二期3楼',
    addressEn: '3F, Xintiandi Style II, 245 Madang Road, Huangpu District',
    phone: '021-63850245',
    lat: 31.21742,
    lng: 121.47613,
    slug: 'xintiandi',
    intro: '石库门街区里的安静空间，阿斯汤加与力量瑜伽的专业教室。',
    introEn: 'A quiet space among the shikumen lanes, home to Ashtanga and power yoga.',
    openingHours: '07:00-21:00',
  },
] as const;

const STYLES = [
  ['hatha', '哈他瑜伽', 'Hatha', '以体式与呼吸为基础，节奏舒缓，适合入门。', 'Postures and breath at a gentle pace; a good start.'],
  [
    'vinyasa',
    '流瑜伽',
    'Vinyasa',
    '动作随呼吸流动衔接，提升耐力与协调。',
    'Poses linked with the breath; builds stamina and coordination.',
  ],
  ['yin', '阴瑜伽', 'Yin', '长时间停留的被动体式，放松筋膜与关节。', 'Long, passive holds that release fascia and joints.'],
  ['ashtanga', '阿斯汤加', 'Ashtanga', '固定序列的传统练习，强度较高。', 'A traditional fixed sequence; demanding.'],
  ['aerial', '空中瑜伽', 'Aerial', '借助吊床完成倒立与伸展。', 'Inversions and stretches supported by a hammock.'],
  ['pilates', '普拉提', 'Pilates', '核心力量与体态控制训练。', 'Core strength and posture control.'],
  ['restorative', '修复瑜伽', 'Restorative', '借助辅具的深度放松练习。', 'Deep relaxation with props.'],
  ['power', '力量瑜伽', 'Power yoga', '以力量与燃脂为目标的动态练习。', 'Dynamic practice for strength and burn.'],
  ['prenatal', '孕产瑜伽', 'Prenatal', '为孕期与产后设计的安全练习。', 'Safe practice for pregnancy and after birth.'],
  ['meditation', '冥想', 'Meditation', '呼吸与专注练习。', 'Breathing and focus practice.'],
] as const;

const CLASS_TYPE_TEXT: Record<string, [string, string]> = {
  workshop: ['国内外名师主题工作坊，需单独购买。', 'Themed workshops by visiting masters; bought separately.'],
  open: ['面向所有人的公开课，可单次购买。', 'Classes open to everyone; buy a single seat.'],
  private: ['一对一私教，按会员私教卡预约。', 'One-to-one sessions, booked with a private-lesson card.'],
  'small-group': ['6人以内小班，老师关注更细致。', 'Up to six people, more attention from the teacher.'],
  regular: ['会员卡可预约的常规团课。', 'Group classes booked with a membership card.'],
  training: ['瑜伽教师培训与进修课程。', 'Teacher training and further study.'],
};

/** Teachers: name, English name, slug for the avatar, club index, styles, years, bios. */
const TEACHERS = [
  [
    '林美',
    'Lin Mei',
    0,
    ['hatha', 'yin'],
    12,
    '全美瑜伽联盟E-RYT 500认证导师，十二年教学经验，课堂温和细致，擅长帮助初学者建立正确的体式基础。',
    'E-RYT 500 with twelve years of teaching; gentle and precise, she helps beginners build sound foundations.',
  ],
  [
    '陈思远',
    'Chen Siyuan',
    0,
    ['ashtanga', 'vinyasa'],
    9,
    '曾在迈索尔随传统老师学习阿斯汤加，课程节奏明快，注重呼吸与专注。',
    'Studied Ashtanga in Mysore; brisk classes with a focus on breath and attention.',
  ],
  [
    '王雅琴',
    'Wang Yaqin',
    1,
    ['aerial', 'pilates'],
    7,
    '前舞蹈演员，空中瑜伽与普拉提双认证，动作优雅且讲解清晰。',
    'Former dancer, certified in aerial yoga and Pilates; graceful movement, clear cues.',
  ],
  [
    '赵晨',
    'Zhao Chen',
    1,
    ['vinyasa', 'power'],
    6,
    '力量流瑜伽教练，课堂充满能量，适合想提升体能的会员。',
    'Power-flow coach with high-energy classes for members who want more stamina.',
  ],
  [
    '李静',
    'Li Jing',
    2,
    ['yin', 'restorative', 'meditation'],
    10,
    '专注阴瑜伽与冥想十年，帮助忙碌的上班族放松身心、改善睡眠。',
    'Ten years of yin yoga and meditation, helping busy professionals unwind and sleep better.',
  ],
  [
    '周若曦',
    'Zhou Ruoxi',
    2,
    ['pilates', 'hatha'],
    5,
    '康复背景的普拉提老师，擅长体态评估与肩颈调理。',
    'Pilates teacher with a physiotherapy background; posture assessment and neck-and-shoulder care.',
  ],
  [
    '普丽娅',
    'Priya Sharma',
    3,
    ['ashtanga', 'hatha'],
    15,
    '来自印度瑞诗凯诗，十五年阿斯汤加教学经验，定期主持大师工作坊与教师培训。',
    'From Rishikesh, fifteen years of teaching Ashtanga; leads master workshops and teacher training.',
  ],
  [
    '孙浩',
    'Sun Hao',
    3,
    ['power', 'vinyasa'],
    8,
    '运动康复专业出身，力量瑜伽课程兼顾强度与安全。',
    'Sports-rehabilitation graduate; power yoga that is intense yet safe.',
  ],
  [
    '何清',
    'He Qing',
    0,
    ['prenatal', 'hatha'],
    11,
    '孕产瑜伽专项导师，陪伴数百位妈妈度过孕期与产后恢复。',
    'Prenatal specialist who has guided hundreds of mothers through pregnancy and recovery.',
  ],
] as const;

/** Each club's membership advisers (zh, en), by the clubs' order. */
const ADVISERS: readonly (readonly (readonly [string, string])[])[] = [
  [
    ['王静', 'Wang Jing'],
    ['李娜', 'Li Na'],
  ],
  [
    ['张敏', 'Zhang Min'],
    ['陈晨', 'Chen Chen'],
  ],
  [
    ['刘洋', 'Liu Yang'],
    ['赵雪', 'Zhao Xue'],
  ],
  [
    ['孙悦', 'Sun Yue'],
    ['周婷', 'Zhou Ting'],
  ],
];

const slugOf = (nameEn: string) => nameEn.toLowerCase().replace(/[^a-z]+/g, '-');

/** Clubs, styles, class types and teachers; the first teacher is linked to the demo teacher account. */
export async function seedClubs(tx: Tx, teacherAccountId: number) {
  const clubRows = await tx
    .insert(clubs)
    .values(
      CLUBS.map((c, i) => ({
        name: c.name,
        nameEn: c.nameEn,
        city: '上海',
        cityEn: 'Shanghai',
        address: c.address,
        addressEn: c.addressEn,
        phone: c.phone,
        lat: c.lat,
        lng: c.lng,
        coverImage: mediaUrl('club', c.slug),
        intro: c.intro,
        introEn: c.introEn,
        openingHours: c.openingHours,
        sort: i,
      })),
    )
    .returning({ id: clubs.id });

  await tx
    .insert(styles)
    .values(
      STYLES.map(([key, name, nameEn, description, descriptionEn], i) => ({ key, name, nameEn, description, descriptionEn, sort: i })),
    );
  await tx.insert(classTypes).values(
    CLASS_TYPES.map((t, i) => ({
      key: t.value,
      name: t.zh,
      nameEn: t.en,
      description: CLASS_TYPE_TEXT[t.value]?.[0] ?? '',
      descriptionEn: CLASS_TYPE_TEXT[t.value]?.[1] ?? null,
      sort: i,
    })),
  );

  const teacherRows = await tx
    .insert(teachers)
    .values(
      TEACHERS.map(([name, nameEn, club, st, years, bio, bioEn], i) => ({
        name,
        nameEn,
        photo: mediaUrl('avatar', slugOf(nameEn)),
        bio,
        bioEn,
        styles: [...st],
        clubId: clubRows[club]!.id,
        years,
        accountId: i === 0 ? teacherAccountId : null,
        sort: i,
      })),
    )
    .returning({ id: teachers.id });
  // membership advisers (decision 034): two a club, the member chooses one for a card
  await tx
    .insert(advisers)
    .values(
      clubRows.flatMap((club, c) =>
        ADVISERS[c % ADVISERS.length]!.map(([name, nameEn], i) => ({ clubId: club.id, name, nameEn, sort: i })),
      ),
    );
  return { clubIds: clubRows.map((r) => r.id), teacherIds: teacherRows.map((r) => r.id) };
}
