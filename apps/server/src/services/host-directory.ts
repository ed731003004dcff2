import { SubdomainName } from '@ferry/core';
import type { HostClaimRecord } from '../db/host.repository.js';
import { AppError } from './app-error.js';
import type { HostDirectory, HostOwner } from './host-ports.js';

/** What the directory needs of the hosts table (db/host.repository.ts). */
export interface HostStore {
  verified(host: string): Promise<HostClaimRecord | null>;
  ofOwner(ownerId: string): Promise<HostClaimRecord[]>;
  setSubdomain(ownerId: string, host: string | null): Promise<boolean>;
}

export interface HostDirectorySettings {
  /** BASE_DOMAIN: subdomains are `{name}.{baseDomain}`. */
  baseDomain: string;
  /** PUBLIC_URL's host (lowercase, no port): never an owner's. Null: none configured. */
  mainHost: string | null;
  /**
   * How long a look-up is kept in this process. Other instances learn of a change when their copy runs out, so a
   * released or suspended host may still be served there for this long.
   */
  cacheSeconds?: number;
  /**
   * Whether an owner's plan still includes their own hosts (paid plans). A host whose owner's plan lapsed is served
   * as the main host (no theme, no sign-in redirects, no certificate) and kept for them: it comes back with a plan.
   */
  entitled?: (ownerId: string) => Promise<boolean>;
  now?: () => number;
}

/** Look-ups kept at most (unknown hosts too, so a flood of invented Host headers cannot grow memory unbounded). */
const CACHE_ENTRIES = 10_000;

/**
 * The HostDirectory of a server with BASE_DOMAIN: hosts are matched only against Ferry's own table of verified
 * hosts (claimed subdomains and proven custom domains), each look-up kept for a short while in process.
 */
export class TableHostDirectory implements HostDirectory {
  private readonly cache = new Map<string, { owner: HostOwner | null; until: number }>();
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(
    private readonly store: HostStore,
    private readonly settings: HostDirectorySettings,
  ) {
    this.ttlMs = (settings.cacheSeconds ?? 30) * 1000;
    this.now = settings.now ?? Date.now;
  }

  get baseDomain(): string {
    return this.settings.baseDomain;
  }

  get mainHost(): string | null {
    return this.settings.mainHost;
  }

  async ownerOf(hostname: string): Promise<HostOwner | null> {
    const host = normalHost(hostname);
    if (!host || host === this.settings.mainHost) return null;
    const now = this.now();
    const kept = this.cache.get(host);
    if (kept && kept.until > now) return kept.owner;
    const claim = await this.store.verified(host);
    const owner: HostOwner | null =
      claim && (await this.entitled(claim.ownerId))
        ? { ownerId: claim.ownerId, host, kind: claim.kind }
        : null;
    if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(host, { owner, until: now + this.ttlMs });
    return owner;
  }

  async subdomainOf(ownerId: string): Promise<string | null> {
    const claim = (await this.store.ofOwner(ownerId)).find((c) => c.kind === 'subdomain');
    return claim ? this.nameOf(claim.host) : null;
  }

  /** The host the owner's people are sent to after signing in elsewhere: a proven custom domain, else the subdomain. */
  async homeHostOf(ownerId: string): Promise<string | null> {
    if (!(await this.entitled(ownerId))) return null;
    const claims = (await this.store.ofOwner(ownerId)).filter((c) => c.status === 'verified');
    const custom = claims.find((c) => c.kind === 'custom');
    if (custom) return custom.host;
    const sub = claims.find((c) => c.kind === 'subdomain');
    return sub && this.nameOf(sub.host) !== null ? sub.host : null;
  }

  async claimSubdomain(ownerId: string, name: string | null): Promise<void> {
    const before = (await this.store.ofOwner(ownerId)).find((c) => c.kind === 'subdomain')?.host;
    let host: string | null = null;
    if (name !== null) {
      const parsed = SubdomainName.safeParse(name);
      if (!parsed.success)
        throw new AppError('VALIDATION_FAILED', 'This subdomain name cannot be used.', {
          details: {
            field: 'subdomainName',
            problem: (parsed.error.issues[0] as { params?: { problem?: string } }).params?.problem,
          },
        });
      host = `${parsed.data}.${this.settings.baseDomain}`;
      if (host === this.settings.mainHost)
        throw new AppError('VALIDATION_FAILED', 'This subdomain name cannot be used.', {
          details: { field: 'subdomainName', problem: 'reserved' },
        });
    }
    if (host !== null && host === before) return;
    if (!(await this.store.setSubdomain(ownerId, host)))
      throw new AppError('HOST_TAKEN', 'Another account or team already uses this name.', {
        details: { field: 'subdomainName' },
      });
    this.forget(before);
    this.forget(host);
  }

  private entitled(ownerId: string): Promise<boolean> {
    return this.settings.entitled ? this.settings.entitled(ownerId) : Promise.resolve(true);
  }

  /** Drops a host's look-up from this process's cache (after a change made here). */
  forget(host: string | null | undefined): void {
    if (host) this.cache.delete(host);
  }

  /** The `{name}` of `{name}.{baseDomain}`, or null for a host under another base domain. */
  nameOf(host: string): string | null {
    const suffix = `.${this.settings.baseDomain}`;
    return host.endsWith(suffix) ? host.slice(0, -suffix.length) : null;
  }
}

/** A request's host name, lowercase, without a port or a trailing dot; null when it is not a plausible one. */
export function normalHost(hostname: string): string | null {
  const host = hostname.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
  return /^[a-z0-9.-]{1,253}$/.test(host) ? host : null;
}
