import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../src/api/index';
import { loader as cardDetailLoader } from '../../../src/app/screens/cards/card-detail-screen';
import { loader as vipcardDetailLoader } from '../../../src/app/screens/cards/vipcard-detail-screen';
import { loader as vipcardLoader } from '../../../src/app/screens/cards/vipcard-screen';
import { courseUsesLeft } from '../../../src/app/screens/order-purchases/purchase-rules';

const ok = <T>(data: T) => Promise.resolve({ code: 200, status: true, data });
const refused = (code: number) => Promise.resolve({ code, status: false, data: null });

const card = (over: Record<string, unknown> = {}) => ({
  id: 1,
  name: '10次卡',
  number: 'C1',
  cardType: 'count',
  clubId: null,
  status: 'in_use',
  usesTotal: 10,
  usesLeft: 4,
  validFrom: '2026-01-01T00:00:00Z',
  validUntil: '2099-01-01T00:00:00Z',
  validityDays: 180,
  extensionCount: 0,
  ...over,
});
const page = <T>(list: T[]) => ({ list, total: list.length, pagenum: 0, pagesize: 10 });

function fakeApi(over: { cards?: unknown[]; detail?: unknown } = {}) {
  const api = {
    booking: { cards: vi.fn(() => ok(over.cards ?? [])) },
    goods: { list: vi.fn(() => ok(page([{ id: 9, kind: 'card' }]))), detail: vi.fn(() => (over.detail ? ok(over.detail) : refused(404))) },
    catalog: { dict: vi.fn(() => ok([{ value: 'count', label: '次卡' }])), club: vi.fn(() => ok({ id: 3, name: '静安店' })) },
    cards: {
      card: vi.fn((id: number) => (id === 1 ? ok({ ...card(), clubName: null, goodsId: 1, usesUsed: 6, operations: [] }) : refused(70004))),
      cardHistory: vi.fn(() => ok(page([{ kind: 'activated', at: '2026-01-01T00:00:00Z' }]))),
    },
  };
  return api;
}

const ctx = (api: unknown, token?: string) => ({ api: api as Api, session: { token }, cookies: {} });
const args = (url: string, context: unknown) =>
  ({ request: new Request(`http://x${url}`), context, params: {} }) as unknown as Parameters<typeof vipcardLoader>[0];

function unwrap(r: unknown): { value: Record<string, unknown>; status?: number } {
  const d = r as { type?: string; data?: unknown; init?: { status?: number } };
  if (d && d.type === 'DataWithResponseInit') return { value: d.data as Record<string, unknown>, status: d.init?.status };
  return { value: r as Record<string, unknown> };
}

describe('card screens show the status the server stored, whatever the clock (decision 018)', () => {
  // the server writes a card expired at its validity end (its time-passing job); the app computes no
  // status of its own, so a phone whose clock is off, or a page rendered late, shows what is stored
  const clock = { now: () => new Date('2030-01-02T04:00:00Z') };
  const lapsed = { validUntil: '2030-01-01T16:00:00Z' };

  it('/vipcard shows each card with its stored status', async () => {
    const api = fakeApi({ cards: [card({ id: 1, ...lapsed, status: 'expired' }), card({ id: 2, ...lapsed })] });
    const d = (await vipcardLoader(args('/vipcard?tab=mine', { ...ctx(api, 't'), clock }))) as { cards: { status: string }[] };
    expect(d.cards.map((c) => c.status)).toEqual(['expired', 'in_use']);
  });

  it('/mine/carddetail shows the stored status', async () => {
    const api = fakeApi();
    api.cards.card.mockImplementation((() =>
      ok({ ...card({ ...lapsed, status: 'expired' }), clubName: null, goodsId: 1, usesUsed: 6, operations: [] })) as never);
    const r = unwrap(await cardDetailLoader(args('/mine/carddetail?id=1', { ...ctx(api, 't'), clock })));
    expect(r.value.status).toBe('expired');
  });
});

