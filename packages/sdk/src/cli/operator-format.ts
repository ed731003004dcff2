import { formatSize, type OperatorInvoice, type OperatorUser, PLAN_CODES } from '@ferry/core';
import { InvalidArgumentError } from 'commander';
import { printable } from './transfer-format.js';

/** How the `ferry operator` commands read their arguments and print what the server answered: no I/O. */

/** What `ferry operator users --json` prints of each account. */
export function userJson(u: OperatorUser) {
  return {
    uid: u.uid,
    email: u.email,
    planType: u.planType,
    planCode: u.planCode,
    planEndsAt: u.planEndsAt,
    suspended: u.suspended,
  };
}

/** What `ferry operator invoices --json` prints of each invoice. */
export function invoiceJson(i: OperatorInvoice) {
  return {
    number: i.number,
    email: i.email,
    amountDue: i.amountDue,
    currency: i.currency,
    status: i.status,
    issuedAt: i.issuedAt,
  };
}

/** A plan code of spec §3, or NONE (ends the plan); any case. */
export function planCodeArgument(value: string): (typeof PLAN_CODES)[number] | 'NONE' {
  const code = value.trim().toUpperCase();
  if (code === 'NONE' || (PLAN_CODES as readonly string[]).includes(code))
    return code as (typeof PLAN_CODES)[number] | 'NONE';
  throw new InvalidArgumentError(`expected one of ${[...PLAN_CODES, 'NONE'].join(', ')}.`);
}

/** A calendar day as YYYY-MM-DD that exists (2026-02-30 does not). */
export function dayArgument(value: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (m) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const date = new Date(Date.UTC(year, month - 1, day));
    if (date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day)
      return m[0];
  }
  throw new InvalidArgumentError('expected a day as YYYY-MM-DD, e.g. 2026-12-31.');
}

/** An amount in minor units (cents) with its currency: 1250 EUR → "12.50 EUR". */
export function formatAmount(minor: number, currency: string): string {
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(minor);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')} ${currency}`;
}

/** A table: a header, then rows, columns two spaces apart, those in `right` aligned to the right. */
function table(columns: readonly string[], rows: string[][], right: ReadonlySet<string>): string {
  const all = [[...columns], ...rows];
  const widths = columns.map((_, i) => Math.max(...all.map((r) => Array.from(r[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - Array.from(cell).length);
        return right.has(columns[i]!) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return `${all.map(line).join('\n')}\n`;
}

const day = (iso: string | null) => (iso ? iso.slice(0, 10) : '-');

/** `ferry operator users` on a terminal: address, plan, code, plan end (UTC day), storage, last sign-in, state. */
export function formatUserTable(users: readonly OperatorUser[]): string {
  return table(
    ['EMAIL', 'PLAN', 'CODE', 'ENDS', 'STORAGE', 'LAST SIGN-IN', 'STATE'],
    users.map((u) => [
      printable(u.email),
      u.planType,
      u.planCode ?? '-',
      day(u.planEndsAt),
      formatSize(u.storageUsed),
      day(u.lastLoginAt),
      u.suspended ? 'suspended' : u.emailVerified ? 'active' : 'unverified',
    ]),
    new Set(['STORAGE']),
  );
}

/**
 * `ferry operator users` for scripts: one tab-separated line per account — uid, e-mail, plan type, plan code ("-"),
 * plan end (ISO 8601 or "-"), storage used in bytes, "suspended" or "active".
 */
export function formatUserLines(users: readonly OperatorUser[]): string {
  return users
    .map(
      (u) =>
        `${[
          u.uid,
          printable(u.email),
          u.planType,
          u.planCode ?? '-',
          u.planEndsAt ?? '-',
          String(u.storageUsed),
          u.suspended ? 'suspended' : 'active',
        ].join('\t')}\n`,
    )
    .join('');
}

/** `ferry operator invoices` on a terminal: number, address, amount due, status, provider, issue day. */
export function formatInvoiceTable(invoices: readonly OperatorInvoice[]): string {
  return table(
    ['NUMBER', 'EMAIL', 'DUE', 'STATUS', 'PROVIDER', 'ISSUED'],
    invoices.map((i) => [
      printable(i.number),
      printable(i.email),
      formatAmount(i.amountDue, i.currency),
      i.status,
      i.provider,
      day(i.issuedAt),
    ]),
    new Set(['DUE']),
  );
}

/**
 * `ferry operator invoices` for scripts: number, e-mail, amount due in minor units, currency, status, issued at
 * (ISO 8601), tab-separated.
 */
export function formatInvoiceLines(invoices: readonly OperatorInvoice[]): string {
  return invoices
    .map(
      (i) =>
        `${[printable(i.number), printable(i.email), String(i.amountDue), i.currency, i.status, i.issuedAt].join('\t')}\n`,
    )
    .join('');
}

/** One line saying what an account's plan is now: "ann@example.com: PREMIUM (PREMIUM_2TB) until 2026-12-31". */
export function describePlan(u: OperatorUser): string {
  const code = u.planCode && u.planCode !== u.planType ? ` (${u.planCode})` : '';
  const seats = u.licences !== null ? `, ${u.licences} seats` : '';
  const until = u.planEndsAt ? ` until ${u.planEndsAt.slice(0, 10)}` : '';
  return `${printable(u.email)}: ${u.planType}${code}${seats}${until}`;
}
