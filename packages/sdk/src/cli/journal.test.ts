import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  downloadJournalKey,
  JournalStore,
  optionsDigest,
  type SendJournal,
  sendJournalKey,
  stateDir,
} from './journal.js';

const files = [
  { absPath: '/data/a.bin', size: 10, mtimeMs: 1000.5 },
  { absPath: '/data/photos/b.jpg', relativePath: 'photos/b.jpg', size: 20, mtimeMs: 2000 },
];

describe('stateDir', () => {
  it('prefers FERRY_STATE_DIR, then an absolute XDG_STATE_HOME, then ~/.local/state', () => {
    expect(stateDir({ FERRY_STATE_DIR: '/s', XDG_STATE_HOME: '/x' }, '/home/u')).toBe(path.resolve('/s'));
    expect(stateDir({ XDG_STATE_HOME: '/x' }, '/home/u')).toBe('/x/ferry');
    expect(stateDir({ XDG_STATE_HOME: 'relative' }, '/home/u')).toBe('/home/u/.local/state/ferry');
    expect(stateDir({}, '/home/u')).toBe('/home/u/.local/state/ferry');
  });
});

describe('sendJournalKey', () => {
  const key = sendJournalKey('http://localhost:8080', files);

  it('is the same for the same files in another order', () => {
    expect(sendJournalKey('http://localhost:8080', [...files].reverse())).toBe(key);
  });

  it.each([
    ['another server', 'http://other:8080', files],
    ['a changed size', 'http://localhost:8080', [{ ...files[0]!, size: 11 }, files[1]!]],
    ['a changed mtime', 'http://localhost:8080', [{ ...files[0]!, mtimeMs: 5000 }, files[1]!]],
    ['another path', 'http://localhost:8080', [{ ...files[0]!, absPath: '/data/c.bin' }, files[1]!]],
    ['one more file', 'http://localhost:8080', [...files, { absPath: '/d', size: 1, mtimeMs: 1 }]],
    ['one file less', 'http://localhost:8080', [files[0]!]],
    ['another relative path', 'http://localhost:8080', [files[0]!, { ...files[1]!, relativePath: 'b.jpg' }]],
  ])('changes with %s', (_what, server, changed) => {
    expect(sendJournalKey(server, changed)).not.toBe(key);
  });

  it('is a safe file name', () => {
    expect(key).toMatch(/^[0-9a-f]{40}$/);
    expect(downloadJournalKey('http://h', 'T', null, '/out')).toMatch(/^[0-9a-f]{40}$/);
    expect(downloadJournalKey('http://h', 'T', 'f', '/out')).not.toBe(
      downloadJournalKey('http://h', 'T', null, '/out'),
    );
  });
});

describe('optionsDigest', () => {
  it('ignores key order and undefined values but not values', () => {
    expect(optionsDigest({ a: 1, b: undefined })).toBe(optionsDigest({ b: undefined, a: 1 }));
    expect(optionsDigest({ password: 'x' })).not.toBe(optionsDigest({ password: 'y' }));
  });
});

describe('JournalStore', () => {
  let dir: string;
  beforeEach(async () => {
    dir = path.join(await mkdtemp(path.join(tmpdir(), 'ferry-journal-')), 'uploads');
  });
  afterEach(async () => {
    await rm(path.dirname(dir), { recursive: true, force: true });
  });

  const journal = (key: string, expiresAt: string): SendJournal => ({
    version: 1,
    key,
    server: 'http://localhost:8080',
    optionsDigest: 'd',
    transferId: 'AbCdEfGh12345678',
    uploadToken: 'secret',
    uploadEndpoint: 'http://localhost:8080/api/transfer/uploads',
    link: 'http://localhost:8080/dl/AbCdEfGh12345678',
    expiresAt,
    createdAt: new Date().toISOString(),
    files: [],
  });

  it('saves, loads and removes a record; only its owner can read it', async () => {
    const store = new JournalStore<SendJournal>(dir);
    expect(await store.load('k1')).toBeNull();
    await store.save(journal('k1', '2999-01-01T00:00:00Z'));
    expect((await store.load('k1'))?.uploadToken).toBe('secret');
    expect((await stat(path.join(dir, 'k1.json'))).mode & 0o077).toBe(0);
    await store.remove('k1');
    expect(await store.load('k1')).toBeNull();
  });

  it('keeps the last of concurrent saves and leaves no temp file', async () => {
    const store = new JournalStore<SendJournal>(dir);
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        store.save({ ...journal('k', '2999-01-01T00:00:00Z'), uploadToken: `t${i}` }),
      ),
    );
    expect((await store.load('k'))?.uploadToken).toBe('t19');
    expect(await readdir(dir)).toEqual(['k.json']);
  });

  it('prunes expired records', async () => {
    const store = new JournalStore<SendJournal>(dir);
    await store.save(journal('old', '2000-01-01T00:00:00Z'));
    await store.save(journal('new', '2999-01-01T00:00:00Z'));
    expect(await store.prune()).toBe(1);
    expect(await readdir(dir)).toEqual(['new.json']);
  });
});
