// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { setBridgeHost, type BridgeWindow } from '../../src/app/screens/orders/wechat-bridge';
import { lightMap } from '../../src/app/screens/catalog/club/map-projection';
import { startScreenHarness } from './support/screen-harness';

/**
 * /map (spec §2, decision 039): the chain's clubs as numbered markers on the map the app
 * draws from their coordinates, the list below in the same order; a tap on a marker shows that club
 * with a way to navigate there: inside the messaging app its own map (openLocation through the page's
 * bridge, played here as the messaging app would answer), elsewhere the map provider's marker page.
 */
const h = await startScreenHarness({ seed: true });

interface Club {
  id: number;
  name: string;
  address: string;
  lat: number;
  lng: number;
}
const clubs = (await h.server.call('GET', '/api/school/clubs')).body.data as Club[];
const marker = (id: number) => document.querySelector<HTMLButtonElement>(`[data-map-marker="${id}"]`)!;

afterEach(() => setBridgeHost(undefined));

describe('the club map', () => {
  it('every club is a marker where its coordinates put it, numbered as the list below; a tap shows the club and its directions', async () => {
    expect(clubs.length).toBeGreaterThan(1);
    const ui = await h.open('/map');
    const markers = [...document.querySelectorAll<HTMLButtonElement>('[data-map-marker]')];
    expect(markers.map((m) => m.getAttribute('aria-label'))).toEqual(clubs.map((c) => c.name));
    expect(markers.map((m) => m.textContent)).toEqual(clubs.map((_, i) => String(i + 1)));
    expect([...document.querySelectorAll('ol [data-club]')].map((a) => Number(a.getAttribute('data-club')))).toEqual(
      clubs.map((c) => c.id),
    );
    // placed by the projection of the clubs' own coordinates: north up, east right
    const spots = lightMap(clubs).spots;
    markers.forEach((m, i) => expect([m.style.left, m.style.top]).toEqual([`${spots[i]!.left}%`, `${spots[i]!.top}%`]));
    const north = clubs.reduce((a, b) => (b.lat > a.lat ? b : a));
    expect(Math.min(...spots.map((s) => parseFloat(String(s.top))))).toBe(spots[clubs.indexOf(north)]!.top);
    expect(document.querySelector('[data-map-chosen]')).toBe(null);

    const club = clubs[1]!;
    await ui.user.click(marker(club.id));
    const chosen = document.querySelector(`[data-map-chosen="${club.id}"]`)!;
    expect(chosen.textContent).toContain(club.name);
    expect(chosen.textContent).toContain(club.address);
    expect(marker(club.id).getAttribute('aria-pressed')).toBe('true');
    expect(marker(clubs[0]!.id).getAttribute('aria-pressed')).toBe('false');
    const go = chosen.querySelector<HTMLAnchorElement>(`[data-navigate="${club.id}"]`)!;
    expect(decodeURIComponent(go.href)).toContain(`coord:${club.lat},${club.lng};title:${club.name}`);
  });

  it("inside the messaging app, directions open its own map on the club (openLocation), not the provider's page", async () => {
    const asked: Array<[string, unknown]> = [];
    setBridgeHost({
      WeixinJSBridge: {
        invoke: (name: string, params: unknown, done: (r: { err_msg?: string }) => void) => (
          asked.push([name, params]), done({ err_msg: 'openLocation:ok' })
        ),
      },
    } as unknown as BridgeWindow);
    const ui = await h.open('/map');
    const club = clubs[0]!;
    await ui.user.click(marker(club.id));
    await ui.user.click(document.querySelector<HTMLAnchorElement>(`[data-navigate="${club.id}"]`)!);
    expect(asked).toEqual([
      ['openLocation', { latitude: club.lat, longitude: club.lng, name: club.name, address: club.address, scale: 16 }],
    ]);
    expect(ui.path()).toBe('/map');
  });

  it('/club offers the map', async () => {
    const ui = await h.open('/club');
    await ui.user.click(document.querySelector<HTMLAnchorElement>('[data-map-link]')!);
    await ui.waitForPath('/map');
    expect(document.querySelectorAll('[data-map-marker]')).toHaveLength(clubs.length);
  });
});
