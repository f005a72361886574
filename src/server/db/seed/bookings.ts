import { asc } from 'drizzle-orm';
import { seatCountSql } from '../consistency';
import type { ClassTypeKey } from '../../../domain/catalog';
import type { Clock } from '../../../domain/clock';
import { DAY_MS, shanghaiDateAfter } from '../../../domain/time';
import type { Tx } from '../client';
import { accounts, bookings, cardFamilyMembers, classes, goods, memberCards } from '../schema/index';
import { generator, type SeededClass } from './classes';

const GROUP: ClassTypeKey[] = ['regular', 'small-group', 'open'];

/** Seeded members (no password: they cannot log in) who fill the classes, so full classes are real. */
export const CLASSMATES_PER_CLUB = 16;

type CardSeed = Omit<typeof memberCards.$inferInsert, 'accountId' | 'createdAt' | 'number' | 'goodsId'> & { goods: number };

/**
 * The demo members' cards (goods by their place in seed/goods.ts): every state and restriction the
 * booking rules know. Member 1 is level 1, member 2 level 2 (seed/people.ts).
 */
function demoCards(now: number): { member: 0 | 1; card: CardSeed }[] {
  const at = (days: number) => new Date(now + days * DAY_MS);
  const day = (days: number) => shanghaiDateAfter(new Date(now), days);
  const base = { allowedClassTypes: GROUP };
  return [
    // member 1: a count card with few uses left that expires soon (matches the seeded notice), an annual card, an inactive card
    {
      member: 0,
      card: {
        ...base,
        goods: 0,
        cardType: 'count',
        name: '10次卡',
        nameEn: '10-class card',
        status: 'in_use',
        usesTotal: 10,
        usesLeft: 4,
        validityDays: 180,
        validFrom: at(-155),
        validUntil: at(25),
      },
    },
    {
      member: 0,
      card: {
        ...base,
        goods: 1,
        cardType: 'time-based',
        name: '年卡',
        nameEn: 'Annual card',
        status: 'in_use',
        usesTotal: null,
        usesLeft: null,
        validityDays: 365,
        validFrom: at(-100),
        validUntil: at(265),
      },
    },
    {
      member: 0,
      card: {
        ...base,
        goods: 15,
        cardType: 'count',
        name: '双十一限量次卡',
        nameEn: 'Singles Day count card',
        status: 'inactive',
        usesTotal: 11,
        usesLeft: 11,
        validityDays: 120,
      },
    },
    // member 2: count, time-based, inactive, expired, weekend-only, few uses left, off-peak, private, benefits, experience, frozen
    {
      member: 1,
      card: {
        ...base,
        goods: 0,
        cardType: 'count',
        name: '10次卡',
        nameEn: '10-class card',
        status: 'in_use',
        usesTotal: 10,
        usesLeft: 8,
        validityDays: 180,
        validFrom: at(-20),
        validUntil: at(160),
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 1,
        cardType: 'time-based',
        name: '年卡',
        nameEn: 'Annual card',
        status: 'in_use',
        usesTotal: null,
        usesLeft: null,
        validityDays: 365,
        validFrom: at(-30),
        validUntil: at(335),
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 3,
        cardType: 'gift',
        name: '礼品卡',
        nameEn: 'Gift card',
        status: 'inactive',
        usesTotal: 8,
        usesLeft: 8,
        validityDays: 365,
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 16,
        cardType: 'time-based',
        name: '季卡',
        nameEn: 'Season card',
        status: 'expired',
        usesTotal: null,
        usesLeft: null,
        validityDays: 90,
        validFrom: at(-120),
        validUntil: at(-30),
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 6,
        cardType: 'restricted',
        name: '周末卡',
        nameEn: 'Weekend card',
        status: 'in_use',
        usesTotal: 24,
        usesLeft: 20,
        validityDays: 180,
        validFrom: at(-40),
        validUntil: at(140),
        weekendOnly: true,
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 0,
        cardType: 'count',
        name: '10次卡（即将用完）',
        nameEn: '10-class card (almost used)',
        status: 'in_use',
        usesTotal: 10,
        usesLeft: 2,
        validityDays: 180,
        validFrom: at(-90),
        validUntil: at(90),
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 6,
        cardType: 'restricted',
        name: '闲时卡',
        nameEn: 'Off-peak card',
        status: 'in_use',
        usesTotal: 20,
        usesLeft: 15,
        validityDays: 180,
        validFrom: at(-10),
        validUntil: at(170),
        offPeakSlots: ['10:00-16:00'],
        maxDifficulty: 'intermediate',
      },
    },
    {
      member: 1,
      card: {
        goods: 2,
        cardType: 'private-lesson',
        name: '私教10节卡',
        nameEn: 'Private lessons x10',
        status: 'in_use',
        usesTotal: 10,
        usesLeft: 9,
        validityDays: 180,
        validFrom: at(-5),
        validUntil: at(175),
        allowedClassTypes: ['private'],
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 8,
        cardType: 'equity',
        name: '权益卡',
        nameEn: 'Benefits card',
        status: 'in_use',
        usesTotal: null,
        usesLeft: null,
        validityDays: 365,
        validFrom: at(-60),
        validUntil: at(305),
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 7,
        cardType: 'gifted',
        name: '体验赠卡（送朋友）',
        nameEn: 'Trial card (for a friend)',
        status: 'inactive',
        usesTotal: 2,
        usesLeft: 2,
        validityDays: 30,
        experience: true,
        bookingWindowDays: 7,
      },
    },
    {
      member: 1,
      card: {
        ...base,
        goods: 0,
        cardType: 'count',
        name: '10次卡（已冻结）',
        nameEn: '10-class card (frozen)',
        status: 'frozen',
        usesTotal: 10,
        usesLeft: 6,
        validityDays: 180,
        validFrom: at(-60),
        validUntil: at(120),
        frozenFrom: day(-3),
        frozenUntil: day(10),
      },
    },
  ];
}

