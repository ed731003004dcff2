import { createHash, hkdfSync } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';
import { transferOfKey } from './region-routing.js';

/**
 * SSE-C: S3 encrypts an object with a key Ferry sends on every call that writes or reads it, and keeps only a salted
 * hash of that key. Ferry derives one key per transfer from the master key (STORAGE_ENCRYPTION_KEY_FILE), so a leaked
 * object key opens one transfer at most, and nothing but the master key needs keeping.
 */
export interface SseCKeys {
  /** The SSE-C key of an object, or null when it is stored without SSE-C. */
  keyOf(objectKey: string): Promise<Buffer | null>;
}

/** Object calls that S3 refuses on an SSE-C object unless they carry its key. */
const KEYED_COMMANDS = new Set([
  'PutObjectCommand',
  'GetObjectCommand',
  'HeadObjectCommand',
  'CreateMultipartUploadCommand',
  'UploadPartCommand',
  'CopyObjectCommand',
  'UploadPartCopyCommand',
]);
/** Calls whose copy source needs its own key. */
const COPY_COMMANDS = new Set(['CopyObjectCommand', 'UploadPartCopyCommand']);

/** A transfer's SSE-C key: HKDF-SHA256(master, transfer id). */
export function transferSseKey(master: Buffer, transferId: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, 'ferry sse-c v1', `transfer:${transferId}`, 32));
}

/**
 * Keys by the transfer an object belongs to. Object keys are upload ids, `<transferId>-<fileId>`, possibly with tus's
 * `.info`/`.part` suffix; `enabled` says whether that transfer is stored with SSE-C (its `sseC` flag, fixed at
 * creation). Answers are remembered: the flag never changes.
 */
export function transferSseCKeys(
  master: Buffer,
  enabled: (transferId: string) => Promise<boolean>,
): SseCKeys {
  const known = new Map<string, boolean>();
  return {
    async keyOf(objectKey) {
      // Uploads (`<transferId>-<fileId>`) and previews' renditions (`previews/<transferId>/…`) alike.
      const transferId = transferOfKey(objectKey);
      if (!transferId) return null;
      let on = known.get(transferId);
      if (on === undefined) {
        on = await enabled(transferId);
        if (known.size > 10_000) known.clear();
        known.set(transferId, on);
      }
      return on ? transferSseKey(master, transferId) : null;
    },
  };
}

const md5 = (key: Buffer) => createHash('md5').update(key).digest('base64');

/** Adds the SSE-C headers (key and its MD5, copy source's too) to every object call of `client` that needs them. */
export function sendSseCKeys(
  client: Pick<S3Client, 'middlewareStack'>,
  bucket: string,
  keys: SseCKeys,
): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = (context as { commandName?: string }).commandName ?? '';
      const input = args.input as Record<string, unknown>;
      if (KEYED_COMMANDS.has(command) && typeof input.Key === 'string') {
        const key = await keys.keyOf(input.Key);
        if (key) {
          input.SSECustomerAlgorithm = 'AES256';
          input.SSECustomerKey = key.toString('base64');
          input.SSECustomerKeyMD5 = md5(key);
        }
        if (COPY_COMMANDS.has(command) && typeof input.CopySource === 'string') {
          const source = decodeURIComponent(input.CopySource.replace(/^\/?/, '').slice(bucket.length + 1));
          const sourceKey = await keys.keyOf(source);
          if (sourceKey) {
            input.CopySourceSSECustomerAlgorithm = 'AES256';
            input.CopySourceSSECustomerKey = sourceKey.toString('base64');
            input.CopySourceSSECustomerKeyMD5 = md5(sourceKey);
          }
        }
      }
      return next(args);
    },
    { step: 'initialize', priority: 'high', name: 'ferrySseCKeys' },
  );
}
