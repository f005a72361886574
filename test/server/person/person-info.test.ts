import { eq } from 'drizzle-orm';
import { shanghaiDate } from '../../../src/domain/time';
import { describe, expect, it } from 'vitest';
import { accounts, couponRewards } from '../../../src/server/db/schema/index';
import { personRow } from '../support/sealed-rows';
import { newCard, newMember } from '../booking/support';
import { startTestServer } from '../support/harness';
import { applyFor, phoneOf } from '../cards/transfer-support';
import { askRefund, boughtCard, cancelRefund } from '../cards/refund-support';

/**
 * Personal information through the API (spec §3, §5 real name and ID number, §9 real name max 20;
 * decision 032): stored once and shown masked, each wrong field said by its own code
 * (ID numbers that are well-formed but wrong included), a change of name or ID number refused after a
 * transfer or refund used them, and a transfer's recipient checked against what they stored.
 */
const s = await startTestServer({ seed: true });
const refusal = (r: { status: number; body: { code: number; field?: string } }) => [r.status, r.body.code];
const ID = '110101199003071233';
const OTHER_ID = '310115198506152343';
const body = (over: Record<string, unknown> = {}) => ({
  realName: '王小明',
  idNumber: ID,
  yogaAge: 3,
  styles: ['hatha', 'yin'],
  practiceTime: 'evening',
  salutation: '小明',
  ...over,
});
const save = (token: string, over: Record<string, unknown> = {}) =>
  s.call('PUT', '/api/customers/person-info', { token, body: body(over) });
const page = async (token: string) => (await s.call('GET', '/api/customers/person-info', { token })).body.data;
const stored = (accountId: number) => personRow(s.deps, accountId);