/**
 * Member cards for the demo members and the classmates, and bookings that fill the schedule: past
 * classes checked in (or not), upcoming ones from nearly empty to full with a queue. booked_count
 * is written from the rows, so it always matches them.
 */
export async function seedBookings(tx: Tx, clock: Clock, demoMemberIds: readonly number[], seeded: readonly SeededClass[]): Promise<void> {
  const now = clock.now().getTime();
  const goodsRows = await tx.select({ id: goods.id }).from(goods).orderBy(asc(goods.sort), asc(goods.id));
  const goodsId = (i: number) => goodsRows[i]?.id ?? null;
  let serial = 0;
  const number = () => `YC${String(++serial).padStart(8, '0')}`;

  const demo = demoCards(now);
  const demoCardRows = await tx
    .insert(memberCards)
    .values(
      demo.map(({ member, card: { goods: g, ...card } }) => ({
        ...card,
        accountId: demoMemberIds[member]!,
        buyerAccountId: card.experience ? demoMemberIds[member]! : null,
        goodsId: goodsId(g),
        number: number(),
        createdAt: new Date(now - 60 * DAY_MS),
      })),
    )
    .returning({ id: memberCards.id });

  // the family main card comes after the classmates' cards (below), so the ids of every card seeded before it stay as they were

  // classmates: 16 per club, each with an annual card
  const clubCount = Math.max(...seeded.map((c) => c.clubIndex)) + 1;
  const mates = await tx
    .insert(accounts)
    .values(
      Array.from({ length: clubCount * CLASSMATES_PER_CLUB }, (_, i) => ({
        phone: `1390000${String(i + 1).padStart(4, '0')}`,
        role: 'member',
        level: i % 5 === 0 ? '1' : '2',
        name: `会员${i + 1}`,
        createdAt: new Date(now - 90 * DAY_MS),
      })),
    )
    .returning({ id: accounts.id });
  const mateCards = await tx
    .insert(memberCards)
    .values(
      mates.map((m) => ({
        accountId: m.id,
        goodsId: goodsId(1),
        cardType: 'time-based' as const,
        name: '年卡',
        nameEn: 'Annual card',
        number: number(),
        status: 'in_use' as const,
        validityDays: 365,
        validFrom: new Date(now - 100 * DAY_MS),
        validUntil: new Date(now + 265 * DAY_MS),
        allowedClassTypes: ['regular', 'small-group', 'open', 'workshop', 'private'] as ClassTypeKey[],
        createdAt: new Date(now - 100 * DAY_MS),
      })),
    )
    .returning({ id: memberCards.id });

  await seedFamilyCard(tx, now, demoMemberIds, goodsId(4), number());

  const rnd = generator(7_331);
  const rows: (typeof bookings.$inferInsert)[] = [];
  const booked = new Map<number, number>();
  for (const c of seeded) {
    const group = Array.from(
      { length: CLASSMATES_PER_CLUB },
      (_, k) => c.clubIndex * CLASSMATES_PER_CLUB + ((k + c.day + 10 + c.slot * 3) % CLASSMATES_PER_CLUB),
    );
    const past = c.startsAt.getTime() + c.durationMin * 60_000 <= now;
    const roll = rnd();
    // 25% nearly empty, 30% half, 20% nearly full, 25% full (with a queue)
    let seats =
      roll < 0.25
        ? Math.floor(rnd() * 3)
        : roll < 0.55
          ? Math.floor(c.capacity / 2)
          : roll < 0.75
            ? Math.max(0, c.capacity - 1 - Math.floor(rnd() * 2))
            : c.capacity;
    seats = Math.min(seats, c.capacity, group.length);
    const queue = seats === c.capacity && !past && c.capacity > 1 ? Math.min(group.length - seats, 1 + Math.floor(rnd() * 3)) : 0;
    const createdAt = new Date(Math.min(now, c.startsAt.getTime()) - 2 * DAY_MS);
    for (let k = 0; k < seats + queue; k++) {
      const mate = group[k]!;
      const isSeat = k < seats;
      rows.push({
        classId: c.id,
        accountId: mates[mate]!.id,
        cardId: mateCards[mate]!.id,
        // what the time-passing job would have written by now (decision 018): a queue expired at the start
        state: !isSeat
          ? c.startsAt.getTime() <= now
            ? 'expired'
            : 'queued'
          : past
            ? rnd() < 0.85
              ? 'checked_in'
              : 'not_checked_in'
            : 'booked',
        queuedAt: isSeat ? null : new Date(createdAt.getTime() + k * 60_000),
        createdAt,
        bookedAt: isSeat ? createdAt : null,
        checkedInAt: null,
      });
    }
    booked.set(c.id, seats);
  }

  // the demo members' own bookings: member 2 has Saturday 09:00 at the flagship, one past class
  // checked in and one not; member 1 has a past class checked in
  const [m1, m2] = demoMemberIds;
  const cardOf = (member: 0 | 1, nth: number) =>
    demoCardRows[demo.findIndex((d, i) => d.member === member && demo.slice(0, i).filter((x) => x.member === member).length === nth)]!.id;
  // the class of that club and day nearest the wanted slot that still has a seat
  const pick = (club: number, day: number, slot: number) =>
    seeded
      .filter((c) => c.clubIndex === club && c.day === day && c.classType === 'regular' && (booked.get(c.id) ?? 0) < c.capacity)
      .sort((a, b) => Math.abs(a.slot - slot) - Math.abs(b.slot - slot))[0];
  const own: {
    account: number;
    card: number;
    cls: SeededClass | undefined;
    state: 'booked' | 'checked_in' | 'not_checked_in';
    spent: number;
  }[] = [
    { account: m2!, card: cardOf(1, 0), cls: pick(0, 1, 1), state: 'booked', spent: 1 },
    { account: m2!, card: cardOf(1, 0), cls: pick(0, -2, 4), state: 'checked_in', spent: 1 },
    { account: m2!, card: cardOf(1, 1), cls: pick(1, -1, 0), state: 'not_checked_in', spent: 0 },
    { account: m1!, card: cardOf(0, 1), cls: pick(0, -1, 4), state: 'checked_in', spent: 0 },
  ];
  for (const o of own) {
    if (!o.cls || !o.account) continue;
    const createdAt = new Date(Math.min(now, o.cls.startsAt.getTime()) - DAY_MS);
    rows.push({
      classId: o.cls.id,
      accountId: o.account,
      cardId: o.card,
      state: o.state,
      usesSpent: o.spent,
      createdAt,
      bookedAt: createdAt,
      checkedInAt: o.state === 'checked_in' ? o.cls.startsAt : null,
    });
    booked.set(o.cls.id, (booked.get(o.cls.id) ?? 0) + 1);
  }

  for (let i = 0; i < rows.length; i += 500) await tx.insert(bookings).values(rows.slice(i, i + 500));
  await tx.update(classes).set({ bookedCount: seatCountSql() });
}

