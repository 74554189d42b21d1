import { type Browser, chromium } from 'playwright-core';
import { describe } from 'vitest';
import { CHROMIUM, hasChromium } from './chromium.ts';

if (!hasChromium) console.warn(`e2e: skipping the browser journeys, ${CHROMIUM} is missing (apt-get install chromium)`);

/** A describe block that runs only where Chromium is installed. */
export const describeInBrowser: ReturnType<typeof describe.skipIf> = describe.skipIf(!hasChromium);

/** Chromium as the journeys run it: no sandbox (a container), no GPU, nothing fetched from outside. */
export const BROWSER_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: BROWSER_FLAGS });
}
