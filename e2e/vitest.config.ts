import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'e2e',
    include: ['journeys/**/*.test.ts'],
    globalSetup: ['./support/buildConsole.ts'],
    // One browser and one server per file; files one after the other keep the machine calm.
    fileParallelism: false,
    testTimeout: 60_000,
    // expect.poll() is the journeys' web-first assertion: it retries as long as a locator waits.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
  },
});