describe('storing personal information (PUT /customers/person-info)', () => {
  it('nothing stored: the page has no information and offers the chain’s styles in both languages', async () => {
    const m = await newMember(s);
    const p = await page(m.token);
    expect(p.info).toBe(null);
    expect(p.styleOptions[0]).toEqual({ value: 'hatha', zh: '哈他瑜伽', en: 'Hatha' });
    // the day the form checks a birth date against, the server's own
    expect(p.today).toBe(shanghaiDate(s.clock.now()));
    expect((await s.call('GET', '/api/customers/person-info')).status).toBe(401);
  });

  it('stored once, then shown masked: the name but its last character, the ID number but its first and last four', async () => {
    const m = await newMember(s);
    const r = await save(m.token, { idNumber: ` ${ID.slice(0, 17)}3 `, realName: ' 王小明 ' });
    expect(r.body).toMatchObject({
      code: 200,
      data: {
        realName: '**明',
        idNumber: '1101**********1233',
        yogaAge: 3,
        styles: ['hatha', 'yin'],
        practiceTime: 'evening',
        salutation: '小明',
        identityLocked: false,
      },
    });
    expect(await stored(m.id)).toMatchObject({ realName: '王小明', idNumber: ID });
    expect((await page(m.token)).info).toEqual(r.body.data);
    expect(JSON.stringify(await page(m.token))).not.toContain(ID);
  });

  it('an ID number ending in x is stored with X', async () => {
    const m = await newMember(s);
    expect((await save(m.token, { idNumber: '11010519491231002x' })).status).toBe(200);
    expect((await stored(m.id))!.idNumber).toBe('11010519491231002X');
  });

  it('the real name is required, at most 20 characters and not numeric (70100)', async () => {
    const m = await newMember(s);
    for (const realName of ['', '   ', '12345', '王'.repeat(21)]) {
      const r = await save(m.token, { realName });
      expect(refusal(r), realName).toEqual([400, 70100]);
      expect(r.body.field).toBe('realName');
    }
    expect((await save(m.token, { realName: '欧阳'.repeat(10) })).status).toBe(200);
    expect(await stored(m.id)).toMatchObject({ realName: '欧阳'.repeat(10) });
  });

  it("a real name of full-width or other scripts' digits is numeric too (70100), and nothing is stored", async () => {
    const m = await newMember(s);
    for (const realName of ['１２３４５', '１２ ３４', '٣٤٥']) {
      const r = await save(m.token, { realName });
      expect([...refusal(r), r.body.field], realName).toEqual([400, 70100, 'realName']);
    }
    expect(await stored(m.id)).toBeFalsy();
  });

  it('the ID number says which is wrong: its shape (70101), a birth date that is not real (70102), the check character (70103)', async () => {
    const m = await newMember(s);
    const cases: [string, number][] = [
      ['1101011990030712', 70101],
      ['11010119900307123Y', 70101],
      ['11010119900307 233', 70101],
      ['110101199013071233', 70102], // month 13
      ['110101199002301233', 70102], // 30 February
      ['110101189003071233', 70102], // 1890
      ['110101203003071233', 70102], // not born yet
      ['110101199003071234', 70103], // well-formed, a real date, the wrong check character
      ['110101199003071230', 70103],
      ['11010519491231002Y'.slice(0, 17) + '1', 70103],
    ];
    for (const [idNumber, code] of cases) {
      const r = await save(m.token, { idNumber });
      expect(refusal(r), idNumber).toEqual([400, code]);
      expect(r.body.field).toBe('idNumber');
    }
    expect(await stored(m.id)).toBe(undefined);
  });

  it('favourite styles must be the chain’s; yoga age, practice time and how to be addressed are bounded', async () => {
    const m = await newMember(s);
    expect(refusal(await save(m.token, { styles: ['hatha', 'kickboxing'] }))).toEqual([400, 70003]);
    expect(refusal(await save(m.token, { yogaAge: -1 }))).toEqual([400, 70003]);
    expect(refusal(await save(m.token, { yogaAge: 61 }))).toEqual([400, 70003]);
    expect(refusal(await save(m.token, { practiceTime: 'midnight' }))).toEqual([400, 70003]);
    expect(refusal(await save(m.token, { salutation: 'x'.repeat(13) }))).toEqual([400, 70003]);
    expect(await stored(m.id)).toBe(undefined);
    const r = await save(m.token, { styles: [], yogaAge: null, practiceTime: null, salutation: '' });
    expect(r.body.data).toMatchObject({ styles: [], yogaAge: null, practiceTime: null, salutation: '' });
  });

  it('before any transfer or refund, everything may be changed, the name and ID number too', async () => {
    const m = await newMember(s);
    await save(m.token);
    const r = await save(m.token, { realName: '王晓明', idNumber: OTHER_ID, styles: ['power'], yogaAge: 4 });
    expect(r.body.data).toMatchObject({
      realName: '**明',
      idNumber: '3101**********2343',
      styles: ['power'],
      yogaAge: 4,
      identityLocked: false,
    });
    expect(await stored(m.id)).toMatchObject({ realName: '王晓明', idNumber: OTHER_ID });
  });
});

