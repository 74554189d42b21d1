import { existsSync } from 'node:fs';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'e2e/vitest.config.ts'].filter((file) =>
      !file.includes('*') ? existsSync(file) : true,
    ),
  },
});
