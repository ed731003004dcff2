import {
  type InstanceFigures,
  type OperatorAction,
  type OperatorUser,
  type OperatorUserList,
  OperatorUsersQuery,
} from '@ferry/core';
import { z } from 'zod';
import type { OperatorUserRecord, PgOperatorRepository, UserCursor } from '../db/operator.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { OperatorAccess } from './operator-access.js';
import type { TransferRepository } from './ports.js';

const ActionsQuery = z.object({ cursor: z.string().max(20).optional() });
const WEEK_MS = 7 * 86_400_000;
const ACTIONS_PAGE = 50;

/** What the operator figures and the users' storage are read from: the transfers' own accounting. */
export interface TransferTotals extends Pick<TransferRepository, 'storageUsed'> {
  storedTotals(): Promise<{ transfers: number; bytes: number }>;
  allDownloadedBytesSince(since: Date): Promise<number>;
}

/**
 * The operator console's use cases: find accounts, suspend and unsuspend them, the instance's figures and the
 * journal of what operators did. Every method asks OperatorAccess first: to anyone else it is a 404.
 */
export class OperatorService {
  constructor(
    private readonly access: OperatorAccess,
    private readonly repo: PgOperatorRepository,
    private readonly transfers: TransferTotals,
    private readonly now: () => Date = () => new Date(),
  ) {}

  me(auth: Authenticated | null): { operator: true; email: string } {
    const operator = this.access.require(auth);
    return { operator: true, email: operator.user.email };
  }

  async users(auth: Authenticated | null, rawQuery: unknown): Promise<OperatorUserList> {
    this.access.require(auth);
    const query = OperatorUsersQuery.parse(rawQuery);
    const rows = await this.repo.users({
      search: query.search || undefined,
      after: query.cursor ? decodeCursor(query.cursor) : null,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      users: await Promise.all(page.map((u) => this.view(u))),
      nextCursor:
        rows.length > query.limit && last
          ? encodeCursor({ email: last.email.toLowerCase(), id: last.id })
          : null,
    };
  }

  async user(auth: Authenticated | null, uid: string): Promise<OperatorUser> {
    this.access.require(auth);
    return this.view(await this.found(uid));
  }

  /** Suspends an account (never the operator's own): it cannot sign in and its transfers and inboxes stop. */
  async suspend(auth: Authenticated | null, uid: string): Promise<OperatorUser> {
    const operator = this.access.require(auth);
    const user = await this.found(uid);
    if (user.id === operator.user.id)
      throw new AppError('FORBIDDEN', 'An operator cannot suspend their own account.', {
        details: { reason: 'OWN_ACCOUNT' },
      });
    await this.repo.suspend(user.id, this.entry(operator, 'suspend', user));
    return this.view(await this.found(uid));
  }

  async unsuspend(auth: Authenticated | null, uid: string): Promise<OperatorUser> {
    const operator = this.access.require(auth);
    const user = await this.found(uid);
    await this.repo.unsuspend(user.id, this.entry(operator, 'unsuspend', user));
    return this.view(await this.found(uid));
  }

  async figures(auth: Authenticated | null): Promise<InstanceFigures> {
    this.access.require(auth);
    const since = new Date(this.now().getTime() - WEEK_MS);
    const [counts, stored, served] = await Promise.all([
      this.repo.accountCounts(),
      this.transfers.storedTotals(),
      this.transfers.allDownloadedBytesSince(since),
    ]);
    return { ...counts, transfers: stored.transfers, bytesStored: stored.bytes, bytesServed7Days: served };
  }

  async actions(
    auth: Authenticated | null,
    rawQuery: unknown,
  ): Promise<{ actions: OperatorAction[]; nextCursor: string | null }> {
    this.access.require(auth);
    const { cursor } = ActionsQuery.parse(rawQuery ?? {});
    const before = cursor && /^\d{1,15}$/.test(cursor) ? Number(cursor) : undefined;
    if (cursor && before === undefined) throw new AppError('VALIDATION_FAILED', 'Not a cursor of this list.');
    const rows = await this.repo.journal().list({ before, limit: ACTIONS_PAGE + 1 });
    const page = rows.slice(0, ACTIONS_PAGE);
    return {
      actions: page.map((r) => ({
        id: r.id,
        at: r.at.toISOString(),
        operator: r.operatorEmail,
        action: r.action,
        target: r.target,
        details: r.details,
      })),
      nextCursor: rows.length > ACTIONS_PAGE ? String(page.at(-1)!.id) : null,
    };
  }

  private async found(uid: string): Promise<OperatorUserRecord> {
    const user = uid.length > 0 && uid.length <= 100 ? await this.repo.user(uid) : null;
    if (!user) throw new AppError('NOT_FOUND', 'No such account.');
    return user;
  }

  private entry(operator: Authenticated, action: string, user: OperatorUserRecord) {
    return {
      operatorId: operator.user.id,
      operatorEmail: operator.user.email,
      action,
      target: user.email,
      targetUserId: user.id,
      details: {},
    };
  }

  /** A user as the console shows them; storage used as their limits count it (over their team). */
  private async view(u: OperatorUserRecord): Promise<OperatorUser> {
    return {
      uid: u.id,
      email: u.email,
      firstname: u.firstname,
      planType: u.planType,
      planCode: u.planCode,
      planEndsAt: u.planEndsAt?.toISOString() ?? null,
      licences: u.limitSettings?.licences ?? null,
      managerId: u.managerId,
      storageUsed: await this.transfers.storageUsed(u.managerId ?? u.id),
      lastLoginAt: u.lastLoginAt?.toISOString() ?? null,
      createdAt: u.createdAt.toISOString(),
      emailVerified: u.emailVerifiedAt !== null,
      suspended: u.suspendedAt !== null,
      suspendedAt: u.suspendedAt?.toISOString() ?? null,
    };
  }
}

function encodeCursor(cursor: UserCursor): string {
  return Buffer.from(JSON.stringify([cursor.email, cursor.id])).toString('base64url');
}

function decodeCursor(cursor: string): UserCursor {
  try {
    const [email, id] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown[];
    if (typeof email === 'string' && typeof id === 'string') return { email, id };
  } catch {}
  throw new AppError('VALIDATION_FAILED', 'Not a cursor of this list.');
}
