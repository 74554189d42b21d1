import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { onTestFailed } from 'vitest';

/** Where the traces of failed journeys go (gitignored). */
export const TRACE_DIR = path.resolve(import.meta.dirname, '../traces');

let saved = 0;

/**
 * The screencast a trace can carry cost a third of each journey's CPU, Chromium encoding a frame
 * at every paint, and nearly doubled the journeys' time on a 2-core machine: the DOM snapshots show
 * what a failing step saw. WHARF_TRACE_SCREENSHOTS=1 adds the frames when chasing a failure.
 */
const screenshots = process.env.WHARF_TRACE_SCREENSHOTS === '1';

/**
 * Records a Playwright trace of this context (actions, DOM snapshots, network, console) and saves
 * it only when the running test fails, as @playwright/test's `trace: 'retain-on-failure'` would.
 * A context closed by a passing test drops its recording.
 */
export async function traceOnFailure(context: BrowserContext) {
  await context.tracing.start({ screenshots, snapshots: true });
  onTestFailed(async ({ task }) => {
    const name = `${path.basename(task.file.name, '.test.ts')}-${task.name}`.replace(/[^A-Za-z0-9]+/g, '-');
    const file = path.join(TRACE_DIR, `${name.slice(0, 120)}-${++saved}.zip`);
    mkdirSync(TRACE_DIR, { recursive: true });
    try {
      await context.tracing.stop({ path: file });
      console.error(`e2e: trace of the failed journey: ${file}\n  read it: npx playwright-core trace open ${file}`);
    } catch (error) {
      // The test closed this context before failing: there is nothing left to save.
      console.error(`e2e: no trace for "${task.name}": ${(error as Error).message}`);
    }
  });
}
