import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type CredentialRecord,
  CredentialStore,
  credentialKey,
  credentialKindOf,
  hasExpired,
} from './credentials.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ferry-credentials-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const later = new Date(Date.now() + 86_400_000).toISOString();
const record = (server: string, token: string, more: Partial<CredentialRecord> = {}) => ({
  server,
  kind: 'session' as const,
  token,
  email: 'ann@example.com',
  uid: 'u1',
  planType: 'NONE' as const,
  expiresAt: later,
  ...more,
});

describe('CredentialStore', () => {
  it('keeps one credential per server, in a file readable by its owner only, in a folder of its own', async () => {
    const store = new CredentialStore(dir);
    await store.put(record('http://a:1/', 'tok.a.1'));
    await store.put(record('https://b.example/ferry', 'tok.b.1', { kind: 'api-token', expiresAt: '' }));
    expect((await store.get('http://a:1'))?.token).toBe('tok.a.1');
    expect((await store.get('HTTP://A:1/'))?.server).toBe('http://a:1');
    expect((await store.get('https://b.example/ferry/'))?.kind).toBe('api-token');
    expect(await store.get('https://b.example')).toBeNull(); // another base path is another server
    expect(await store.get('http://a:2')).toBeNull();

    const files = (await readdir(store.dir)).filter((f) => f.endsWith('.json'));
    expect(files.sort()).toEqual(
      [`${credentialKey('http://a:1')}.json`, `${credentialKey('https://b.example/ferry')}.json`].sort(),
    );
    for (const f of files) expect((await stat(path.join(store.dir, f))).mode & 0o777).toBe(0o600);
    expect((await stat(store.dir)).mode & 0o777).toBe(0o700);
    // Neither the server nor the token shows in a file name.
    expect(files.join()).not.toMatch(/example|tok/);
  });

  it('replaces the credential of a server, removes it, and ignores a broken file', async () => {
    const store = new CredentialStore(dir);
    await store.put(record('http://a:1', 'old.t.k'));
    await store.put(record('http://a:1', 'new.t.k', { planType: 'PREMIUM' }));
    expect(await store.get('http://a:1')).toMatchObject({ token: 'new.t.k', planType: 'PREMIUM' });
    expect((await readdir(store.dir)).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    await store.remove('http://a:1');
    expect(await store.get('http://a:1')).toBeNull();
    await store.remove('http://a:1'); // nothing to remove: no error
    await writeFile(store.file('http://a:1'), '{not json');
    expect(await store.get('http://a:1')).toBeNull();
  });

  it('keeps a device id (a UUID) for good, readable by its owner only', async () => {
    const store = new CredentialStore(path.join(dir, 'state'));
    const first = await store.deviceId();
    expect(first).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(await new CredentialStore(path.join(dir, 'state')).deviceId()).toBe(first);
    const file = path.join(dir, 'state', 'device-id');
    expect((await readFile(file, 'utf8')).trim()).toBe(first);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });
});

describe('credential helpers', () => {
  it('tells an API token from a session token, and refuses anything else', () => {
    expect(credentialKindOf('fry_abc123')).toBe('api-token');
    expect(credentialKindOf('eyJa.eyJb.sig')).toBe('session');
    expect(credentialKindOf('fry_')).toBeNull();
    expect(credentialKindOf('hunter2')).toBeNull();
    expect(credentialKindOf('a.b c.d')).toBeNull();
  });

  it('knows when a stored session is over; an API token never is', () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    const full = (expiresAt: string) => ({
      ...record('http://a:1', 't.t.t', { expiresAt }),
      key: 'k',
      savedAt: '',
    });
    expect(hasExpired(full('2029-12-31T23:59:59Z'), now)).toBe(true);
    expect(hasExpired(full('2030-01-01T00:00:01Z'), now)).toBe(false);
    expect(hasExpired(full(''), now)).toBe(false);
  });
});
