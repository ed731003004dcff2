import {
  DEFAULT_TEAM_AUTH_POLICY,
  emailInDomains,
  TeamAuthPolicy,
  type TeamAuthPolicyResponse,
} from '@ferry/core';
import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { SecurityLog } from './security-log.js';
import { permissionsOf } from './user.service.js';

/** The key of the manager's settings (users.settings jsonb) the team's authentication policy is kept under. */
const KEY = 'teamAuthPolicy';

/** The authentication policy a manager's account carries (the defaults when none was saved). */
export function teamAuthPolicyOf(manager: Pick<UserRecord, 'settings'>): TeamAuthPolicy {
  const stored = TeamAuthPolicy.partial().safeParse((manager.settings as Record<string, unknown>)[KEY] ?? {});
  return { ...DEFAULT_TEAM_AUTH_POLICY, ...(stored.success ? stored.data : {}) };
}

/** The names of the top-level fields that differ between two settings objects (for policy-changed events). */
export function changedKeys<T extends object>(before: T, after: T): string[] {
  return (Object.keys(after) as (keyof T)[])
    .filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]))
    .map(String);
}

/**
 * Refuses a sign-in of a team member that the team's policy does not allow: a method outside signInMethods
 * (SIGN_IN_METHOD_NOT_ALLOWED); a password sign-in without a second factor when one is required is the caller's
 * to answer (see AuthService.signIn), so this only says whether it is. A manager is never refused: nobody
 * else could change the policy back.
 */
export function checkSignInAllowed(
  user: Pick<UserRecord, 'managerId'>,
  manager: Pick<UserRecord, 'settings'> | null,
  method: string,
): void {
  if (!user.managerId || !manager) return;
  const { signInMethods } = teamAuthPolicyOf(manager);
  if (signInMethods && !signInMethods.includes(method))
    throw new AppError('SIGN_IN_METHOD_NOT_ALLOWED', 'Your team does not allow signing in this way.', {
      details: { method, allowed: signInMethods },
    });
}

/** True when the member (not the manager) must have a second factor for a password sign-in. */
export function secondFactorRequired(
  user: Pick<UserRecord, 'managerId'>,
  manager: Pick<UserRecord, 'settings'> | null,
): boolean {
  return user.managerId !== null && manager !== null && teamAuthPolicyOf(manager).requireSecondFactor;
}

/**
 * A team's authentication policy (/dashboard/admin/authentication): read and changed by the manager and by
 * members with USER_MANAGER; enforced at sign-in (AuthService) and when members join (memberEmailAllowed).
 */
export class TeamPolicyService {
  constructor(
    private readonly accounts: PgAccountRepository,
    private readonly securityLog: SecurityLog,
    /** "password" and the id of each configured OpenID Connect provider. */
    private readonly availableMethods: readonly string[],
  ) {}

  /**
   * Whether `email` may be a member of team `teamId` (invitations and joins call this before adding anyone).
   * An unknown team allows nothing.
   */
  async memberEmailAllowed(teamId: string, email: string): Promise<boolean> {
    const manager = await this.accounts.user(teamId);
    if (!manager || manager.managerId) return false;
    return emailInDomains(email, teamAuthPolicyOf(manager).allowedEmailDomains);
  }

  /** Throws EMAIL_DOMAIN_NOT_ALLOWED when memberEmailAllowed says no. */
  async checkMemberEmail(teamId: string, email: string): Promise<void> {
    if (await this.memberEmailAllowed(teamId, email)) return;
    const manager = await this.accounts.user(teamId);
    throw new AppError('EMAIL_DOMAIN_NOT_ALLOWED', 'This address is outside the domains your team allows.', {
      details: { allowedDomains: manager ? teamAuthPolicyOf(manager).allowedEmailDomains : [] },
    });
  }

  async get(auth: Authenticated | null, teamId: string): Promise<TeamAuthPolicyResponse> {
    const manager = await this.administered(auth, teamId);
    return { policy: teamAuthPolicyOf(manager), availableMethods: [...this.availableMethods] };
  }

  async put(
    auth: Authenticated | null,
    teamId: string,
    input: unknown,
    ctx: { ip?: string | null; userAgent?: string | null } = {},
  ): Promise<TeamAuthPolicyResponse> {
    const policy = TeamAuthPolicy.parse(input);
    const manager = await this.administered(auth, teamId);
    const unknown = (policy.signInMethods ?? []).filter((m) => !this.availableMethods.includes(m));
    if (unknown.length > 0)
      throw new AppError('VALIDATION_FAILED', 'These sign-in methods are not offered here.', {
        details: { field: 'signInMethods', unknown },
      });
    const before = teamAuthPolicyOf(manager);
    const normalized: TeamAuthPolicy = {
      ...policy,
      allowedEmailDomains: [...new Set(policy.allowedEmailDomains)],
      signInMethods: policy.signInMethods ? [...new Set(policy.signInMethods)] : null,
    };
    await this.accounts.setProfile(manager.id, undefined, { ...manager.settings, [KEY]: normalized });
    const changed = changedKeys(before, normalized);
    if (changed.length > 0)
      await this.securityLog.record({
        userId: manager.id,
        action: 'policy-changed',
        actorUserId: auth!.user.id,
        tokenId: auth!.tokenId,
        ip: ctx.ip ?? null,
        userAgent: ctx.userAgent ?? null,
        target: 'authentication',
        details: { policy: 'authentication', changed },
      });
    return { policy: normalized, availableMethods: [...this.availableMethods] };
  }

  /** The team's manager, when the caller is it or a member of it with USER_MANAGER; else 404 (403 for members). */
  private async administered(auth: Authenticated | null, teamId: string): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const caller = auth.user;
    if (caller.id !== teamId && caller.managerId !== teamId) throw new AppError('NOT_FOUND', 'No such team.');
    const manager = caller.id === teamId ? caller : await this.accounts.user(teamId);
    if (!manager || manager.managerId) throw new AppError('NOT_FOUND', 'No such team.');
    if (caller.id !== manager.id && !permissionsOf(caller).includes('USER_MANAGER'))
      throw new AppError('FORBIDDEN', "Only the team's manager or a user manager can do this.");
    return manager;
  }
}
