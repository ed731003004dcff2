import { describe, expect, it } from 'vitest';
import type { HostClaimRecord } from '../db/host.repository.js';
import { type HostStore, TableHostDirectory } from './host-directory.js';

/** The hosts table in memory: one owner per host, verified claims only served. */
class MemoryHosts implements HostStore {
  readonly claims = new Map<string, HostClaimRecord>();
  lookups = 0;

  add(
    host: string,
    ownerId: string,
    kind: 'subdomain' | 'custom',
    status: HostClaimRecord['status'] = 'verified',
  ) {
    this.claims.set(host, {
      host,
      ownerId,
      kind,
      status,
      token: null,
      createdAt: new Date(0),
      verifiedAt: status === 'verified' ? new Date(0) : null,
      lastCheckedAt: null,
      missingSince: null,
    });
  }

  async verified(host: string) {
    this.lookups++;
    const claim = this.claims.get(host);
    return claim?.status === 'verified' ? claim : null;
  }

  async ofOwner(ownerId: string) {
    return [...this.claims.values()].filter((c) => c.ownerId === ownerId);
  }

  async setSubdomain(ownerId: string, host: string | null) {
    const taken = host ? this.claims.get(host) : undefined;
    if (taken && taken.ownerId !== ownerId) return false;
    for (const [h, c] of this.claims)
      if (c.ownerId === ownerId && c.kind === 'subdomain') this.claims.delete(h);
    if (host) this.add(host, ownerId, 'subdomain');
    return true;
  }
}

function directory(entitledOwners?: Set<string>) {
  const store = new MemoryHosts();
  let clock = 1_000_000;
  const hosts = new TableHostDirectory(store, {
    baseDomain: 'ferry.test',
    mainHost: 'ferry.test',
    cacheSeconds: 30,
    now: () => clock,
    ...(entitledOwners ? { entitled: async (id: string) => entitledOwners.has(id) } : {}),
  });
  return { store, hosts, tick: (seconds: number) => (clock += seconds * 1000) };
}

describe('TableHostDirectory', () => {
  it('knows verified hosts only, whatever the case, port or trailing dot; the main host is no one’s', async () => {
    const { store, hosts } = directory();
    store.add('acme.ferry.test', 'u1', 'subdomain');
    store.add('files.acme.example', 'u1', 'custom', 'pending');
    expect(await hosts.ownerOf('ACME.ferry.test:8080')).toEqual({
      ownerId: 'u1',
      host: 'acme.ferry.test',
      kind: 'subdomain',
    });
    expect(await hosts.ownerOf('acme.ferry.test.')).toMatchObject({ ownerId: 'u1' });
    expect(await hosts.ownerOf('files.acme.example')).toBeNull();
    expect(await hosts.ownerOf('ferry.test')).toBeNull();
    expect(await hosts.ownerOf('nobody.ferry.test')).toBeNull();
  });

  it('keeps a look-up for its cache time, then asks the table again', async () => {
    const { store, hosts, tick } = directory();
    store.add('acme.ferry.test', 'u1', 'subdomain');
    await hosts.ownerOf('acme.ferry.test');
    await hosts.ownerOf('acme.ferry.test');
    expect(store.lookups).toBe(1);
    store.claims.delete('acme.ferry.test');
    tick(31);
    expect(await hosts.ownerOf('acme.ferry.test')).toBeNull();
    expect(store.lookups).toBe(2);
  });

  it("serves a lapsed owner's hosts as the main one, keeps them, and serves them again once the plan is back", async () => {
    const paying = new Set(['u1']);
    const { store, hosts, tick } = directory(paying);
    store.add('acme.ferry.test', 'u1', 'subdomain');
    store.add('files.acme.example', 'u1', 'custom');
    expect(await hosts.homeHostOf('u1')).toBe('files.acme.example');
    paying.delete('u1');
    tick(31);
    expect(await hosts.ownerOf('acme.ferry.test')).toBeNull();
    expect(await hosts.ownerOf('files.acme.example')).toBeNull();
    expect(await hosts.homeHostOf('u1')).toBeNull();
    // The name stays theirs: no one else may claim it meanwhile.
    await expect(hosts.claimSubdomain('u2', 'acme')).rejects.toMatchObject({ code: 'HOST_TAKEN' });
    expect(await hosts.subdomainOf('u1')).toBe('acme');
    paying.add('u1');
    tick(31);
    expect(await hosts.ownerOf('acme.ferry.test')).toMatchObject({ ownerId: 'u1' });
    expect(await hosts.homeHostOf('u1')).toBe('files.acme.example');
  });

  it('claims, moves and releases a subdomain, refusing malformed, reserved and main names', async () => {
    const { hosts } = directory();
    await hosts.claimSubdomain('u1', 'acme');
    expect(await hosts.ownerOf('acme.ferry.test')).toMatchObject({ ownerId: 'u1' });
    await hosts.claimSubdomain('u1', 'acme-files');
    expect(await hosts.ownerOf('acme.ferry.test')).toBeNull();
    expect(await hosts.subdomainOf('u1')).toBe('acme-files');
    await hosts.claimSubdomain('u1', null);
    expect(await hosts.subdomainOf('u1')).toBeNull();
    for (const bad of ['Acme', 'www', 'ab', 'acme.evil'])
      await expect(hosts.claimSubdomain('u1', bad)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });
});