/** The family main card's goods place in seed/goods.ts, and the uses its holder and sub-card holders share. */
export const DEMO_FAMILY_CARD = { name: '亲情年卡（主卡）', usesTotal: 100, usesLeft: 96 } as const;

/**
 * A family main card (decision 040) held by member 1 and shared with member 2 as its one sub-card
 * holder (one place of two left), so a demo can log in as member 2 and book with member 1's card.
 */
async function seedFamilyCard(
  tx: Tx,
  now: number,
  demoMemberIds: readonly number[],
  goodsId: number | null,
  number: string,
): Promise<void> {
  const [m1, m2] = demoMemberIds;
  if (m1 === undefined || m2 === undefined) return;
  const [card] = await tx
    .insert(memberCards)
    .values({
      accountId: m1,
      goodsId,
      cardType: 'family-main',
      name: DEMO_FAMILY_CARD.name,
      nameEn: 'Family annual card (main)',
      number,
      status: 'in_use',
      usesTotal: DEMO_FAMILY_CARD.usesTotal,
      usesLeft: DEMO_FAMILY_CARD.usesLeft,
      validityDays: 365,
      validFrom: new Date(now - 45 * DAY_MS),
      validUntil: new Date(now + 320 * DAY_MS),
      allowedClassTypes: GROUP,
      createdAt: new Date(now - 46 * DAY_MS),
    })
    .returning({ id: memberCards.id });
  await tx.insert(cardFamilyMembers).values({ cardId: card!.id, accountId: m2, addedBy: m1, createdAt: new Date(now - 40 * DAY_MS) });
}
