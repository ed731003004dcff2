import { describe, expect, it } from 'vitest';
import { FerryApiError, FerryIntegrityError, parseErrorBody } from '../errors.js';
import { CliError, describeError, ExitCode, exitCodeFor } from './exit-codes.js';

const coded = (status: number, code: string) =>
  parseErrorBody(
    status,
    JSON.stringify({ status, error: 'x', message: `server says ${code}`, codes: [code] }),
  );

describe('exitCodeFor', () => {
  it.each([
    ['PASSWORD_REQUIRED', 401, 2],
    ['WRONG_PASSWORD', 403, 2],
    ['WRONG_VERIFICATION_CODE', 403, 2],
    ['VERIFICATION_CODE_EXPIRED', 403, 2],
    ['DOWNLOADER_EMAIL_REQUIRED', 401, 2],
    ['INVALID_CREDENTIALS', 401, 2],
    ['SECOND_FACTOR_REQUIRED', 401, 2],
    ['EMAIL_NOT_VERIFIED', 403, 2],
    ['INVALID_TOKEN', 401, 2],
    ['USER_NOT_FOUND', 400, 1],
    ['MAX_LICENCES_REACHED', 400, 1],
    ['UNAUTHORIZED', 401, 1],
    ['TRANSFER_NOT_FOUND', 404, 3],
    ['FILE_NOT_FOUND', 404, 3],
    ['TRANSFER_EXPIRED', 410, 3],
    ['TRANSFER_DISABLED', 410, 3],
    ['TOO_MANY_DOWNLOADS', 403, 4],
    ['PAYMENT_REQUIRED', 402, 5],
    ['NOT_YET_AVAILABLE', 403, 6],
    ['RATE_LIMITED', 429, 1],
    ['LIMIT_EXCEEDED', 400, 1],
    ['CHECKSUM_MISMATCH', 422, 1],
    ['FORBIDDEN', 403, 1],
  ])('maps %s (%i) to %i', (code, status, exit) => {
    expect(exitCodeFor(coded(status, code))).toBe(exit);
  });

  it('branches on codes, not on the status alone', () => {
    expect(exitCodeFor(parseErrorBody(404, 'no such route'))).toBe(ExitCode.ERROR);
    expect(exitCodeFor(parseErrorBody(401, ''))).toBe(ExitCode.ERROR);
  });

  it('uses the exit code of a CliError, and 1 for anything else', () => {
    expect(exitCodeFor(new CliError('locked', ExitCode.PASSWORD))).toBe(2);
    expect(exitCodeFor(new FerryIntegrityError('bad', 'f', 'a', 'b'))).toBe(1);
    expect(exitCodeFor(new Error('boom'))).toBe(1);
    expect(exitCodeFor('weird')).toBe(1);
  });
});

describe('describeError', () => {
  it('tells to wait when rate limited, with Retry-After when given', () => {
    const error = parseErrorBody(429, '{"status":429,"error":"Too Many Requests","codes":["RATE_LIMITED"]}', {
      get: (h) => (h === 'retry-after' ? '30' : null),
    });
    expect(describeError(error)).toBe('rate limited by the server: wait 30 s and try again');
    expect(describeError(parseErrorBody(429, ''))).toContain('wait a few minutes');
  });

  it('explains the contract codes in plain words', () => {
    expect(describeError(coded(410, 'TRANSFER_EXPIRED'))).toBe('this transfer has expired');
    expect(describeError(coded(403, 'TOO_MANY_DOWNLOADS'))).toBe(
      'this transfer has reached its download limit',
    );
  });

  it('says when a transfer not available yet opens, in local time and as an instant', () => {
    const saved = process.env.TZ;
    process.env.TZ = 'Europe/Paris';
    try {
      const error = parseErrorBody(
        403,
        JSON.stringify({
          status: 403,
          error: 'x',
          message: 'later',
          codes: ['NOT_YET_AVAILABLE'],
          details: { availableFrom: '2030-04-01T07:00:00.000Z' },
        }),
      );
      expect(exitCodeFor(error)).toBe(ExitCode.NOT_YET_AVAILABLE);
      expect(describeError(error)).toBe(
        'this transfer is not available yet: it opens on 2030-04-01 09:00 local time (2030-04-01T07:00:00.000Z)',
      );
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
  });

  it('says where to buy a transfer on sale, with its price', () => {
    const error = parseErrorBody(
      402,
      JSON.stringify({
        status: 402,
        error: 'x',
        message: 'for sale',
        codes: ['PAYMENT_REQUIRED'],
        details: {
          payUrl: 'https://ferry.example/dl/AbCdEfGh12345678#buy',
          price: { amount: 1250, currency: 'EUR' },
        },
      }),
    );
    expect(exitCodeFor(error)).toBe(ExitCode.PAYMENT_REQUIRED);
    expect(describeError(error)).toBe(
      'these files are for sale (12.50 EUR before VAT): buy them at https://ferry.example/dl/AbCdEfGh12345678#buy, then run ferry get with the personal link you are mailed',
    );
  });

  it('explains the sign-in codes', () => {
    expect(describeError(coded(401, 'INVALID_CREDENTIALS'))).toBe('wrong e-mail address or password');
    expect(describeError(coded(403, 'EMAIL_NOT_VERIFIED'))).toContain('check your inbox');
    expect(describeError(coded(400, 'MAX_LICENCES_REACHED'))).toContain('you stay signed out');
    expect(describeError(coded(403, 'ACCOUNT_SUSPENDED'))).toContain("suspended by this server's operators");
    expect(exitCodeFor(coded(403, 'ACCOUNT_SUSPENDED'))).toBe(ExitCode.ERROR);
  });

  it('lists broken limits', () => {
    const error = new FerryApiError({
      kind: 'limit',
      status: 400,
      message: 'Too many files.',
      codes: ['LIMIT_EXCEEDED'],
      limitErrors: [{ limit: 'files', max: 250, actual: 300 }],
    });
    expect(describeError(error)).toBe('Too many files. (files: 300 > max 250)');
  });

  it('explains the cap on unfinished anonymous uploads in sizes, and how to get past it', () => {
    const error = new FerryApiError({
      kind: 'limit',
      status: 400,
      message: 'Too many unfinished uploads.',
      codes: ['LIMIT_EXCEEDED'],
      limitErrors: [{ limit: 'anonymousPendingBytes', max: 20e9, actual: 25e9 }],
    });
    expect(describeError(error)).toBe(
      'too many unfinished anonymous uploads from this address (25.0 GB declared, at most 20.0 GB): finish or wait for them, or sign in with `ferry login`',
    );
  });

  it('names the server when it cannot be reached, on one line', () => {
    const error = new TypeError('fetch failed', {
      cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
    });
    expect(describeError(error, 'http://localhost:1')).toBe('cannot reach http://localhost:1 (ECONNREFUSED)');
    expect(describeError(new Error('first line\n    at stack'))).toBe('first line');
  });
});
