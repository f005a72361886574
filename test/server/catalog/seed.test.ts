import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CARD_TYPES } from '../../../src/domain/catalog';
import { verifyPassword } from '../../../src/server/services/auth-password';
import * as schema from '../../../src/server/db/schema/index';
import { CLASSMATES_PER_CLUB, DEMO_FAMILY_CARD } from '../../../src/server/db/seed/bookings';
import { seatCountsThatDisagree } from '../../../src/server/db/consistency';
import { demoAccounts, seedIfEmpty } from '../../../src/server/db/seed/index';
import { startTestServer } from '../support/harness';

const SEEDED_TABLES = {
  accounts: schema.accounts,
  clubs: schema.clubs,
  teachers: schema.teachers,
  banners: schema.banners,
  activities: schema.activities,
  goods: schema.goods,
  classTypes: schema.classTypes,
  styles: schema.styles,
  notifications: schema.notifications,
  surveys: schema.surveys,
  surveyOptions: schema.surveyOptions,
  memberCards: schema.memberCards,
  cardFamilyMembers: schema.cardFamilyMembers,
};

async function counts(db: Awaited<ReturnType<typeof startTestServer>>['deps']['db']) {
  const out: Record<string, number> = {};
  for (const [name, table] of Object.entries(SEEDED_TABLES)) {
    const [row] = await db.select({ n: count() }).from(table);
    out[name] = row?.n ?? 0;
  }
  return out;
}

