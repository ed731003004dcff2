import type { PgAccountRepository, UserRecord } from '../db/account.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { permissionsOf } from './user.service.js';

/**
 * Who pays for a caller (spec §6 BILLING): their team's manager for a team member holding BILLING, else the
 * account itself. A member without BILLING may not act on the team's subscription.
 */
export class BillingAccounts {
  constructor(private readonly accounts: Pick<PgAccountRepository, 'user'>) {}

  /** The paying account the caller acts for; 401 signed out, 403 a team member without BILLING. */
  async payerOf(auth: Authenticated | null): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const user = auth.user;
    if (!user.managerId) return user;
    if (!permissionsOf(user).includes('BILLING'))
      throw new AppError('FORBIDDEN', "Only your team's manager or a member with BILLING can do this.");
    const manager = await this.accounts.user(user.managerId);
    if (!manager) throw new AppError('NOT_FOUND', 'No such account.');
    return manager;
  }

  /**
   * GET /pay/customers/{managerId}…: the paying account `managerId` when the caller is it or holds BILLING in
   * its team; 404 otherwise, whether or not it exists.
   */
  async readable(auth: Authenticated | null, managerId: string): Promise<UserRecord> {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const user = auth.user;
    const own = user.managerId ?? user.id;
    if (managerId !== own || (user.managerId && !permissionsOf(user).includes('BILLING')))
      throw new AppError('NOT_FOUND', 'No such customer.');
    const payer = user.managerId ? await this.accounts.user(managerId) : user;
    if (!payer) throw new AppError('NOT_FOUND', 'No such customer.');
    return payer;
  }
}
