import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { baseUrl, MOBILE_CHROME_UA, useBrowser, waitHydrated } from './support/browser';
import { repoRoot } from './support/server';

/** The build's manifest: each chunk's file and the chunks it imports statically. */
type Manifest = Record<string, { file: string; isEntry?: boolean; imports?: string[] }>;

/**
 * A first load on a slow network: the app's entry module and the chunks it imports are fetched at
 * the same time, after the first paint (src/server/render.ts, decision 052). Before, the built
 * page's modulepreload links were dropped, and the browser found the entry's imports only once the
 * entry had arrived: one more round trip before the page answered a tap.
 */
describe('the first load fetches the app entry and its imports together', { timeout: 60_000 }, () => {
  const browser = useBrowser();

  it("requests each of the entry's imports while the entry itself is still on its way", async () => {
    const manifest = JSON.parse(readFileSync(path.join(repoRoot, 'dist/client/.vite/manifest.json'), 'utf8')) as Manifest;
    const entry = Object.values(manifest).find((c) => c.isEntry)!;
    const imports = (entry.imports ?? []).map((k) => `/${manifest[k]!.file}`);
    expect(imports.length, 'the entry imports chunks of its own').toBeGreaterThan(0);

    const { page } = await browser.newPage({ userAgent: MOBILE_CHROME_UA });
    const requested: string[] = [];
    let entryHeld = true;
    page.on('request', (r) => {
      if (entryHeld) requested.push(new URL(r.url()).pathname);
    });
    // the entry answers only after a second: what the page asked for meanwhile, it asked for without it
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    await page.route(`**/${entry.file}`, async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(`${baseUrl()}/club`);
    await expect.poll(() => requested.includes(`/${entry.file}`)).toBe(true);
    await page.waitForTimeout(1000);
    entryHeld = false;
    release();
    expect(requested.filter((p) => imports.includes(p)).sort(), 'imports requested before the entry arrived').toEqual([...imports].sort());
    await waitHydrated(page);
  });
});
