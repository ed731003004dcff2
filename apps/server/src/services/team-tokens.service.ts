import {
  type ApiTokenCreated,
  ApiTokenCreateRequest,
  type ApiTokenInfo,
  DEFAULT_API_TOKEN_SCOPES,
} from '@ferry/core';
import type { PgAccountRepository } from '../db/account.repository.js';
import { AppError } from './app-error.js';
import { type Authenticated, mintApiToken, notByApiToken, tokenInfo } from './auth.service.js';
import type { SecurityLog } from './security-log.js';

/** Who made a team token change, for the security log. */
export interface TeamTokenContext {
  ip?: string | null;
  userAgent?: string | null;
}

/**
 * Team tokens (/dashboard/admin/api): `fry_` tokens a team's manager makes for the team's scripts. A team token acts
 * as the team's account (the manager's: the team's transfers, members and settings, within its scopes and daily
 * quota), is shown once, stored hashed, listed with its last use and revocable — and the security log names it, not
 * the manager. Only the manager, signed in (no token makes tokens), of a team plan: anyone else learns nothing of the
 * team (404), and its members are told the page is the manager's (403).
 */
export class TeamTokenService {
  private security: SecurityLog | null = null;

  constructor(
    private readonly accounts: Pick<PgAccountRepository, 'tokens' | 'createToken' | 'revokeToken'>,
  ) {}

  recordSecurity(log: SecurityLog): void {
    this.security = log;
  }

  async list(auth: Authenticated | null, teamId: string): Promise<ApiTokenInfo[]> {
    const manager = managerOf(auth, teamId);
    return (await this.accounts.tokens(manager, true)).map(tokenInfo);
  }

  async create(
    auth: Authenticated | null,
    teamId: string,
    input: ApiTokenCreateRequest,
    ctx: TeamTokenContext = {},
  ): Promise<ApiTokenCreated> {
    const manager = managerOf(auth, teamId);
    const request = ApiTokenCreateRequest.parse(input);
    const { token, ...minted } = mintApiToken();
    const record = await this.accounts.createToken({
      ...minted,
      userId: manager,
      name: request.name,
      scopes: request.scopes ?? DEFAULT_API_TOKEN_SCOPES,
      team: true,
      createdBy: auth!.user.id,
    });
    await this.security?.record({
      userId: manager,
      action: 'api-key-created',
      actorUserId: auth!.user.id,
      ip: ctx.ip ?? null,
      userAgent: ctx.userAgent ?? null,
      target: record.name,
      details: { tokenId: record.id, scopes: record.scopes, team: true },
    });
    return { ...tokenInfo(record), token };
  }

  async revoke(
    auth: Authenticated | null,
    teamId: string,
    id: string,
    ctx: TeamTokenContext = {},
  ): Promise<void> {
    const manager = managerOf(auth, teamId);
    const token = (await this.accounts.tokens(manager, true)).find((t) => t.id === id);
    if (!token || !(await this.accounts.revokeToken(manager, id, true)))
      throw new AppError('NOT_FOUND', 'No such team token.');
    await this.security?.record({
      userId: manager,
      action: 'api-key-revoked',
      actorUserId: auth!.user.id,
      ip: ctx.ip ?? null,
      userAgent: ctx.userAgent ?? null,
      target: token.name,
      details: { tokenId: id, team: true },
    });
  }
}

/** The team's id when the caller is its manager, signed in, on a team plan; else 404 (403 for its members). */
function managerOf(auth: Authenticated | null, teamId: string): string {
  if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
  const caller = auth.user;
  if (caller.managerId === teamId)
    throw new AppError('FORBIDDEN', "Team tokens are made and revoked by the team's manager.");
  if (caller.id !== teamId || caller.managerId !== null || !['TEAM', 'ENTERPRISE'].includes(auth.planType))
    throw new AppError('NOT_FOUND', 'No such team.');
  notByApiToken(auth);
  return caller.id;
}
