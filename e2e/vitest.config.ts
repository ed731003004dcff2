import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * End-to-end suites: the built app started as `npm start` starts it, driven by Chromium and the CLI.
 *
 * Files run in parallel, one per core (at most 4): each starts its own server (own DATA_DIR, so its own embedded
 * PostgreSQL; ports picked by the OS), its own SMTP sink, IdP and Chromium, and writes only under its own temp
 * dirs and to file-named artifacts and screenshots. The work is mostly CPU (Chromium, the servers, hashing
 * large files), so more workers than cores only makes each test slower. The suites' own helpers have unit tests
 * beside them (support/*.test.ts), run with the suites.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  test: {
    name: 'e2e',
    include: ['tests/**/*.e2e.test.ts', 'support/**/*.test.ts'],
    globalSetup: ['support/global-setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: Math.max(1, Math.min(4, availableParallelism())),
  },
});
