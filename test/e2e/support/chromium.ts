import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Debian's chromium package (playwright's own browser download cannot work here: STACK-NOTES.md): the
 * full browser, for what measures a member's browser (the bench's tap latency, bytes, Lighthouse).
 */
export const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';

/**
 * The browser tests' Chromium: Debian's `chromium-headless-shell` (Chromium's old headless shell, the
 * one Playwright itself runs headless tests in), the same Blink and V8 without the full browser's
 * UI stack. The same walks cost half the Chromium CPU (24.6 against 12.8 core-seconds for the touch
 * target crawl and the public browsing file, docs/decisions/090). Without it, the full browser.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const TEST_CHROMIUM = process.env.CHROME_PATH || (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : CHROMIUM);

/** Flags from STACK-NOTES.md: without the background-networking ones Chromium keeps dialling out. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Throws a clear message when the Chromium binary is missing. */
export function assertChromium(binary = TEST_CHROMIUM): void {
  if (!existsSync(binary)) {
    throw new Error(
      `${binary} is missing: install Debian's chromium (sudo apt-get install -y chromium chromium-headless-shell) or set CHROME_PATH`,
    );
  }
}

/** Launches headless Chromium with the project's flags (the tests' shell unless told); a missing binary gets a clear message. */
export async function launchChromium(binary = TEST_CHROMIUM): Promise<Browser> {
  assertChromium(binary);
  return chromium.launch({ executablePath: binary, headless: true, args: CHROMIUM_ARGS });
}
