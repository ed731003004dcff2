// s3rver for the load section's scaled-out run, in a child process of its own (its CPU time is measured apart and
// it does not share the client's event loop). The child runs the same harness as the server's integration tests
// (apps/server/src/test/s3rver.ts: s3rver plus the ListParts/AbortMultipartUpload/UploadPartCopy answers and the
// write-before-answer fixes @tus/s3-store needs), loaded through tsx, and prints its endpoint as one JSON line.
import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { onCleanup } from './cleanup.mjs';

const here = fileURLToPath(import.meta.url);

/**
 * Starts the child; its objects go to a temp dir under `tmpDir` (removed when it stops).
 * @param {{ tmpDir: string, bucket: string, logFile: string }} options
 * @returns {Promise<{ pid: number, endpoint: string, bucket: string, accessKeyId: string, secretAccessKey: string, stop: () => Promise<void> }>}
 */
export async function startS3rver({ tmpDir, bucket, logFile }) {
  const log = createWriteStream(logFile);
  const child = spawn(process.execPath, [here, 'child', bucket], {
    env: { ...process.env, TMPDIR: tmpDir, NODE_OPTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr.pipe(log, { end: false });
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  let gone = false;
  child.once('exit', () => {
    gone = true;
  });
  const stop = onCleanup(
    's3rver',
    async () => {
      if (!gone) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(timer);
      }
      await new Promise((resolve) => log.end(resolve));
    },
    () => {
      if (!gone) child.kill('SIGKILL');
    },
  );
  const info = await new Promise((resolve, reject) => {
    let text = '';
    child.stdout.on('data', (chunk) => {
      text += chunk.toString('utf8');
      const newline = text.indexOf('\n');
      if (newline !== -1) resolve(JSON.parse(text.slice(0, newline)));
    });
    child.once('exit', (code) =>
      reject(new Error(`s3rver exited with ${code} while starting (log: ${logFile})`)),
    );
  }).catch(async (error) => {
    await stop();
    throw error;
  });
  return { pid: /** @type {number} */ (child.pid), ...info, stop };
}

// ---- the child ------------------------------------------------------------------------------------------------
if (process.argv[1] === here && process.argv[2] === 'child') {
  const { tsImport } = await import('tsx/esm/api');
  const harness = path.resolve(path.dirname(here), '../../apps/server/src/test/s3rver.ts');
  const { startTestS3 } = await tsImport(harness, import.meta.url);
  const s3 = await startTestS3({ bucket: process.argv[3] });
  // the harness keeps every request for the tests' assertions: nothing here reads them, so keep none
  s3.requests.push = () => 0;
  const { endpoint, accessKeyId, secretAccessKey } = s3;
  process.stdout.write(`${JSON.stringify({ endpoint, bucket: s3.bucket, accessKeyId, secretAccessKey })}\n`);
  const stop = async () => {
    await s3.close();
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
