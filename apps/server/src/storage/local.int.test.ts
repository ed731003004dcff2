import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Upload } from '@tus/utils';
import { afterAll, describe, expect, it } from 'vitest';
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

describe('local disk storage', () => {
  it('copies a blob as a hard link: one file with two names, each removable alone', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-local-storage-'));
    dirs.push(dir);
    const storage = await createLocalStorage(dir);
    const data = Buffer.from('shared bytes');
    await storage.tusStore.create(
      new Upload({ id: 'source-aaaaaa', size: data.length, offset: 0, metadata: {} }),
    );
    await storage.tusStore.write(Readable.from([data]), 'source-aaaaaa', 0);
    await storage.copyUpload(storage.uploadBlobKey('source-aaaaaa'), 'target-bbbbbb');
    const [source, target] = await Promise.all(
      ['source-aaaaaa', 'target-bbbbbb'].map((id) => fs.stat(path.join(dir, 'uploads', id))),
    );
    expect(target!.ino).toBe(source!.ino);
    expect(target!.nlink).toBe(2);
    await storage.tusStore.remove('source-aaaaaa');
    expect((await fs.stat(path.join(dir, 'uploads', 'target-bbbbbb'))).nlink).toBe(1);
    expect(await fs.readFile(path.join(dir, 'uploads', 'target-bbbbbb'), 'utf8')).toBe('shared bytes');
  });
});
