import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package (playwright's own browser download cannot work here: STACK-NOTES.md). */
export const CHROMIUM = process.env.CHROME_PATH || '/usr/bin/chromium';

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
export function assertChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} is missing: install Debian's chromium (sudo apt-get install -y chromium) or set CHROME_PATH`);
  }
}

/** Launches headless Chromium with the project's flags; a missing binary gets a clear message. */
export async function launchChromium(): Promise<Browser> {
  assertChromium();
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}
