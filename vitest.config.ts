import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';
import { RunSummary } from './scripts/vitest/runSummary.ts';
import { SlowFirst } from './scripts/vitest/slowFirst.ts';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'e2e/vitest.config.ts'].filter((file) =>
      !file.includes('*') ? existsSync(file) : true,
    ),
    // Most suites wait on servers, child processes and a browser rather than on the CPU: three
    // files at a time keep both cores of a small machine busy (the default would run one).
    maxWorkers: 3,
    // One queue for every project, longest files first: the run ends when its last file does.
    sequence: { sequencer: SlowFirst },
    reporters: ['default', new RunSummary()],
  },
});
