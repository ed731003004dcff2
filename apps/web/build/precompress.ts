import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|map|txt|xml|webmanifest|wasm)$/;
/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 256;

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Writes `<file>.br` (brotli, quality 11) and `<file>.gz` (gzip, level 9) beside every compressible file of
 * `dir`, so the server sends them as they are instead of compressing per request. A copy that would not be
 * smaller is not written (the server then sends the file itself).
 */
export async function precompressDir(dir: string): Promise<{ files: number; written: number }> {
  const files = (await filesUnder(dir)).filter((f) => COMPRESSIBLE.test(f));
  let written = 0;
  await Promise.all(
    files.map(async (file) => {
      const body = await fs.readFile(file);
      if (body.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
            [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
            [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzip(body, { level: zlib.constants.Z_BEST_COMPRESSION }),
      ]);
      for (const [ext, out] of [
        ['.br', br],
        ['.gz', gz],
      ] as const) {
        if (out.length < body.length) {
          await fs.writeFile(file + ext, out);
          written++;
        }
      }
    }),
  );
  return { files: files.length, written };
}

/** Vite plugin: precompresses the build output once everything is written. */
export function precompress(): Plugin {
  let config: ResolvedConfig | null = null;
  let wrote = false;
  return {
    name: 'ferry:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    writeBundle() {
      wrote = true;
    },
    // After writeBundle: by then the public folder is copied too.
    async closeBundle() {
      if (!config || !wrote) return; // an in-memory build (write: false) has nothing on disk
      const { files, written } = await precompressDir(path.resolve(config.root, config.build.outDir));
      config.logger.info(`precompressed ${files} files (${written} .br/.gz written)`);
    },
  };
}
