import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  test: {
    name: 'web',
    // One happy-dom per file still, but the console's modules evaluated once per worker, not once
    // per file (36 files: 46 -> 11 s wall, 88 -> 20 CPU-s). setup.ts unmounts after every test.
    isolate: false,
    environment: 'happy-dom',
    // Typing into a form takes a few hundred milliseconds alone and many seconds on a machine busy
    // with the server suites beside it: the default 5 s failed tests that were only waiting for a core.
    testTimeout: 30_000,
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
  },
});
