import { existsSync } from 'node:fs';

/** Debian's Chromium: the journeys never download a browser. */
export const CHROMIUM = process.env.WHARF_CHROMIUM ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
