import {
  SECURITY_LOG_RETENTION_DAYS,
  type SecurityLogEntry,
  SecurityLogExportQuery,
  type SecurityLogPage,
  SecurityLogQuery,
  SecurityLogSettings,
} from '@ferry/core';
import type { PgSecurityLogRepository, SecurityLogFilter } from '../db/security-log.repository.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { SecurityLog } from './security-log.js';
import { permissionsOf } from './user.service.js';

const DAY_MS = 86_400_000;
const EXPORT_BATCH = 1000;
const CSV_COLUMNS = ['at', 'actor', 'action', 'ip', 'userAgent', 'target', 'details'] as const;

/** A cell as RFC 4180 writes it, and never read as a formula by a spreadsheet (a leading = + - @ gets a '). */
export function csvCell(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(entry: SecurityLogEntry): string {
  const cells = CSV_COLUMNS.map((c) =>
    c === 'details' ? JSON.stringify(entry.details) : (entry[c] as string | null),
  );
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function dayStart(text: string): Date {
  return new Date(/^\d{4}-\d{2}-\d{2}$/.test(text) ? `${text}T00:00:00Z` : text);
}

/** `to` as an exclusive bound: a day counts whole. */
function dayEnd(text: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(text)
    ? new Date(Date.parse(`${text}T00:00:00Z`) + DAY_MS)
    : new Date(new Date(text).getTime() + 1);
}

/**
 * The reading side of a team's security log (/dashboard/admin/security-logs, `ferry team logs`): listing,
 * export, retention. For the team's manager and its members with USER_MANAGER; anyone else learns nothing (404).
 */
export class SecurityLogAdminService {
  constructor(
    private readonly repo: PgSecurityLogRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private security: SecurityLog | null = null;

  /** A change of the retention is itself logged (policy-changed). */
  recordSecurity(log: SecurityLog): void {
    this.security = log;
  }

  private authorize(auth: Authenticated | null, teamId: string): Authenticated {
    if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
    const { user } = auth;
    const manager = user.id === teamId && !user.managerId;
    const userManager = user.managerId === teamId && permissionsOf(user).includes('USER_MANAGER');
    if (!manager && !userManager) throw new AppError('NOT_FOUND', 'No such team.');
    return auth;
  }

  private filterOf(
    teamId: string,
    query: ReturnType<typeof SecurityLogExportQuery.parse>,
  ): SecurityLogFilter {
    return {
      teamId,
      member: query.member,
      action: query.action,
      from: query.from ? dayStart(query.from) : undefined,
      to: query.to ? dayEnd(query.to) : undefined,
      q: query.q,
    };
  }

  async list(auth: Authenticated | null, teamId: string, rawQuery: unknown): Promise<SecurityLogPage> {
    this.authorize(auth, teamId);
    const query = SecurityLogQuery.parse(rawQuery);
    const filter = {
      ...this.filterOf(teamId, { ...query, format: 'json' }),
      before: query.cursor ? Number(query.cursor) : undefined,
    };
    const rows = await this.repo.list(filter, query.limit + 1);
    const entries = rows.slice(0, query.limit);
    return {
      entries,
      nextCursor: rows.length > query.limit ? String(entries[entries.length - 1]!.id) : null,
    };
  }

  /** Checks the caller and the query at once (before any byte is sent), then yields the file in pieces. */
  async export(
    auth: Authenticated | null,
    teamId: string,
    rawQuery: unknown,
  ): Promise<{ format: 'csv' | 'json'; fileName: string; chunks: AsyncIterable<string> }> {
    this.authorize(auth, teamId);
    const query = SecurityLogExportQuery.parse(rawQuery);
    const filter = this.filterOf(teamId, query);
    const repo = this.repo;
    const day = this.now().toISOString().slice(0, 10);
    async function* entries(): AsyncGenerator<SecurityLogEntry> {
      let before: number | undefined;
      for (;;) {
        const batch = await repo.list({ ...filter, before }, EXPORT_BATCH);
        yield* batch;
        if (batch.length < EXPORT_BATCH) return;
        before = batch[batch.length - 1]!.id;
      }
    }
    async function* csv(): AsyncGenerator<string> {
      yield `${CSV_COLUMNS.join(',')}\r\n`;
      for await (const entry of entries()) yield csvLine(entry);
    }
    async function* json(): AsyncGenerator<string> {
      yield '[';
      let first = true;
      for await (const entry of entries()) {
        yield `${first ? '' : ','}\n${JSON.stringify(entry)}`;
        first = false;
      }
      yield '\n]\n';
    }
    return {
      format: query.format,
      fileName: `security-log-${day}.${query.format}`,
      chunks: query.format === 'csv' ? csv() : json(),
    };
  }

  async settings(auth: Authenticated | null, teamId: string): Promise<SecurityLogSettings> {
    this.authorize(auth, teamId);
    return {
      retentionDays: (await this.repo.retentionDays(teamId)) ?? SECURITY_LOG_RETENTION_DAYS.default,
    };
  }

  async updateSettings(
    auth: Authenticated | null,
    teamId: string,
    input: unknown,
  ): Promise<SecurityLogSettings> {
    const caller = this.authorize(auth, teamId);
    const settings = SecurityLogSettings.parse(input);
    const before = (await this.repo.retentionDays(teamId)) ?? SECURITY_LOG_RETENTION_DAYS.default;
    await this.repo.setRetentionDays(teamId, settings.retentionDays);
    if (before !== settings.retentionDays)
      await this.security?.record({
        userId: teamId,
        action: 'policy-changed',
        actorUserId: caller.user.id,
        tokenId: caller.tokenId,
        target: 'security-log-retention',
        details: { retentionDays: settings.retentionDays, was: before },
      });
    return settings;
  }

  /** The daily job: every team's entries older than its retention go. */
  async purge(): Promise<number> {
    return this.repo.purge(this.now(), SECURITY_LOG_RETENTION_DAYS.default);
  }
}
