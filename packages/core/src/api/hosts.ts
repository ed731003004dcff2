import { z } from 'zod';

/*
 * Hosts an account or team is served at (spec §2, §3 Theme subdomainName/domain): a subdomain `{name}.{BASE_DOMAIN}`
 * claimed by name, and custom domains proven with a DNS TXT record. The owner is an account's uid; a team's is its
 * manager's uid.
 *
 *   GET    /api/user/users/{uid}/domains                     → DomainsView
 *   PUT    /api/user/users/{uid}/domains/subdomain {name}    → DomainsView (409 HOST_TAKEN)
 *   DELETE /api/user/users/{uid}/domains/subdomain           → DomainsView
 *   POST   /api/user/users/{uid}/domains {domain}            → 201 CustomDomainView (409 HOST_TAKEN)
 *   POST   /api/user/users/{uid}/domains/{domain}/verify     → CustomDomainView (409 DOMAIN_NOT_PROVEN)
 *   DELETE /api/user/users/{uid}/domains/{domain}            → 204
 *   GET    /api/hosts/current                                → CurrentHost (public)
 *   GET    /api/hosts/tls-ask?domain=…                       → 200 for a verified host, else 404 (public)
 */

/**
 * Names nobody may claim: they are (or look like) the service's own hosts, mail and name servers, or words people
 * would trust as the operator's.
 */
export const RESERVED_SUBDOMAINS: readonly string[] = Object.freeze([
  'www',
  'api',
  'admin',
  'administrator',
  'root',
  'mail',
  'email',
  'webmail',
  'smtp',
  'imap',
  'pop',
  'pop3',
  'mx',
  'ns',
  'ns1',
  'ns2',
  'ns3',
  'ns4',
  'dns',
  'app',
  'apps',
  'static',
  'assets',
  'cdn',
  'media',
  'files',
  'download',
  'downloads',
  'upload',
  'uploads',
  'preview',
  'previews',
  'status',
  'help',
  'support',
  'docs',
  'doc',
  'blog',
  'news',
  'dev',
  'test',
  'staging',
  'beta',
  'demo',
  'localhost',
  'auth',
  'login',
  'signin',
  'sign-in',
  'account',
  'accounts',
  'billing',
  'pay',
  'payment',
  'payments',
  'secure',
  'security',
  'ssl',
  'tls',
  'vpn',
  'ftp',
  'sftp',
  'git',
  'operator',
  'abuse',
  'postmaster',
  'hostmaster',
  'webmaster',
  'noreply',
  'no-reply',
  'info',
  'legal',
  'privacy',
  'terms',
  'ferry',
  'autoconfig',
  'autodiscover',
  'wpad',
  'metrics',
  'internal',
]);

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Why a subdomain name is refused, or null when it may be claimed: 3–63 characters of a–z, 0–9 and `-`, no
 * leading or trailing hyphen, not reserved. Upper case is refused rather than folded (the form lowercases as one
 * types), and so is a hyphen in both the 3rd and 4th place: such labels are reserved for IDNA (`xn--…` punycode),
 * whose look-alike letters could pass for another name.
 */
export function subdomainProblem(
  name: string,
): 'length' | 'characters' | 'hyphen' | 'punycode' | 'reserved' | null {
  if (name.length < 3 || name.length > 63) return 'length';
  if (!/^[a-z0-9-]+$/.test(name)) return 'characters';
  if (name.startsWith('-') || name.endsWith('-')) return 'hyphen';
  if (name.slice(2, 4) === '--') return 'punycode';
  if (RESERVED_SUBDOMAINS.includes(name)) return 'reserved';
  return null;
}

export const SubdomainName = z.string().superRefine((name, ctx) => {
  const problem = subdomainProblem(name);
  if (problem)
    ctx.addIssue({ code: 'custom', message: `subdomain name refused (${problem})`, params: { problem } });
});

