import { formatSize } from '@ferry/core';
import { FerryApiError, FerryIntegrityError, FerryProtocolError } from '../errors.js';
import { errorCodes, isNetworkError } from '../retry.js';
import { UnsafePathError } from '../safe-path.js';
import { localTime } from './transfer-input.js';

/** Exit codes of `ferry`: a contract, scripts depend on them. */
export const ExitCode = {
  OK: 0,
  ERROR: 1,
  /**
   * A credential is wrong or missing: the transfer's password, the sender's e-mail verification code, or the
   * downloader's e-mail address a transfer asks for; signing in failed (wrong e-mail or password, a second
   * factor needed without a terminal, address not confirmed, API token refused); or the stored session has
   * ended (revoked or expired: run `ferry login`).
   */
  PASSWORD: 2,
  /** The same code as PASSWORD, by the name the sign-in commands use. */
  CREDENTIAL: 2,
  /** Transfer (or file) not found, expired or disabled. */
  NOT_FOUND: 3,
  /** The transfer's download limit is reached. */
  DOWNLOAD_LIMIT: 4,
  /** The transfer is for sale and no purchase unlocks it: the message says where to buy it. */
  PAYMENT_REQUIRED: 5,
  /** The transfer opens later (its sender's availability date): the message says when, in local time. */
  NOT_YET_AVAILABLE: 6,
  /** Stopped by Ctrl-C (128 + SIGINT). */
  INTERRUPTED: 130,
} as const;

const PASSWORD_CODES = [
  'PASSWORD_REQUIRED',
  'WRONG_PASSWORD',
  'WRONG_VERIFICATION_CODE',
  'VERIFICATION_CODE_EXPIRED',
  'DOWNLOADER_EMAIL_REQUIRED',
  'INVALID_CREDENTIALS',
  'SECOND_FACTOR_REQUIRED',
  'EMAIL_NOT_VERIFIED',
  'INVALID_TOKEN',
];
const NOT_FOUND_CODES = ['TRANSFER_NOT_FOUND', 'FILE_NOT_FOUND', 'TRANSFER_EXPIRED', 'TRANSFER_DISABLED'];

/** An error of the CLI itself, with the exit code it ends with. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    readonly exitCode: number = ExitCode.ERROR,
  ) {
    super(message);
  }
}

/** The exit code an error ends `ferry` with. */
export function exitCodeFor(error: unknown): number {
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof FerryApiError) {
    if (error.codes.some((c) => PASSWORD_CODES.includes(c))) return ExitCode.PASSWORD;
    if (error.codes.some((c) => NOT_FOUND_CODES.includes(c))) return ExitCode.NOT_FOUND;
    if (error.has('TOO_MANY_DOWNLOADS')) return ExitCode.DOWNLOAD_LIMIT;
    if (error.has('PAYMENT_REQUIRED')) return ExitCode.PAYMENT_REQUIRED;
    if (error.has('NOT_YET_AVAILABLE')) return ExitCode.NOT_YET_AVAILABLE;
  }
  return ExitCode.ERROR;
}

