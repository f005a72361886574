import { describe, expect, it } from 'vitest';
import { CARD_TYPES } from '../../../src/domain/catalog';
import { startTestServer } from '../support/harness';
import { bannedMember, EN, level1, tokenFor } from './support';

describe('goods (GET /api/product/goods/*)', async () => {
  const s = await startTestServer({ seed: true });
  const memberToken = await tokenFor(s, level1.phone);

  it('pages the goods on shelf (pagenum from 0), first id 1', async () => {
    const r = await s.call('GET', '/api/product/goods/goodList?pagenum=0&pagesize=5');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ code: 200, status: true, data: { pagenum: 0, pagesize: 5 } });
    expect(r.body.data.list).toHaveLength(5);
    expect(r.body.data.list[0].id).toBe(1);
    const all = await s.call('GET', `/api/product/goods/goodList?pagesize=50`);
    expect(all.body.data.total).toBe(all.body.data.list.length);
    expect(all.body.data.list.every((g: any) => g.onShelf)).toBe(true);
    const page2 = await s.call('GET', '/api/product/goods/goodList?pagenum=1&pagesize=5');
    expect(page2.body.data.list[0].id).toBe(all.body.data.list[5].id);
  });

  it('defaults to page 0 of 10', async () => {
    const r = await s.call('GET', '/api/product/goods/goodList');
    expect(r.body.data).toMatchObject({ pagenum: 0, pagesize: 10 });
  });

  it('sells every card type of spec §3 and every other kind', async () => {
    const r = await s.call('GET', '/api/product/goods/goodList?pagesize=50');
    const list = r.body.data.list as any[];
    for (const t of CARD_TYPES)
      expect(
        list.some((g) => g.kind === 'card' && g.cardType === t.value),
        t.value,
      ).toBe(true);
    for (const k of ['coupon', 'workshop', 'open', 'private', 'primary', 'training'])
      expect(
        list.some((g) => g.kind === k),
        k,
      ).toBe(true);
    for (const g of list) {
      expect(Number.isInteger(g.listPriceCents)).toBe(true);
      if (g.kind !== 'card') expect(g.cardType).toBeNull();
    }
  });

  it('filters by kind and by card type', async () => {
    const cards = await s.call('GET', '/api/product/goods/goodList?kind=card&pagesize=50');
    expect(cards.body.data.list.length).toBeGreaterThan(8);
    expect(cards.body.data.list.every((g: any) => g.kind === 'card')).toBe(true);
    const count = await s.call('GET', '/api/product/goods/goodList?type=count');
    expect(count.body.data.list.length).toBeGreaterThan(0);
    expect(count.body.data.list.every((g: any) => g.cardType === 'count')).toBe(true);
    const workshops = await s.call('GET', '/api/product/goods/goodList?kind=workshop');
    expect(workshops.body.data.total).toBe(1);
  });

  it('shows visitors the list price only: the member price field is absent', async () => {
    const list = await s.call('GET', '/api/product/goods/goodList');
    for (const g of list.body.data.list) {
      expect(g).not.toHaveProperty('memberPriceCents');
      expect(g.listPriceCents).toEqual(expect.any(Number));
    }
    const detail = await s.call('GET', '/api/product/goods/detail?id=1');
    expect(detail.body.data).not.toHaveProperty('memberPriceCents');
    expect(JSON.stringify(detail.body)).not.toContain('108000');
  });

  it('adds the member price with a valid token', async () => {
    const list = await s.call('GET', '/api/product/goods/goodList', { token: memberToken });
    for (const g of list.body.data.list) expect(Number.isInteger(g.memberPriceCents)).toBe(true);
    const detail = await s.call('GET', '/api/product/goods/detail?id=1', { token: memberToken });
    expect(detail.body.data).toMatchObject({ id: 1, listPriceCents: 120000, memberPriceCents: 108000 });
  });

  it('treats a bad, expired or banned token as a visitor', async () => {
    const bad = await s.call('GET', '/api/product/goods/detail?id=1', { token: 'forged' });
    expect(bad.status).toBe(200);
    expect(bad.body.data).not.toHaveProperty('memberPriceCents');
    const banned = await s.call('GET', '/api/product/goods/detail?id=1', { token: await tokenFor(s, bannedMember.phone) });
    expect(banned.body.data).not.toHaveProperty('memberPriceCents');
    const start = s.clock.now();
    s.clock.advance(400 * 86_400_000);
    try {
      const expired = await s.call('GET', '/api/product/goods/detail?id=1', { token: memberToken });
      expect(expired.body.data).not.toHaveProperty('memberPriceCents');
    } finally {
      s.clock.set(start);
    }
  });

  it('gives a detail with description in the request language', async () => {
    const zh = await s.call('GET', '/api/product/goods/detail?id=1');
    expect(zh.body.data).toMatchObject({
      id: 1,
      kind: 'card',
      cardType: 'count',
      uses: 10,
      validityDays: 180,
      isUable: true,
      message: null,
    });
    expect(zh.body.data.description).toMatch(/\p{Script=Han}/u);
    const en = await s.call('GET', '/api/product/goods/detail?id=1', { headers: EN });
    expect(en.body.data.name).toBe('10-class card');
    expect(en.body.data.description).not.toMatch(/\p{Script=Han}/u);
  });

  it('shows off-shelf goods by id as not buyable, with the reason', async () => {
    const all = await s.call('GET', '/api/product/goods/goodList?pagesize=50');
    const ids = new Set(all.body.data.list.map((g: any) => g.id));
    let offShelf: any;
    for (let id = 1; id <= 30 && !offShelf; id++) {
      if (ids.has(id)) continue;
      const r = await s.call('GET', `/api/product/goods/detail?id=${id}`);
      if (r.status === 200) offShelf = r.body.data;
    }
    expect(offShelf).toMatchObject({ onShelf: false, isUable: false, message: '商品已下架' });
  });

  it('reports sell and max numbers for limited goods', async () => {
    const r = await s.call('GET', '/api/product/goods/goodList?kind=workshop');
    const w = r.body.data.list[0];
    expect(w.maxNumber).toBe(w.stock + w.sellNumber);
    expect(w.startsAt).toEqual(expect.any(String));
  });

  it('answers 404 for unknown goods', async () => {
    const r = await s.call('GET', '/api/product/goods/detail?id=31337');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ code: 70004, status: false, data: null });
  });

  it.each([
    ['goodList?pagesize=100', 'pagesize'],
    ['goodList?pagesize=-3', 'pagesize'],
    ['goodList?pagenum=abc', 'pagenum'],
    ['goodList?pagenum=10001', 'pagenum'],
    ['goodList?kind=car', 'kind'],
    ['goodList?type=platinum', 'type'],
    ['goodList?clubId=0', 'clubId'],
    ['detail', 'id'],
    ['detail?id=', 'id'],
    ['detail?id=1e3x', 'id'],
  ])('refuses %s with 400 naming %s', async (q, field) => {
    const r = await s.call('GET', `/api/product/goods/${q}`);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 70003, status: false, data: null, field });
  });
});