describe('the demo seed', async () => {
  const s = await startTestServer();

  it('seeds an empty database once: seedIfEmpty twice seeds once', async () => {
    expect((await counts(s.deps.db)).clubs).toBe(0);
    expect(await seedIfEmpty(s.deps.db, s.clock, s.deps.config.passwordScryptN)).toBe(true);
    const first = await counts(s.deps.db);
    expect(await seedIfEmpty(s.deps.db, s.clock, s.deps.config.passwordScryptN)).toBe(false);
    expect(await counts(s.deps.db)).toEqual(first);
    for (const [name, n] of Object.entries(first)) expect(n, name).toBeGreaterThan(0);
  });

  it('counts in every class exactly the seats its bookings hold (checked again when seeding), and the check sees a class that does not', async () => {
    await seedIfEmpty(s.deps.db, s.clock, s.deps.config.passwordScryptN);
    expect(await seatCountsThatDisagree(s.deps.db)).toEqual([]);
    const [cls] = await s.deps.db.select().from(schema.classes).orderBy(schema.classes.id).limit(1);
    await s.deps.db
      .update(schema.classes)
      .set({ bookedCount: cls!.bookedCount + 1 })
      .where(eq(schema.classes.id, cls!.id));
    try {
      expect(await seatCountsThatDisagree(s.deps.db)).toEqual([
        { classId: cls!.id, bookedCount: cls!.bookedCount + 1, seats: cls!.bookedCount },
      ]);
    } finally {
      await s.deps.db.update(schema.classes).set({ bookedCount: cls!.bookedCount }).where(eq(schema.classes.id, cls!.id));
    }
  });

  it('gives the first row of every seeded table id 1', async () => {
    for (const [name, table] of Object.entries(SEEDED_TABLES)) {
      const [row] = await s.deps.db.select({ id: table.id }).from(table).orderBy(table.id).limit(1);
      expect(row?.id, name).toBe(1);
    }
  });

  it('has three or more Shanghai clubs and eight or more bilingual teachers', async () => {
    const clubs = await s.deps.db.select().from(schema.clubs);
    expect(clubs.length).toBeGreaterThanOrEqual(3);
    expect(clubs.every((c) => c.city === '上海' && c.cityEn === 'Shanghai')).toBe(true);
    const teachers = await s.deps.db.select().from(schema.teachers);
    expect(teachers.length).toBeGreaterThanOrEqual(8);
    for (const t of teachers) {
      expect(t.bio.length).toBeGreaterThan(10);
      expect(t.bioEn?.length ?? 0).toBeGreaterThan(10);
      expect(t.photo).toMatch(/\.svg$/);
    }
  });

  it('sells every card type of spec §3 and every other goods kind', async () => {
    const goods = await s.deps.db.select().from(schema.goods);
    for (const t of CARD_TYPES)
      expect(
        goods.some((g) => g.kind === 'card' && g.cardType === t.value),
        t.value,
      ).toBe(true);
    for (const k of ['coupon', 'workshop', 'open', 'private', 'primary', 'training'] as const)
      expect(
        goods.some((g) => g.kind === k),
        k,
      ).toBe(true);
    for (const g of goods) {
      expect(Number.isInteger(g.listPriceCents) && Number.isInteger(g.memberPriceCents)).toBe(true);
      expect(g.memberPriceCents).toBeLessThanOrEqual(g.listPriceCents);
    }
  });

  it('creates the demo accounts with their roles, levels and hashed passwords', async () => {
    // the demo logins come first; the booking seed's classmates (no password) follow them
    const rows = (await s.deps.db.select().from(schema.accounts).orderBy(schema.accounts.id)).slice(0, demoAccounts.length);
    expect(rows.map((r) => r.phone)).toEqual(demoAccounts.map((a) => a.phone));
    for (const [i, a] of demoAccounts.entries()) {
      const row = rows[i]!;
      expect(row).toMatchObject({ role: a.role, level: a.level, banned: a.banned });
      expect(row.passwordHash).not.toContain(a.password);
      expect(await verifyPassword(a.password, row.passwordHash)).toBe(true);
    }
    const roles = demoAccounts.map((a) => `${a.role}:${a.level}:${a.banned}`);
    expect(roles).toEqual(expect.arrayContaining(['member:1:false', 'member:2:false', 'member:2:true']));
    expect(demoAccounts.some((a) => a.role === 'teacher')).toBe(true);
    expect(demoAccounts.some((a) => a.role === 'staff')).toBe(true);
  });

  it('gives member 1 a family main card shared with member 2 as its one sub-card holder (decision 040)', async () => {
    const [m1, m2] = await s.deps.db.select().from(schema.accounts).orderBy(schema.accounts.id).limit(2);
    const family = await s.deps.db.select().from(schema.memberCards).where(eq(schema.memberCards.cardType, 'family-main'));
    expect(family.map((c) => [c.accountId, c.name, c.status, c.usesTotal, c.usesLeft])).toEqual([
      [m1!.id, DEMO_FAMILY_CARD.name, 'in_use', DEMO_FAMILY_CARD.usesTotal, DEMO_FAMILY_CARD.usesLeft],
    ]);
    const [goods] = await s.deps.db.select().from(schema.goods).where(eq(schema.goods.id, family[0]!.goodsId!));
    expect([goods?.cardType, goods?.uses]).toEqual(['family-main', DEMO_FAMILY_CARD.usesTotal]);
    const subs = await s.deps.db.select().from(schema.cardFamilyMembers);
    expect(subs.map((f) => [f.cardId, f.accountId, f.addedBy, f.removedAt])).toEqual([[family[0]!.id, m2!.id, m1!.id, null]]);
    expect(m2!.phone).toBe('13800000002');
  });

  it('links the demo teacher account to a teacher', async () => {
    const teacherAccount = demoAccounts.findIndex((a) => a.role === 'teacher') + 1;
    const linked = (await s.deps.db.select().from(schema.teachers)).filter((t) => t.accountId === teacherAccount);
    expect(linked).toHaveLength(1);
  });
});

describe('seedIfEmpty when several processes start at once', async () => {
  const s = await startTestServer();

  it('seeds exactly once (advisory lock; a real race on PostgreSQL)', async () => {
    const seed = () => seedIfEmpty(s.deps.db, s.clock, s.deps.config.passwordScryptN);
    const results = await Promise.all([seed(), seed(), seed()]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const c = await counts(s.deps.db);
    expect(c.accounts).toBe(demoAccounts.length + (c.clubs ?? 0) * CLASSMATES_PER_CLUB);
    const [first] = await s.deps.db.select({ id: schema.clubs.id }).from(schema.clubs).orderBy(schema.clubs.id).limit(1);
    expect(first?.id).toBe(1);
  });
});
