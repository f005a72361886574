import type { Clock } from '../../../domain/clock';
import { hashPassword } from '../../services/auth-password';
import { mediaUrl } from '../../services/catalog-media';
import type { Tx } from '../client';
import { accounts, balanceLedger, notifications, surveyOptions, surveys } from '../schema/index';
import { DAY_MS } from '../../../domain/time';

export interface DemoAccount {
  phone: string;
  password: string;
  role: 'member' | 'teacher' | 'staff';
  /** spec §6: level '1' books 1 day ahead, others 3 days */
  level: string;
  name: string;
  banned: boolean;
  /** one line for the start banner and the README */
  note: string;
}

/** The demo logins, printed on start (demo mode) and used by the README and browser tests. */
export const demoAccounts: readonly DemoAccount[] = [
  {
    phone: '13800000001',
    password: 'yoga1234',
    role: 'member',
    level: '1',
    name: '张小雨',
    banned: false,
    note: 'member, level 1 (books 1 day ahead); holds a family main card shared with 13800000002',
  },
  {
    phone: '13800000002',
    password: 'yoga1234',
    role: 'member',
    level: '2',
    name: '刘子涵',
    banned: false,
    note: "member, level 2 (books 3 days ahead); sub-card holder of 13800000001's family card",
  },
  {
    phone: '13800000003',
    password: 'yoga1234',
    role: 'member',
    level: '2',
    name: '黄磊',
    banned: true,
    note: 'banned member (login refused)',
  },
  { phone: '13800000004', password: 'teach1234', role: 'teacher', level: '2', name: '林美', banned: false, note: 'teacher (Lin Mei)' },
  { phone: '13800000005', password: 'staff1234', role: 'staff', level: '2', name: '王芳', banned: false, note: 'front-desk staff' },
];

/** Accounts in demoAccounts order (ids 1..5 on an empty database). */
export async function seedAccounts(tx: Tx, clock: Clock, hashes: readonly string[]) {
  const rows = await tx
    .insert(accounts)
    .values(
      demoAccounts.map((a, i) => ({
        phone: a.phone,
        passwordHash: hashes[i]!,
        role: a.role,
        level: a.level,
        name: a.name,
        avatarUrl: mediaUrl('avatar', `member-${i + 1}`),
        banned: a.banned,
        createdAt: new Date(clock.now().getTime() - (60 - i) * DAY_MS),
      })),
    )
    .returning({ id: accounts.id });
  return rows.map((r) => r.id);
}

/**
 * Hashing is slow (scrypt): done before the seeding transaction opens. At the product's cost unless
 * told otherwise (the test runs' templates: their logins verify at the API tests' cost).
 */
export function hashDemoPasswords(scryptN?: number): Promise<string[]> {
  return Promise.all(demoAccounts.map((a) => hashPassword(a.password, scryptN)));
}

/** System notices for everyone and a few for the demo members. */
export async function seedNotices(tx: Tx, clock: Clock, memberIds: readonly number[]) {
  const at = (daysAgo: number) => new Date(clock.now().getTime() - daysAgo * DAY_MS);
  const [m1, m2] = memberIds;
  await tx.insert(notifications).values([
    {
      accountId: null,
      title: '静安寺旗舰店空中瑜伽室焕新开放',
      titleEn: "Jing'an aerial room reopens",
      body: '静安寺旗舰店空中瑜伽室完成升级，新增恒温系统与12套吊床，欢迎预约体验。',
      bodyEn:
        "The aerial room at the Jing'an flagship has been upgraded with climate control and twelve new hammocks. Book a class to try it.",
      createdAt: at(6),
    },
    {
      accountId: null,
      title: '双十一会员卡限时抢购',
      titleEn: 'Singles Day card flash sale',
      body: '限量次卡特价开抢，每人限购一张，售完即止。',
      bodyEn: 'A limited count card at a special price, one per member, while stocks last.',
      createdAt: at(4),
    },
    {
      accountId: null,
      title: '冬季课表已更新',
      titleEn: 'Winter timetable published',
      body: '12月起各门店新增早间冥想与晚间阴瑜伽课程，请在“约课”中查看。',
      bodyEn: 'From December every club adds morning meditation and evening yin yoga. See Book for details.',
      createdAt: at(1),
    },
    ...(m1
      ? [
          {
            accountId: m1,
            title: '您的次卡即将到期',
            titleEn: 'Your count card expires soon',
            body: '您的10次卡将在25天后到期，剩余4次，请尽快预约课程。',
            bodyEn: 'Your 10-class card expires in 25 days with 4 classes left. Book soon.',
            createdAt: at(2),
          },
          {
            accountId: m1,
            title: '欢迎加入',
            titleEn: 'Welcome',
            body: '欢迎成为我们的会员！完善个人信息可获得一张体验券。',
            bodyEn: 'Welcome to the club! Complete your profile to receive a trial coupon.',
            createdAt: at(30),
            readAt: at(29),
          },
        ]
      : []),
    ...(m2
      ? [
          {
            accountId: m2,
            title: '预约成功提醒',
            titleEn: 'Booking confirmed',
            body: '您已成功预约本周六 09:00 林美老师的哈他瑜伽。',
            bodyEn: "You are booked for Lin Mei's Hatha class this Saturday at 09:00.",
            createdAt: at(0.5),
          },
        ]
      : []),
  ]);
}

/** One active survey (spec §7 GET/POST /survey). */
export async function seedSurvey(tx: Tx, clock: Clock) {
  const [s] = await tx
    .insert(surveys)
    .values({ question: '您是通过什么渠道了解到我们的？', questionEn: 'How did you hear about us?', active: true, createdAt: clock.now() })
    .returning({ id: surveys.id });
  await tx.insert(surveyOptions).values(
    [
      ['朋友推荐', 'A friend'],
      ['微信公众号', 'WeChat official account'],
      ['小红书或抖音', 'Xiaohongshu or Douyin'],
      ['路过门店', 'Walked past a club'],
      ['其他', 'Other'],
    ].map(([label, labelEn], i) => ({ surveyId: s!.id, label: label!, labelEn: labelEn!, sort: i })),
  );
}

/** The first demo member's account balance (¥3,000, one top-up row), so paying by balance works in the demo. */
export const DEMO_BALANCE_CENTS = 300_000;

/** A top-up in the first demo member's ledger (the balance is the sum of the ledger). */
export async function seedBalances(tx: Tx, clock: Clock, memberIds: readonly number[]) {
  const [m1] = memberIds;
  if (m1 === undefined) return;
  await tx.insert(balanceLedger).values({
    accountId: m1,
    changeCents: DEMO_BALANCE_CENTS,
    reason: 'topup',
    orderId: null,
    createdAt: new Date(clock.now().getTime() - 7 * DAY_MS),
  });
}