describe('/vipcard loader', () => {
  it('a visitor gets the card products (kind card, page 0) and the card types, and no member call', async () => {
    const api = fakeApi();
    const d = await vipcardLoader(args('/vipcard', ctx(api)));
    expect(api.booking.cards).not.toHaveBeenCalled();
    expect(api.goods.list).toHaveBeenCalledWith({ kind: 'card', type: undefined, pagenum: 0, pagesize: 10 });
    expect(api.catalog.dict).toHaveBeenCalledWith('cardType');
    expect(d).toMatchObject({ member: false, tab: 'shop', cards: [] });
  });

  it('a member with a usable card opens on their cards, with the status they see; the products are not fetched', async () => {
    const api = fakeApi({ cards: [card(), card({ id: 2, validUntil: '2020-01-01T00:00:00Z', status: 'expired' })] });
    const d = await vipcardLoader(args('/vipcard', ctx(api, 't')));
    expect(d.tab).toBe('mine');
    expect(d.cards.map((c) => c.status)).toEqual(['in_use', 'expired']);
    expect(api.goods.list).not.toHaveBeenCalled();
  });

  it('the type filter goes to the goods list; an unknown type is no filter', async () => {
    const api = fakeApi();
    await vipcardLoader(args('/vipcard?tab=shop&type=count', ctx(api, 't')));
    expect(api.goods.list).toHaveBeenLastCalledWith({ kind: 'card', type: 'count', pagenum: 0, pagesize: 10 });
    await vipcardLoader(args('/vipcard?type=bogus', ctx(api)));
    expect(api.goods.list).toHaveBeenLastCalledWith({ kind: 'card', type: undefined, pagenum: 0, pagesize: 10 });
  });
});

describe('/vipcard/vipcarddetail loader', () => {
  it('a missing, malformed or unknown id, or goods that are not a card, is the 404 state', async () => {
    for (const url of ['/vipcard/vipcarddetail', '/vipcard/vipcarddetail?id=abc', '/vipcard/vipcarddetail?id=5']) {
      const r = unwrap(await vipcardDetailLoader(args(url, ctx(fakeApi()))));
      expect(r.status, url).toBe(404);
      expect(r.value.goods).toBeNull();
    }
    const workshop = unwrap(
      await vipcardDetailLoader(args('/vipcard/vipcarddetail?id=5', ctx(fakeApi({ detail: { id: 5, kind: 'workshop', clubId: null } })))),
    );
    expect(workshop.status).toBe(404);
  });

  it('a card product comes with the studio it is sold for', async () => {
    const api = fakeApi({ detail: { id: 5, kind: 'card', clubId: 3 } });
    const r = unwrap(await vipcardDetailLoader(args('/vipcard/vipcarddetail?id=5', ctx(api))));
    expect(r.status).toBeUndefined();
    expect(r.value).toMatchObject({ goods: { id: 5 }, club: { name: '静安店' } });
  });
});

describe('/mine/carddetail loader', () => {
  it('my card with the first history lines', async () => {
    const api = fakeApi();
    const r = unwrap(await cardDetailLoader(args('/mine/carddetail?id=1', ctx(api, 't'))));
    expect(api.cards.cardHistory).toHaveBeenCalledWith({ id: 1, pagenum: 0, pagesize: 5 });
    expect(r.value).toMatchObject({ card: { id: 1 }, status: 'in_use', history: { total: 1 } });
  });

  it("another member's or an unknown card is the 404 state", async () => {
    const r = unwrap(await cardDetailLoader(args('/mine/carddetail?id=2', ctx(fakeApi(), 't'))));
    expect(r.status).toBe(404);
    expect(r.value.card).toBeNull();
  });
});

describe('my courses and purchases (spec §3 order: price, coupon deduction, balance use, amount to pay)', () => {
  it('a course shows uses left of its total; a course without a count has none', () => {
    expect(courseUsesLeft({ usesTotal: 4, usesLeft: 3 })).toEqual({ left: 3, total: 4 });
    expect(courseUsesLeft({ usesTotal: null, usesLeft: null })).toBeNull();
  });
});
