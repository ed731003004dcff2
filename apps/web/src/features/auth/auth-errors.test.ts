import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, parseApiError } from '../../lib/api';
import { CookieRefusedError } from './auth-context';
import { authProblem, normaliseCode, refusalKey, safeNextPath, signInPath } from './auth-errors';

const codedError = (status: number, code: string, retryAfter: string | null = null) =>
  parseApiError(status, JSON.stringify({ status, error: 'x', message: 'x', codes: [code] }), retryAfter);

describe('authProblem', () => {
  it('sorts the contract codes', () => {
    expect(authProblem(codedError(401, 'INVALID_CREDENTIALS'))).toEqual({ kind: 'invalid_credentials' });
    expect(authProblem(codedError(403, 'EMAIL_NOT_VERIFIED'))).toEqual({ kind: 'email_not_verified' });
    expect(authProblem(codedError(401, 'SECOND_FACTOR_REQUIRED'))).toEqual({ kind: 'second_factor' });
    expect(authProblem(codedError(400, 'USER_NOT_FOUND'))).toEqual({
      kind: 'refused',
      code: 'USER_NOT_FOUND',
    });
    expect(authProblem(codedError(400, 'MAX_LICENCES_REACHED'))).toEqual({
      kind: 'refused',
      code: 'MAX_LICENCES_REACHED',
    });
    expect(authProblem(codedError(401, 'INVALID_TOKEN'))).toEqual({ kind: 'invalid_token' });
  });

  it('keeps the wait of a 429, with or without the code', () => {
    expect(authProblem(codedError(429, 'RATE_LIMITED', '42'))).toEqual({
      kind: 'rate_limited',
      retryAfterSeconds: 42,
    });
    expect(authProblem(parseApiError(429, ''))).toEqual({ kind: 'rate_limited', retryAfterSeconds: null });
  });

  it('leaves anything else to describeError', () => {
    const network = new NetworkError(new TypeError('offline'));
    expect(authProblem(network)).toEqual({ kind: 'other', error: network });
    const server = new ApiError({ kind: 'generic', status: 500, message: 'boom' });
    expect(authProblem(server)).toEqual({ kind: 'other', error: server });
    expect(authProblem(new CookieRefusedError())).toEqual({ kind: 'cookie_refused' });
  });

  it('names each refusal', () => {
    expect(refusalKey('USER_NOT_FOUND')).toBe('auth:refused_user_not_found');
    expect(refusalKey('MAX_LICENCES_REACHED')).toBe('auth:refused_max_licences');
  });
});

describe('safeNextPath', () => {
  it('keeps a path of this site, with its query and hash', () => {
    expect(safeNextPath('/account/security')).toBe('/account/security');
    expect(safeNextPath('/dashboard/transfers?page=2#top')).toBe('/dashboard/transfers?page=2#top');
  });

  it('goes home for anything that could leave the site, or loop back to the auth pages', () => {
    for (const next of [
      null,
      '',
      'account',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/\u0000x',
      '/signin?next=/account',
      '/register',
      '/reset-password?token=x',
      // Dot segments that leave "//evil.example" once the browser resolves them.
      '/.//evil.example',
      '/a/..//evil.example/x',
      '/%2e//evil.example',
    ]) {
      expect(safeNextPath(next), String(next)).toBe('/');
    }
  });

  it('builds /signin?next=… for a page that needs sign-in', () => {
    expect(signInPath({ pathname: '/account/security', search: '?a=1', hash: '#x' })).toBe(
      '/signin?next=%2Faccount%2Fsecurity%3Fa%3D1%23x',
    );
    expect(signInPath({ pathname: '/' })).toBe('/signin');
  });
});

describe('normaliseCode', () => {
  it('drops spaces and dashes of a numeric code, keeps a recovery code as typed', () => {
    expect(normaliseCode(' 123 456 ')).toBe('123456');
    expect(normaliseCode('123-456')).toBe('123456');
    expect(normaliseCode(' abcd-efgh ')).toBe('abcd-efgh');
  });
});
