import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SenderTokenStore, senderTokenKey } from './sender-tokens.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ferry-senders-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const later = new Date(Date.now() + 86_400_000).toISOString();

describe('SenderTokenStore', () => {
  it('keeps one token per server and address (case-insensitive), readable by its owner only', async () => {
    const store = new SenderTokenStore(dir);
    await store.put('http://a:1', 'Ann@Example.com', 'tok-a', later);
    await store.put('http://b:1', 'ann@example.com', 'tok-b', later);
    expect(await store.get('http://a:1', ' ann@example.COM ')).toBe('tok-a');
    expect(await store.get('http://b:1', 'ann@example.com')).toBe('tok-b');
    expect(await store.get('http://a:1', 'bob@example.com')).toBeUndefined();
    const files = (await readdir(store.dir)).filter((f) => f.endsWith('.json'));
    expect(files).toHaveLength(2);
    for (const f of files) expect((await stat(path.join(store.dir, f))).mode & 0o777).toBe(0o600);
    expect((await stat(store.dir)).mode & 0o777).toBe(0o700);
    // The file name does not give the address away.
    expect(files.join()).not.toContain('ann');
  });

  it('replaces a token, forgets a removed or expired one, and prunes expired files on the next save', async () => {
    const store = new SenderTokenStore(dir);
    await store.put('http://a:1', 'ann@example.com', 'old', later);
    await store.put('http://a:1', 'ann@example.com', 'new', later);
    expect(await store.get('http://a:1', 'ann@example.com')).toBe('new');
    await store.remove('http://a:1', 'ann@example.com');
    expect(await store.get('http://a:1', 'ann@example.com')).toBeUndefined();

    await store.put('http://a:1', 'old@example.com', 'expired', new Date(Date.now() - 1000).toISOString());
    expect(await store.get('http://a:1', 'old@example.com')).toBeUndefined();
    await store.put('http://a:1', 'ann@example.com', 'fresh', later);
    expect(await readdir(store.dir)).toEqual([`${senderTokenKey('http://a:1', 'ann@example.com')}.json`]);
  });
});
