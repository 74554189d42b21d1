import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'e2e/vitest.config.ts'].filter((file) =>
      !file.includes('*') ? existsSync(file) : true,
    ),
    // Most suites wait on servers, child processes and a browser rather than on the CPU: three
    // files at a time keep both cores of a small machine busy (the default would run one).
    maxWorkers: 3,
  },
});
