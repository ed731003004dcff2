/**
 * The seam between the services that need to know whose host a request came to (the theme, sign-in, mail links)
 * and the one that keeps Ferry's list of verified hosts: subdomains of BASE_DOMAIN claimed by an account or team,
 * and custom domains proven by DNS. A host is only ever looked up in that list, never trusted from a header.
 *
 * An owner is an account's uid; a team is its manager's uid (members are found by manager_id).
 */
export interface HostOwner {
  /** The account (or the team's manager) the host belongs to. */
  ownerId: string;
  /** The host as served, lowercase, without a port: `acme.ferry.example` or `files.acme.com`. */
  host: string;
  kind: 'subdomain' | 'custom';
}

export interface HostDirectory {
  /** The owner of a verified host; null for the main host, an unknown host, or when no BASE_DOMAIN is set. */
  ownerOf(hostname: string): Promise<HostOwner | null>;
  /** The subdomain name an owner claimed (the `{name}` of `{name}.{BASE_DOMAIN}`), or null. */
  subdomainOf(ownerId: string): Promise<string | null>;
  /**
   * Claims (or with null releases) the owner's subdomain name. Throws AppError VALIDATION_FAILED for a malformed
   * or reserved name or when no BASE_DOMAIN is set, HOST_TAKEN when another owner has it.
   */
  claimSubdomain(ownerId: string, name: string | null): Promise<void>;
}

/** Used until hosts are configured: every host is the main one, and no name can be claimed. */
export const MAIN_HOST_ONLY: HostDirectory = {
  ownerOf: async () => null,
  subdomainOf: async () => null,
  claimSubdomain: async () => {
    const { AppError } = await import('./app-error.js');
    throw new AppError(
      'VALIDATION_FAILED',
      'Subdomains are not enabled on this server (BASE_DOMAIN is not set).',
      {
        details: { field: 'subdomainName' },
      },
    );
  },
};

/**
 * Whether `owner` (an account, or a team's member) belongs to the verified host a request came to: only then does
 * what they make there (a transfer, a request, an upload into their inbox) keep that host for its links and mails.
 * A transfer made on another owner's host goes out on the main host, so no one's branding dresses a stranger's files.
 */
export function belongsToHost(
  served: Pick<HostOwner, 'ownerId'> | null | undefined,
  owner: { id: string; managerId: string | null } | null | undefined,
): boolean {
  return !!served && !!owner && (owner.managerId ?? owner.id) === served.ownerId;
}
