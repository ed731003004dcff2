import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { createLocalStorage } from './local.js';
import { describeStorageContract } from './storage.contract.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
});

describeStorageContract('local disk', async () => {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-local-storage-'));
  dirs.push(dir);
  return createLocalStorage(dir);
});