const CODE_MESSAGES: Record<string, string> = {
  PASSWORD_REQUIRED: 'this transfer is password protected; pass --password',
  WRONG_PASSWORD: 'wrong password',
  WRONG_VERIFICATION_CODE: 'wrong verification code',
  VERIFICATION_CODE_EXPIRED: 'the verification code has expired',
  DOWNLOADER_EMAIL_REQUIRED: 'this transfer asks for your e-mail address before downloading; pass --email',
  TRANSFER_NOT_FOUND: 'transfer not found (check the link)',
  FILE_NOT_FOUND: 'file not found in this transfer',
  TRANSFER_EXPIRED: 'this transfer has expired',
  TRANSFER_DISABLED: 'this transfer has been disabled or deleted by its owner',
  TOO_MANY_DOWNLOADS: 'this transfer has reached its download limit',
  TOO_MANY_PREVIEWS: 'this transfer has reached its preview limit',
  PREVIEW_NOT_AVAILABLE: 'no preview is available for this file; download it instead',
  INVALID_CREDENTIALS: 'wrong e-mail address or password',
  SECOND_FACTOR_REQUIRED: 'this account asks for a second factor (a code from your authenticator app)',
  EMAIL_NOT_VERIFIED:
    'your e-mail address is not confirmed yet: check your inbox for the confirmation link, then sign in again',
  INVALID_TOKEN: 'the server refused the token (revoked, expired or mistyped)',
  USER_NOT_FOUND: 'the server has no active account for this sign-in; you stay signed out',
  ACCOUNT_SUSPENDED:
    "the account is suspended by this server's operators: its sign-in and its transfers are refused until they lift it",
  MAX_LICENCES_REACHED: 'your team has no licence left for you: ask its manager for one; you stay signed out',
};

function describeApiError(error: FerryApiError): string {
  if (error.status === 429 || error.has('RATE_LIMITED')) {
    const wait = error.retryAfterSeconds;
    return `rate limited by the server: wait ${wait === undefined ? 'a few minutes' : `${wait} s`} and try again`;
  }
  if (error.has('PAYMENT_REQUIRED')) {
    const payUrl = typeof error.details?.payUrl === 'string' ? error.details.payUrl : null;
    const price = error.details?.price as { amount?: unknown; currency?: unknown } | undefined;
    const cost =
      typeof price?.amount === 'number' && typeof price.currency === 'string'
        ? ` (${(price.amount / 100).toFixed(2)} ${price.currency} before VAT)`
        : '';
    return `these files are for sale${cost}: buy them at ${payUrl ?? "the link's page in a browser"}, then run ferry get with the personal link you are mailed`;
  }
  if (error.has('NOT_YET_AVAILABLE')) {
    const at =
      typeof error.details?.availableFrom === 'string' ? new Date(error.details.availableFrom) : null;
    return at && !Number.isNaN(at.getTime())
      ? `this transfer is not available yet: it opens on ${localTime(at)} local time (${at.toISOString()})`
      : 'this transfer is not available yet: its sender chose a later opening date';
  }
  if (error.has('CUSTOM_LINK_TAKEN')) return 'this custom link is taken: choose another one';
  for (const code of error.codes) {
    const known = CODE_MESSAGES[code];
    if (known) return known;
  }
  const pending = error.limitErrors.find((l) => l.limit === 'anonymousPendingBytes');
  if (pending)
    return `too many unfinished anonymous uploads from this address (${formatSize(pending.actual)} declared, at most ${formatSize(pending.max)}): finish or wait for them, or sign in with \`ferry login\``;
  if (error.limitErrors.length > 0) {
    const limits = error.limitErrors.map((l) => `${l.limit}: ${l.actual} > max ${l.max}`).join(', ');
    return `${error.message} (${limits})`;
  }
  const codes = error.codes.length > 0 ? ` [${error.codes.join(', ')}]` : '';
  return `server answered ${error.status}: ${error.message}${codes}`;
}

/** One line (no stack) that tells the user what went wrong. */
export function describeError(error: unknown, server?: string): string {
  if (error instanceof FerryApiError) return describeApiError(error);
  if (error instanceof CliError || error instanceof FerryProtocolError) return error.message;
  if (error instanceof FerryIntegrityError || error instanceof UnsafePathError) return error.message;
  if (isNetworkError(error)) {
    const code = errorCodes(error)[0];
    return `cannot reach ${server ?? 'the server'}${code ? ` (${code})` : ''}`;
  }
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    const path = (error as NodeJS.ErrnoException).path;
    if (code === 'ENOENT' && path) return `${path}: no such file or directory`;
    if (code === 'EACCES' && path) return `${path}: permission denied`;
    return error.message.split('\n')[0] ?? String(error);
  }
  return String(error);
}
