import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';
import { describe } from 'vitest';

/** Debian's Chromium: the journeys never download a browser. */
export const CHROMIUM = process.env.WHARF_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

if (!hasChromium) console.warn(`e2e: skipping the browser journeys, ${CHROMIUM} is missing (apt-get install chromium)`);

/** A describe block that runs only where Chromium is installed. */
export const describeInBrowser = describe.skipIf(!hasChromium);

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