/**
 * A custom domain: a lowercase host name of two labels or more (an IP address is not one), 253 characters at most,
 * ending in a letters-only top-level label; a trailing dot is dropped. Upper case is folded: DNS names are
 * case-insensitive.
 */
export const CustomDomain = z
  .string()
  .trim()
  .max(254)
  .transform((v) => v.toLowerCase().replace(/\.$/, ''))
  .refine((host) => {
    if (host.length < 4 || host.length > 253) return false;
    const labels = host.split('.');
    if (labels.length < 2 || !labels.every((l) => LABEL.test(l))) return false;
    return /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/.test(labels.at(-1)!);
  }, 'not a domain name (for example files.example.com)');

export const SubdomainClaimRequest = z.object({ name: SubdomainName });
export type SubdomainClaimRequest = z.infer<typeof SubdomainClaimRequest>;

export const CustomDomainAddRequest = z.object({ domain: CustomDomain });
export type CustomDomainAddRequest = z.input<typeof CustomDomainAddRequest>;

/** The DNS record that proves a custom domain: `_ferry-challenge.<domain> TXT "ferry-verify=<token>"`. */
export const DnsProofRecord = z.object({
  name: z.string(),
  type: z.literal('TXT'),
  value: z.string(),
});
export type DnsProofRecord = z.infer<typeof DnsProofRecord>;

/** The label the proof record lives under, and the prefix of its value. */
export const DNS_CHALLENGE_LABEL = '_ferry-challenge';
export const DNS_CHALLENGE_PREFIX = 'ferry-verify=';

export const CUSTOM_DOMAIN_STATUSES = ['pending', 'verified', 'suspended'] as const;
export type CustomDomainStatus = (typeof CUSTOM_DOMAIN_STATUSES)[number];

export const CustomDomainView = z.object({
  domain: z.string(),
  /** pending: not proven yet; verified: served; suspended: its record was gone for 7 days (verify again). */
  status: z.enum(CUSTOM_DOMAIN_STATUSES),
  record: DnsProofRecord,
  /** The address the owner's pages answer at once verified (`https://files.acme.com`). */
  url: z.string(),
  verifiedAt: z.string().nullable(),
  lastCheckedAt: z.string().nullable(),
  /** Since when the daily check has not found the record (it is suspended 7 days later). */
  missingSince: z.string().nullable(),
});
export type CustomDomainView = z.infer<typeof CustomDomainView>;

export const DomainsView = z.object({
  /** BASE_DOMAIN, or null when the server serves no subdomains. */
  baseDomain: z.string().nullable(),
  subdomain: z.object({ name: z.string(), host: z.string(), url: z.string() }).nullable(),
  customDomains: z.array(CustomDomainView),
});
export type DomainsView = z.infer<typeof DomainsView>;

/** GET /api/hosts/current: which host this request came to, as Ferry's table of verified hosts knows it. */
export const CurrentHost = z.object({
  /** Not a verified subdomain or custom domain: the main host (an unknown host is served as the main one). */
  main: z.boolean(),
  host: z.string().nullable(),
  ownerId: z.string().nullable(),
  /**
   * On the main host: the origin of the home host remembered by the auth-redirect cookie (spec §9, 90 days), when
   * it is still a verified host; the app's home page goes there.
   */
  authRedirect: z.string().nullable(),
});
export type CurrentHost = z.infer<typeof CurrentHost>;

/** POST /api/auth/auth/custom-token: a one-time hand-off token (≤ 60 s, bound to this host) becomes a session. */
export const CustomTokenRequest = z.object({
  customToken: z.string().min(1).max(4000),
  deviceId: z.string().uuid().optional(),
});
export type CustomTokenRequest = z.infer<typeof CustomTokenRequest>;

/** How long a hand-off token may wait before it is redeemed. */
export const CUSTOM_TOKEN_SECONDS = 60;
/** A custom domain whose proof record is gone this many days in a row is suspended. */
export const DOMAIN_SUSPEND_AFTER_DAYS = 7;
