import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';

export default defineProject({
  test: { name: 'sdk', include: ['src/**/*.test.ts'] },
  resolve: { alias: sourceAliases },
});
