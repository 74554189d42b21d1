import { buildConsole, consoleIsStale } from '../../scripts/consoleBuild.mjs';
import { hasChromium } from './chromium.ts';

/** Vitest global setup: the journeys test the built console, so build it when missing or stale. */
export default function buildConsoleForJourneys() {
  if (!hasChromium || !consoleIsStale()) return;
  console.log('e2e: building the console (packages/web/dist is missing or older than its sources)');
  buildConsole();
}
