import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/announceServices.ts'],
    // A test's bound catches a hang; it must not catch a machine running two suites at once, where
    // a case that starts processes (podman, a cluster, a peer) has taken over 30 s.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