describe('a change after a transfer or refund used the name and ID number goes through staff (70104)', () => {
  it('received a transfer checked against them: a new name or ID number is refused, the rest still changes', async () => {
    const from = await newMember(s);
    const to = await newMember(s);
    await save(to.token);
    const card = await newCard(s, from.id);
    expect((await applyFor(s, from.token, card.id, await phoneOf(s, to.id), { name: '王小明', idNumber: ID })).status).toBe(200);
    expect((await page(to.token)).info.identityLocked).toBe(true);
    expect(refusal(await save(to.token, { realName: '王晓明' }))).toEqual([409, 70104]);
    expect(refusal(await save(to.token, { idNumber: OTHER_ID }))).toEqual([409, 70104]);
    expect(await stored(to.id)).toMatchObject({ realName: '王小明', idNumber: ID });
    const r = await save(to.token, { styles: ['aerial'], salutation: '王同学', idNumber: ID.toLowerCase() });
    expect(r.body).toMatchObject({ code: 200, data: { styles: ['aerial'], salutation: '王同学', identityLocked: true } });
  });

  it('gave a card by transfer: locked too', async () => {
    const from = await newMember(s);
    const to = await newMember(s);
    await save(from.token);
    const card = await newCard(s, from.id);
    expect((await applyFor(s, from.token, card.id, await phoneOf(s, to.id))).status).toBe(200);
    expect(refusal(await save(from.token, { realName: '王晓明' }))).toEqual([409, 70104]);
  });

  it('a card refund requested: locked; once it is cancelled (nothing used) the change is allowed again', async () => {
    const { m, card } = await boughtCard(s);
    await save(m.token);
    const asked = await askRefund(s, m.token, card.id);
    expect(asked.status).toBe(200);
    expect(refusal(await save(m.token, { idNumber: OTHER_ID }))).toEqual([409, 70104]);
    expect((await cancelRefund(s, m.token, asked.body.data.id)).status).toBe(200);
    expect((await save(m.token, { idNumber: OTHER_ID })).body.data).toMatchObject({
      idNumber: '3101**********2343',
      identityLocked: false,
    });
  });
});

describe('card transfer checks the recipient against their personal information (decision 032)', () => {
  it('a recipient who stored a name and ID number: another name or ID number is refused (70105), theirs is accepted', async () => {
    const from = await newMember(s);
    const to = await newMember(s);
    await s.deps.db.update(accounts).set({ name: '王小明' }).where(eq(accounts.id, to.id));
    await save(to.token);
    const card = await newCard(s, from.id);
    const phone = await phoneOf(s, to.id);
    expect(refusal(await applyFor(s, from.token, card.id, phone, { name: '王晓明', idNumber: ID }))).toEqual([400, 70105]);
    // well-formed, but another person's
    expect(refusal(await applyFor(s, from.token, card.id, phone, { name: '王小明', idNumber: OTHER_ID }))).toEqual([400, 70105]);
    expect((await applyFor(s, from.token, card.id, phone, { name: ' 王小明 ', idNumber: ID })).body).toMatchObject({
      code: 200,
      data: { state: 'pending' },
    });
  });

  it('a recipient who never stored personal information is checked by staff as before', async () => {
    const from = await newMember(s);
    const to = await newMember(s);
    const card = await newCard(s, from.id);
    expect((await applyFor(s, from.token, card.id, await phoneOf(s, to.id), { name: '李四', idNumber: OTHER_ID })).status).toBe(200);
  });
});

describe('the coupon promised for completing personal information (decision 105)', () => {
  const coupons = async (token: string) =>
    (await s.call('GET', '/api/customers/coupons?status=unused&pageNum=1&pageSize=50', { token })).body.data.list as {
      name: string;
      offCents: number;
    }[];
  const notices = async (token: string) => (await s.call('GET', '/api/sys/notification', { token })).body.data as { title: string }[];

  it('the first save issues it once, with a notice; saving again, or twice at once, issues nothing more', async () => {
    const m = await newMember(s);
    expect(await coupons(m.token)).toEqual([]);
    const [a, b] = await Promise.all([save(m.token), save(m.token)]);
    expect([a.status, b.status]).toContain(200);
    expect((await save(m.token, { salutation: '王先生' })).status).toBe(200);
    const mine = await coupons(m.token);
    expect(mine.map((c) => [c.name, c.offCents])).toEqual([['完善资料体验券', 5_000]]);
    expect((await notices(m.token)).filter((n) => n.title === '您获得了一张优惠券：完善资料体验券')).toHaveLength(1);
  });

  it('a chain that promises nothing for it issues nothing', async () => {
    const [kept] = await s.deps.db.delete(couponRewards).where(eq(couponRewards.rule, 'person-info')).returning();
    try {
      const m = await newMember(s);
      expect((await save(m.token)).status).toBe(200);
      expect(await coupons(m.token)).toEqual([]);
    } finally {
      await s.deps.db.insert(couponRewards).values(kept!);
    }
  });
});
