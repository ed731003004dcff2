import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { sourceAliases } from '../../vitest.shared.ts';
import { localeTextsPlugin } from './build/locale-texts.ts';
import { precompress } from './build/precompress.ts';

export default defineConfig({
  plugins: [react(), localeTextsPlugin(), precompress()],
  resolve: { alias: sourceAliases },
  server: {
    port: 5173,
    proxy: { '/api': { target: 'http://localhost:8080', changeOrigin: false } },
  },
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // No data: URLs in the bundle: the server's CSP only allows assets from 'self'.
    assetsInlineLimit: 0,
    sourcemap: true,
  },
});
