// @vitest-environment jsdom
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { Api } from '../../../src/api/index';
import type { FlashSaleActivity } from '../../../src/api/flash-sale';
import { FlashSaleCard } from '../../../src/app/screens/flash-sale/flash-sale-card';
import { loader as event11Loader } from '../../../src/app/screens/flash-sale/event11-screen';
import { loader as rulesLoader } from '../../../src/app/screens/flash-sale/eventactivi-screen';
import { countdownParts, flashSalePhase, flashSaleRefusal, soldPercent } from '../../../src/domain/flash-sale';
import { renderWithI18n } from './render-with-i18n';

const T0 = Date.parse('2026-11-11T00:00:00Z');
const facts = (over: Partial<{ sellNumber: number; maxNumber: number }> = {}) => ({
  startsAt: new Date(T0),
  endsAt: new Date(T0 + 3_600_000),
  sellNumber: 0,
  maxNumber: 30,
  ...over,
});

describe('flash sale rules (spec §4: sold out when sellNumber is at least maxNumber)', () => {
  it('sold out at sellNumber = maxNumber and above; live below', () => {
    const now = new Date(T0 + 1000);
    expect(flashSalePhase(facts({ sellNumber: 29 }), now)).toBe('live');
    expect(flashSalePhase(facts({ sellNumber: 30 }), now)).toBe('sold_out');
    expect(flashSalePhase(facts({ sellNumber: 31 }), now)).toBe('sold_out');
    expect(flashSaleRefusal('sold_out')?.code).toBe(50003);
    expect(flashSaleRefusal('live')).toBeNull();
  });

  it('the window starts at startsAt (inclusive) and ends at endsAt (exclusive)', () => {
    expect(flashSalePhase(facts(), new Date(T0 - 1))).toBe('upcoming');
    expect(flashSalePhase(facts(), new Date(T0))).toBe('live');
    expect(flashSalePhase(facts(), new Date(T0 + 3_600_000))).toBe('ended');
    expect(flashSaleRefusal('upcoming')?.code).toBe(50021);
    expect(flashSaleRefusal('ended')?.code).toBe(50022);
  });

  it('countdown parts and the progress share', () => {
    expect(countdownParts(((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000 + 999)).toEqual({ days: 2, clock: '03:04:05' });
    expect(countdownParts(-5000)).toEqual({ days: 0, clock: '00:00:00' });
    expect([soldPercent(0, 30), soldPercent(15, 30), soldPercent(31, 30), soldPercent(0, 0)]).toEqual([0, 50, 100, 100]);
  });
});

const sale = (over: Partial<FlashSaleActivity> = {}): FlashSaleActivity => ({
  id: 1,
  sellNumber: 12,
  maxNumber: 30,
  isUable: true,
  message: null,
  phase: 'live',
  goodsId: 16,
  activityId: 1,
  title: '双十一限量次卡抢购',
  startsAt: '2026-11-10T00:00:00Z',
  endsAt: '2026-11-12T01:02:03Z',
  serverNow: '2026-11-11T00:00:00Z',
  mine: false,
  myOrder: null,
  ...over,
});

describe('the flash-sale card', () => {
  it('shows places taken of places on sale, places left and the countdown to the end', () => {
    renderWithI18n(<FlashSaleCard sale={sale()} now={Date.parse('2026-11-11T00:00:00Z')} />);
    expect(screen.getByRole('progressbar').getAttribute('aria-valuenow')).toBe('12');
    expect(document.querySelector('[data-sell-number]')!.textContent).toBe('12');
    expect(document.querySelector('[data-max-number]')!.textContent).toBe('30');
    expect(screen.getByText('剩余18张')).toBeTruthy();
    expect(document.querySelector('[data-countdown="live"]')!.textContent).toContain('01:02:03');
    expect(document.querySelector('[data-sale-message]')).toBeNull();
  });

  it('sold out: no countdown, the server message shown (the spec hand-speed text)', () => {
    renderWithI18n(
      <FlashSaleCard sale={sale({ sellNumber: 30, phase: 'sold_out', isUable: false, message: '手速不够快，商品已被抢光了' })} now={0} />,
    );
    expect(screen.getByRole('status').textContent).toBe('手速不够快，商品已被抢光了');
    expect(document.querySelector('[data-countdown]')).toBeNull();
    expect(screen.getByText('已抢光')).toBeTruthy();
  });
});

const ok = <T,>(data: T) => Promise.resolve({ code: 200, status: true, data });
const refused = (code: number) => Promise.resolve({ code, status: false, data: null });
function fakeApi(found = true) {
  return {
    flashSale: { activity: vi.fn(() => (found ? ok(sale()) : refused(70004))) },
    goods: { detail: vi.fn(() => ok({ id: 16, name: '双十一限量次卡' })) },
  };
}
const args = (url: string, api: unknown) =>
  ({ request: new Request(`http://x${url}`), context: { api: api as Api }, params: {} }) as unknown as Parameters<typeof event11Loader>[0];
const unwrap = (r: unknown) => r as { data: Record<string, unknown>; init?: { status?: number } };

describe('/event11 and /eventactivi loaders', () => {
  it('without an id: the live or next sale, then the card it sells', async () => {
    const api = fakeApi();
    const d = unwrap(await event11Loader(args('/event11', api)));
    expect(api.flashSale.activity).toHaveBeenCalledWith(undefined);
    expect(api.goods.detail).toHaveBeenCalledWith(16);
    expect(d.data).toMatchObject({ sale: { id: 1 }, goods: { id: 16 } });
  });

  it('a malformed or unknown id is the not-found state (404)', async () => {
    expect(unwrap(await event11Loader(args('/event11?id=abc', fakeApi()))).init?.status).toBe(404);
    expect(unwrap(await event11Loader(args('/event11?id=9', fakeApi(false)))).init?.status).toBe(404);
    expect(unwrap(await rulesLoader(args('/eventactivi?id=9', fakeApi(false)))).init?.status).toBe(404);
  });

  it('the rules page reads the sale of ?id=', async () => {
    const api = fakeApi();
    const d = unwrap(await rulesLoader(args('/eventactivi?id=1', api)));
    expect(api.flashSale.activity).toHaveBeenCalledWith(1);
    expect(d.data).toMatchObject({ sale: { id: 1, maxNumber: 30 } });
  });
});
