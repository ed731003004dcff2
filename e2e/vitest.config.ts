import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** End-to-end suites: the built app started as `npm start` starts it, driven by Chromium and the CLI. */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'e2e',
    include: ['tests/**/*.e2e.test.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: false,
  },
});
