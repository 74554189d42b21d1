import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    // A worker runs file after file in one process: the server's sources and Playwright are
    // evaluated once per worker, not once per journey (each still opens its own stage).
    isolate: false,
    include: ['journeys/**/*.test.ts'],
    globalSetup: ['./support/buildConsole.ts'],
    setupFiles: ['./support/fileSlot.ts'],
    // One browser and one server per file. The journeys run beside the other projects' files (a
    // sequential project would run after all of them); support/journeySlots.ts bounds how many
    // hold a browser at once, each file taking its slot in support/fileSlot.ts.
    testTimeout: 60_000,
    // expect.poll() is the journeys' web-first assertion: it retries as long as a locator waits.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
  },
});
