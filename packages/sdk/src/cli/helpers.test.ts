import path from 'node:path';
import type { TransferFile } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { parseContentRange } from '../node/download.js';
import { numbered, planDestinations, zipFileName } from './get.js';
import { matchServerFiles } from './journal-upload.js';
import { resolveServer, retryForMs } from './main.js';
import { pool } from './pool.js';

const remote = (id: string, name: string, relativePath: string | null, size: number): TransferFile => ({
  id,
  name,
  relativePath,
  size,
  sha256: null,
  uploaded: false,
});

describe('planDestinations', () => {
  const out = path.resolve('/tmp/out');

  it('keeps relative paths and numbers files that would land on the same path', () => {
    const plan = planDestinations(out, [
      remote('a00001', 'readme.txt', null, 1),
      remote('a00002', 'readme.txt', null, 2),
      remote('a00003', 'x.jpg', 'photos/x.jpg', 3),
    ]);
    expect(plan.map((p) => p.dest)).toEqual([
      path.join(out, 'readme.txt'),
      path.join(out, 'readme (2).txt'),
      path.join(out, 'photos/x.jpg'),
    ]);
  });

  it('refuses the whole set when one path escapes', () => {
    expect(() =>
      planDestinations(out, [remote('a00001', 'ok', null, 1), remote('a00002', 'x', '../x', 1)]),
    ).toThrow('unsafe path');
  });

  it('numbers names without an extension too', () => {
    expect(numbered('/o/Makefile', 3)).toBe('/o/Makefile (3)');
  });
});

describe('zipFileName', () => {
  it('keeps a plain name, adds .zip, and falls back to the transfer id', () => {
    expect(zipFileName('Holiday.zip', 'T')).toBe('Holiday.zip');
    expect(zipFileName('Holiday', 'T')).toBe('Holiday.zip');
    expect(zipFileName('../../evil.zip', 'T')).toBe('T.zip');
    expect(zipFileName('', 'T')).toBe('T.zip');
  });
});

describe('matchServerFiles', () => {
  it('pairs local and server files by relative path, name and size, in any order', () => {
    const local = [
      { absPath: '/a', name: 'a.txt', size: 1, mtimeMs: 0 },
      { absPath: '/d/a.txt', name: 'a.txt', relativePath: 'd/a.txt', size: 1, mtimeMs: 0 },
    ];
    const ids = matchServerFiles(local, [
      remote('id0002', 'a.txt', 'd/a.txt', 1),
      remote('id0001', 'a.txt', null, 1),
    ]);
    expect(ids).toEqual(['id0001', 'id0002']);
    expect(() => matchServerFiles(local, [remote('id0001', 'a.txt', null, 1)])).toThrow('did not list');
  });
});

describe('parseContentRange', () => {
  it('reads start, end and total', () => {
    expect(parseContentRange('bytes 100-199/1000')).toEqual({ start: 100, end: 199, total: 1000 });
    expect(parseContentRange('bytes 0-9/*')).toEqual({ start: 0, end: 9, total: null });
    expect(parseContentRange('bytes */1000')).toBeNull();
    expect(parseContentRange(null)).toBeNull();
  });
});

describe('settings from the environment', () => {
  it('takes --server, then FERRY_SERVER, then localhost:8080', () => {
    expect(resolveServer('http://flag', { FERRY_SERVER: 'http://env' })).toBe('http://flag');
    expect(resolveServer(undefined, { FERRY_SERVER: 'http://env' })).toBe('http://env');
    expect(resolveServer(undefined, { FERRY_SERVER: '' })).toBe('http://localhost:8080');
  });

  it('reads FERRY_RETRY_SECONDS, defaulting to 60 s', () => {
    expect(retryForMs({})).toBe(60_000);
    expect(retryForMs({ FERRY_RETRY_SECONDS: '5' })).toBe(5000);
    expect(retryForMs({ FERRY_RETRY_SECONDS: 'x' })).toBe(60_000);
  });
});

describe('pool', () => {
  it('runs at most `limit` tasks at a time', async () => {
    let running = 0;
    let peak = 0;
    await pool([1, 2, 3, 4, 5, 6], 2, async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    });
    expect(peak).toBe(2);
  });

  it('stops starting tasks after the first failure, tells the others to stop and throws that first error', async () => {
    const started: number[] = [];
    let told = 0;
    const run = pool(
      [1, 2, 3, 4, 5],
      2,
      async (n) => {
        started.push(n);
        await new Promise((r) => setTimeout(r, n === 1 ? 1 : 20));
        if (n === 1) throw new Error('first');
        if (n === 2) throw new Error('second, because stopped');
      },
      () => told++,
    );
    await expect(run).rejects.toThrow('first');
    expect(started).toEqual([1, 2]);
    expect(told).toBe(1);
  });
});
