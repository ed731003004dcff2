import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';

/**
 * Operators run the instance: verified, unsuspended accounts whose address is in OPERATOR_EMAILS. To anyone else
 * the operator routes do not exist (404), so they give nothing away.
 */
export class OperatorAccess {
  private readonly emails: ReadonlySet<string>;

  constructor(operatorEmails: readonly string[]) {
    this.emails = new Set(operatorEmails.map((e) => e.toLowerCase()));
  }

  /** Whether anyone can act as an operator at all (automatic holds wait for one to release them). */
  get configured(): boolean {
    return this.emails.size > 0;
  }

  isOperator(auth: Authenticated | null): boolean {
    if (!auth) return false;
    const user = auth.user;
    return (
      user.emailVerifiedAt !== null && user.suspendedAt === null && this.emails.has(user.email.toLowerCase())
    );
  }

  /** The operator behind a request, or 404 NOT_FOUND. */
  require(auth: Authenticated | null): Authenticated {
    if (!auth || !this.isOperator(auth)) throw new AppError('NOT_FOUND', 'Not found');
    return auth;
  }
}
