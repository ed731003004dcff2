import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sourceAliases } from '../vitest.shared.js';

/**
 * Reliability suite: the BUILT server (`npm run build` first) started as `npm start` starts it, crashed,
 * raced, fuzzed and scaled out to two instances. Needs the machine's PostgreSQL and Redis (TEST_DATABASE_URL,
 * TEST_REDIS_URL); fails loudly without them.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: sourceAliases },
  test: {
    name: 'reliability',
    include: ['tests/**/*.test.ts'],
    setupFiles: ['./support/setup.ts'],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    teardownTimeout: 60_000,
    fileParallelism: false,
  },
});
