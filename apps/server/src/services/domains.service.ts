import {
  CustomDomain,
  type CustomDomainView,
  DNS_CHALLENGE_LABEL,
  DNS_CHALLENGE_PREFIX,
  DOMAIN_SUSPEND_AFTER_DAYS,
  type DomainsView,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { HostClaimRecord } from '../db/host.repository.js';
import type { TxtLookup } from '../dns/txt-lookup.js';
import { randomToken } from '../security/secrets.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { HostStore, TableHostDirectory } from './host-directory.js';
import type { RateLimiter } from './ports.js';

/** The hosts table as the domains service uses it (db/host.repository.ts). */
export interface DomainStore extends HostStore {
  claim(ownerId: string, host: string): Promise<HostClaimRecord | null>;
  addCustom(ownerId: string, host: string, token: string): Promise<HostClaimRecord>;
  servedByOther(ownerId: string, host: string): Promise<boolean>;
  markProven(ownerId: string, host: string, now: Date): Promise<boolean>;
  markMissing(ownerId: string, host: string, now: Date, suspendBefore: Date): Promise<void>;
  remove(ownerId: string, host: string): Promise<boolean>;
  customToRecheck(): Promise<HostClaimRecord[]>;
}

/** Custom domains one owner may add. */
const MAX_CUSTOM_DOMAINS = 10;
const DAY_MS = 86_400_000;

/**
 * An owner's subdomain and custom domains (/api/user/users/{uid}/domains), the proxy's certificate question
 * (tls-ask) and the daily re-check of proofs. Only the account itself, or a team's manager for the team, on a paid
 * plan, manages them.
 */
export class DomainsService {
  constructor(
    private readonly store: DomainStore,
    /** Null without BASE_DOMAIN: the routes answer, but nothing can be claimed. */
    private readonly hosts: TableHostDirectory | null,
    private readonly lookupTxt: TxtLookup,
    private readonly limiter: RateLimiter,
    /** `https://{host}` (the scheme and port of PUBLIC_URL in dev and test). */
    private readonly originOf: (host: string) => string,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async list(auth: Authenticated | null, uid: string): Promise<DomainsView> {
    const ownerId = this.owner(auth, uid);
    return this.view(ownerId);
  }

  async claimSubdomain(auth: Authenticated | null, uid: string, name: string | null): Promise<DomainsView> {
    const ownerId = this.owner(auth, uid);
    await this.directory().claimSubdomain(ownerId, name);
    this.logger.info({ ownerId, name }, name ? 'subdomain claimed' : 'subdomain released');
    return this.view(ownerId);
  }

  async add(auth: Authenticated | null, uid: string, rawDomain: string): Promise<CustomDomainView> {
    const ownerId = this.owner(auth, uid);
    this.directory();
    const host = this.acceptable(rawDomain);
    const mine = await this.store.ofOwner(ownerId);
    if (!mine.some((c) => c.host === host)) {
      if (mine.filter((c) => c.kind === 'custom').length >= MAX_CUSTOM_DOMAINS)
        throw new AppError('VALIDATION_FAILED', `At most ${MAX_CUSTOM_DOMAINS} custom domains.`, {
          details: { field: 'domain', problem: 'too_many' },
        });
      if (await this.store.servedByOther(ownerId, host)) throw hostTaken();
    }
    return this.customView(await this.store.addCustom(ownerId, host, randomToken(24)));
  }

  /** Looks the proof up now: verified, or 409 DOMAIN_NOT_PROVEN with the record to publish. */
  async verify(auth: Authenticated | null, uid: string, rawDomain: string): Promise<CustomDomainView> {
    const ownerId = this.owner(auth, uid);
    const claim = await this.customClaim(ownerId, rawDomain);
    await this.limit(`domain-verify:${ownerId}`, 30, 3600);
    const found = await this.proofFound(claim);
    const now = this.now();
    if (!found) {
      // A manual look-up only notes the miss; suspending is the daily check's decision.
      await this.store.markMissing(ownerId, claim.host, now, new Date(0));
      throw new AppError('DOMAIN_NOT_PROVEN', 'The DNS record proving this domain was not found.', {
        details: { record: recordOf(claim) },
      });
    }
    if (!(await this.store.markProven(ownerId, claim.host, now))) throw hostTaken();
    this.directory().forget(claim.host);
    this.logger.info({ ownerId, host: claim.host }, 'custom domain verified');
    return this.customView((await this.store.claim(ownerId, claim.host))!);
  }

  async remove(auth: Authenticated | null, uid: string, rawDomain: string): Promise<void> {
    const ownerId = this.owner(auth, uid);
    const claim = await this.customClaim(ownerId, rawDomain);
    await this.store.remove(ownerId, claim.host);
    this.hosts?.forget(claim.host);
  }

  /** The reverse proxy's on-demand TLS question: may a certificate be obtained for this host? */
  async tlsAsk(domain: string, ip: string): Promise<boolean> {
    await this.limit(`tls-ask:${ip}`, 120, 60);
    return this.hosts !== null && (await this.hosts.ownerOf(domain)) !== null;
  }

  /**
   * The daily re-check: each custom domain's proof is looked up again. One missing for DOMAIN_SUSPEND_AFTER_DAYS
   * days in a row is suspended (no longer served, no certificate); found again, it is served again.
   */
  async recheckAll(): Promise<{ checked: number; missing: number }> {
    if (!this.hosts) return { checked: 0, missing: 0 };
    let missing = 0;
    const claims = await this.store.customToRecheck();
    for (const claim of claims) {
      let found: boolean;
      try {
        found = await this.proofFound(claim);
      } catch (err) {
        this.logger.warn({ err, host: claim.host }, 'custom domain re-check failed; tried again tomorrow');
        continue;
      }
      const now = this.now();
      if (found) {
        if (!(await this.store.markProven(claim.ownerId, claim.host, now)))
          this.logger.warn({ host: claim.host }, 'custom domain proven by two owners; left suspended');
      } else {
        missing++;
        const suspendBefore = new Date(now.getTime() - DOMAIN_SUSPEND_AFTER_DAYS * DAY_MS);
        await this.store.markMissing(claim.ownerId, claim.host, now, suspendBefore);
      }
      this.directory().forget(claim.host);
    }
    return { checked: claims.length, missing };
  }

  private async proofFound(claim: HostClaimRecord): Promise<boolean> {
    const expected = recordOf(claim);
    const values = await this.lookupTxt(expected.name).catch((err: unknown) => {
      this.logger.warn({ err, host: claim.host }, 'DNS look-up failed');
      return [] as string[];
    });
    return values.some((v) => v.trim() === expected.value);
  }

  private async view(ownerId: string): Promise<DomainsView> {
    if (!this.hosts) return { baseDomain: null, subdomain: null, customDomains: [] };
    const claims = await this.store.ofOwner(ownerId);
    const sub = claims.find((c) => c.kind === 'subdomain');
    const name = sub ? this.directory().nameOf(sub.host) : null;
    return {
      baseDomain: this.directory().baseDomain,
      subdomain: sub && name ? { name, host: sub.host, url: this.originOf(sub.host) } : null,
      customDomains: claims.filter((c) => c.kind === 'custom').map((c) => this.customView(c)),
    };
  }

  private customView(claim: HostClaimRecord): CustomDomainView {
    return {
      domain: claim.host,
      status: claim.status,
      record: recordOf(claim),
      url: this.originOf(claim.host),
      verifiedAt: claim.verifiedAt?.toISOString() ?? null,
      lastCheckedAt: claim.lastCheckedAt?.toISOString() ?? null,
      missingSince: claim.missingSince?.toISOString() ?? null,
    };
  }

  private async customClaim(ownerId: string, rawDomain: string): Promise<HostClaimRecord> {
    const parsed = CustomDomain.safeParse(rawDomain);
    const claim = parsed.success ? await this.store.claim(ownerId, parsed.data) : null;
    if (claim?.kind !== 'custom') throw new AppError('NOT_FOUND', 'No such custom domain.');
    return claim;
  }

  /** A custom domain may be neither the main host nor the base domain or one of its subdomains. */
  private acceptable(rawDomain: string): string {
    const host = CustomDomain.parse(rawDomain);
    const base = this.directory().baseDomain;
    if (host === base || host.endsWith(`.${base}`) || host === this.directory().mainHost)
      throw new AppError('VALIDATION_FAILED', 'This domain belongs to the service itself.', {
        details: { field: 'domain', problem: 'reserved' },
      });
    return host;
  }

  /** Only the owner: the account itself (not a team member), or the team's manager; on a paid plan. */
  private owner(auth: Authenticated | null, uid: string): string {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    if (auth.user.id !== uid || auth.user.managerId)
      throw new AppError('FORBIDDEN', "Only the account's owner or the team's manager manages its domains.", {
        details: { reason: 'NOT_OWNER' },
      });
    if (auth.planType === 'NONE')
      throw new AppError('FORBIDDEN', 'Subdomains and custom domains come with a paid plan.', {
        details: { reason: 'PLAN_REQUIRED' },
      });
    return uid;
  }

  private directory(): TableHostDirectory {
    if (!this.hosts)
      throw new AppError('NOT_FOUND', 'Subdomains and custom domains are not enabled on this server.', {
        details: { reason: 'HOSTS_NOT_ENABLED' },
      });
    return this.hosts;
  }

  private async limit(key: string, limit: number, windowSeconds: number): Promise<void> {
    const hit = await this.limiter.hit(key, limit, windowSeconds);
    if (!hit.allowed)
      throw new AppError('RATE_LIMITED', 'Too many requests; wait before trying again.', {
        retryAfterSeconds: hit.retryAfterSeconds,
      });
  }
}

function hostTaken(): AppError {
  return new AppError('HOST_TAKEN', 'Another account or team already uses this domain.', {
    details: { field: 'domain' },
  });
}

function recordOf(claim: Pick<HostClaimRecord, 'host' | 'token'>) {
  return {
    name: `${DNS_CHALLENGE_LABEL}.${claim.host}`,
    type: 'TXT' as const,
    value: `${DNS_CHALLENGE_PREFIX}${claim.token ?? ''}`,
  };
}
