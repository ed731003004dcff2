import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';
import { sourceAliases } from '../../vitest.shared.ts';
import { localeTextsPlugin } from './build/locale-texts.ts';

export default defineProject({
  // the texts of each language by namespace, as the app is built (src/i18n/index.ts loads them)
  plugins: [react(), localeTextsPlugin()],
  resolve: { alias: sourceAliases },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    restoreMocks: true,
  },
});
