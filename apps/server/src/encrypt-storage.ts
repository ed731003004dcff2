/**
 * `npm run storage:encrypt`: encrypts the files stored before STORAGE_ENCRYPTION_KEY_FILE was set
 * (docs/encryption.md). Reads the same configuration as the server; safe to run while it serves, and again.
 */
import path from 'node:path';
import { ConfigError, loadConfig } from './config.js';
import { encryptInPlace } from './storage/encrypt-in-place.js';

async function run(): Promise<number> {
  const config = loadConfig();
  if (!config.storageEncryptionKey) {
    console.error('STORAGE_ENCRYPTION_KEY_FILE is not set: there is no key to encrypt with.');
    return 2;
  }
  if (config.storage !== 'local') {
    console.error(
      'STORAGE=s3: this command encrypts local files only; on S3, new transfers are stored with SSE-C (docs/encryption.md).',
    );
    return 2;
  }
  const root = path.join(config.dataDir, 'files');
  console.log(`Encrypting the plaintext files under ${root} …`);
  const report = await encryptInPlace(root, config.storageEncryptionKey, (line) => console.log(line));
  console.log(
    `Done: ${report.encrypted} encrypted (${report.bytes} bytes), ${report.alreadyEncrypted} already encrypted, ` +
      `${report.unfinished} unfinished uploads left for a later run.`,
  );
  return 0;
}

run().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  },
);
