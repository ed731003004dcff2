// Bundles the `ferry` CLI into dist/cli.js: @ferry/core and zod are bundled in (core is a private workspace
// package), tus-js-client and commander stay external as real dependencies of the published package.
import { readFile } from 'node:fs/promises';
import { build } from 'esbuild';

const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await build({
  entryPoints: [new URL('../src/cli/index.ts', import.meta.url).pathname],
  outfile: new URL('../dist/cli.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Resolve @ferry/core from its TypeScript source, so the bundle never depends on a stale core build.
  conditions: ['source'],
  external: Object.keys(pkg.dependencies),
  define: { __FERRY_VERSION__: JSON.stringify(pkg.version) },
  legalComments: 'none',
  logLevel: 'warning',
});
