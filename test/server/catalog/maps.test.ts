import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config';
import { createMapsGateway, greatCircleMetres, localMaps, TENCENT_MATRIX_URL, tencentMaps } from '../../../src/server/gateways/maps';

const PEOPLE_SQUARE = { lat: 31.2304, lng: 121.4737 };
const CLUBS = [
  { lat: 31.22347, lng: 121.44583 },
  { lat: 31.19523, lng: 121.43704 },
];

/** A stand-in for the provider: records each request and answers like the distance matrix does. */
function provider(answer: (url: URL) => unknown, status = 200) {
  const seen: { url: URL; init?: RequestInit }[] = [];
  const fetchImpl = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    seen.push({ url, init });
    return new Response(JSON.stringify(answer(url)), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof fetch;
  return { seen, fetchImpl };
}

describe('maps gateway', () => {
  it('measures the straight line locally (haversine)', async () => {
    const d = await localMaps().distances(PEOPLE_SQUARE, CLUBS);
    expect(d).toEqual(CLUBS.map((c) => greatCircleMetres(PEOPLE_SQUARE, c)));
    // 1 degree of latitude is about 111.2 km
    expect(greatCircleMetres({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeGreaterThan(111_000);
    expect(greatCircleMetres({ lat: 0, lng: 0 }, { lat: 1, lng: 0 })).toBeLessThan(111_400);
  });

  it('builds the Tencent distance-matrix request: one origin, destinations joined by ";", key and mode', async () => {
    const p = provider(() => ({
      status: 0,
      message: 'query ok',
      result: {
        rows: [
          {
            elements: [
              { distance: 3120, duration: 600 },
              { distance: 5480, duration: 900 },
            ],
          },
        ],
      },
    }));
    const gw = tencentMaps({ key: 'TEST-KEY', fetch: p.fetchImpl });
    expect(await gw.distances(PEOPLE_SQUARE, CLUBS)).toEqual([3120, 5480]);
    expect(p.seen).toHaveLength(1);
    const { url, init } = p.seen[0]!;
    expect(`${url.origin}${url.pathname}`).toBe(TENCENT_MATRIX_URL);
    expect(url.origin).toBe('https://apis.map.qq.com');
    expect(url.searchParams.get('mode')).toBe('driving');
    expect(url.searchParams.get('from')).toBe('31.230400,121.473700');
    expect(url.searchParams.get('to')).toBe('31.223470,121.445830;31.195230,121.437040');
    expect(url.searchParams.get('key')).toBe('TEST-KEY');
    expect(init?.method ?? 'GET').toBe('GET');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
  });

  it('uses the straight line for a destination the provider cannot route (-1)', async () => {
    const p = provider(() => ({ status: 0, result: { rows: [{ elements: [{ distance: -1 }, { distance: 5480 }] }] } }));
    const d = await tencentMaps({ key: 'k', fetch: p.fetchImpl, mode: 'walking' }).distances(PEOPLE_SQUARE, CLUBS);
    expect(d).toEqual([greatCircleMetres(PEOPLE_SQUARE, CLUBS[0]!), 5480]);
    expect(p.seen[0]!.url.searchParams.get('mode')).toBe('walking');
  });

  it('splits more than 200 destinations into several requests, keeping order', async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({ lat: 31 + i / 1000, lng: 121 }));
    const p = provider((url) => ({
      status: 0,
      result: {
        rows: [
          {
            elements: url.searchParams
              .get('to')!
              .split(';')
              .map((pt) => ({ distance: Math.round(Number(pt.split(',')[0]) * 1000) })),
          },
        ],
      },
    }));
    const d = await tencentMaps({ key: 'k', fetch: p.fetchImpl }).distances(PEOPLE_SQUARE, many);
    expect(p.seen.map((x) => x.url.searchParams.get('to')!.split(';').length)).toEqual([200, 50]);
    expect(d).toEqual(many.map((m) => Math.round(m.lat * 1000)));
  });

  it('throws on a provider refusal, an HTTP error or a short answer', async () => {
    const refused = provider(() => ({ status: 311, message: 'key格式错误' }));
    await expect(tencentMaps({ key: 'bad', fetch: refused.fetchImpl }).distances(PEOPLE_SQUARE, CLUBS)).rejects.toThrow(/311/);
    const http = provider(() => ({}), 502);
    await expect(tencentMaps({ key: 'k', fetch: http.fetchImpl }).distances(PEOPLE_SQUARE, CLUBS)).rejects.toThrow(/502/);
    const short = provider(() => ({ status: 0, result: { rows: [{ elements: [{ distance: 1 }] }] } }));
    await expect(tencentMaps({ key: 'k', fetch: short.fetchImpl }).distances(PEOPLE_SQUARE, CLUBS)).rejects.toThrow(/1 distances for 2/);
  });

  it('is picked by config.maps: Tencent with TENCENT_MAPS_KEY, else local', async () => {
    const local = createMapsGateway(loadConfig({ APP_MODE: 'demo' }));
    expect(await local.distances(PEOPLE_SQUARE, CLUBS)).toEqual(CLUBS.map((c) => greatCircleMetres(PEOPLE_SQUARE, c)));
    const p = provider(() => ({ status: 0, result: { rows: [{ elements: [{ distance: 7 }, { distance: 8 }] }] } }));
    const tencent = createMapsGateway(loadConfig({ APP_MODE: 'demo', TENCENT_MAPS_KEY: 'from-env' }), p.fetchImpl);
    expect(await tencent.distances(PEOPLE_SQUARE, CLUBS)).toEqual([7, 8]);
    expect(p.seen[0]!.url.searchParams.get('key')).toBe('from-env');
  });
});
