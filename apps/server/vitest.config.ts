import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.js';

export default defineProject({
  resolve: { alias: sourceAliases },
  test: {
    name: 'server',
    include: ['src/**/*.test.ts'],
    globalSetup: ['src/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
