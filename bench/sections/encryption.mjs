// Section "encryption": Ferry with encryption at rest (STORAGE_ENCRYPTION_KEY_FILE, docs/encryption.md) beside the
// same Ferry without it, both measured in this section so the comparison is of one run on one machine state. A
// second Ferry is started here with a key file and stopped at the end. Measurements alternate between the two, as
// in `throughput`; the median of BENCH_RUNS is reported. Target: encrypted rates within 15 % of unencrypted ones.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { measure } from '../lib/measure.mjs';
import { fmtMBps, log, median, sizeLabel, syncDisks } from '../lib/util.mjs';
import { ferrySide } from './throughput.mjs';

/** @typedef {import('../lib/measure.mjs').Sample} Sample */

/** Encrypted rates should stay within 15 % of unencrypted ones. */
const WITHIN_15_PERCENT = { minRatio: 0.85 };

/** Fails unless every upload the encrypted Ferry stored begins with the encrypted format's header. */
async function checkEncrypted(/** @type {string} */ dataDir) {
  const uploads = path.join(dataDir, 'files', 'uploads');
  const blobs = (await fs.readdir(uploads)).filter((name) => !name.endsWith('.json'));
  for (const name of blobs) {
    const handle = await fs.open(path.join(uploads, name), 'r');
    const magic = Buffer.alloc(8);
    await handle.read(magic, 0, 8, 0);
    await handle.close();
    if (magic.toString('latin1') !== 'FERRYENC')
      throw new Error(`verification failed: ${name} is not stored encrypted`);
  }
  return blobs.length;
}

/** @type {import('./index.mjs').Section} */
export const encryption = {
  id: 'encryption',
  title: 'Encryption at rest',

  async run(ctx, servers) {
    if (!servers.ferry || !ctx.startFerry) {
      log('encryption: needs Ferry (BENCH_ONLY=baseline): skipped');
      return;
    }
    const keyFile = path.join(ctx.tmpDir, 'storage.key'); // outside both DATA_DIRs, as Ferry requires
    await fs.writeFile(keyFile, randomBytes(32).toString('base64'), { mode: 0o600 });
    const encrypted = await ctx.startFerry('Ferry (encrypted)', 'ferry-encrypted-data', {
      STORAGE_ENCRYPTION_KEY_FILE: keyFile,
    });
    log(`encrypted Ferry up (pid ${encrypted.pid})`);
    const S = sizeLabel(ctx.testFile.size);
    /** @type {Record<'plain' | 'encrypted', Record<string, Sample[]>>} */
    const out = { plain: {}, encrypted: {} };
    try {
      const sides = {
        plain: { server: servers.ferry, impl: ferrySide(ctx, servers.ferry) },
        encrypted: { server: encrypted, impl: ferrySide(ctx, encrypted) },
      };
      log(`warm-up (untimed) on the encrypted Ferry`);
      await sides.encrypted.impl.warmup();
      for (let run = 1; run <= ctx.runs; run++) {
        log(`encryption run ${run}/${ctx.runs}`);
        const order = /** @type {Array<'plain' | 'encrypted'>} */ (
          run % 2 ? ['plain', 'encrypted'] : ['encrypted', 'plain']
        );
        for (const [key, label] of [
          ['uploadSingle', `upload ${S} (one stream)`],
          ['download', `download ${S}`],
        ]) {
          for (const side of order) {
            await syncDisks();
            // run numbers above the throughput section's: its transfers are not reused
            const sample = await measure(sides[side].server.pid, () =>
              /** @type {any} */ (sides[side].impl)[key](1000 + run),
            );
            log(`  ${side.padEnd(9)} ${label.padEnd(36)} ${fmtMBps(sample.mbps).padStart(10)}`);
            const list = out[side][key] ?? [];
            list.push(sample);
            out[side][key] = list;
          }
        }
      }
      log(`encrypted Ferry stored ${await checkEncrypted(encrypted.dataDir ?? '')} files, all encrypted`);
    } finally {
      const code = await encrypted.stop();
      if (code !== 0) log(`warning: the encrypted Ferry exited with code ${code}; log: ${encrypted.logFile}`);
    }
    ctx.results.encryption = out;
  },

  rows(ctx) {
    const e = ctx.results.encryption;
    if (!e) return [];
    const S = sizeLabel(ctx.testFile.size);
    const m = (side, key) => {
      const list = e[side]?.[key];
      return list?.length ? median(list.map((s) => s.mbps)) : null;
    };
    return [
      {
        measure: `upload ${S} (one stream), encrypted at rest`,
        unit: 'MB/s',
        baseline: m('plain', 'uploadSingle'),
        baselineNote: '(Ferry, unencrypted)',
        ferry: m('encrypted', 'uploadSingle'),
        target: WITHIN_15_PERCENT,
      },
      {
        measure: `download ${S}, encrypted at rest`,
        unit: 'MB/s',
        baseline: m('plain', 'download'),
        baselineNote: '(Ferry, unencrypted)',
        ferry: m('encrypted', 'download'),
        target: WITHIN_15_PERCENT,
      },
    ];
  },
};
