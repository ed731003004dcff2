import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, parseApiError } from '../../lib/api';
import { downloadErrorRoute, downloadNoticeKey, needsPassword } from './download-errors';
import { passwordErrorKey } from './password-form';

const coded = (code: string, status: number) =>
  new ApiError({ kind: 'coded', status, message: code, codes: [code] });

describe('download error handling (spec §8)', () => {
  it('sends expired transfers to /d/expired and unknown or disabled ones to /d/notfound', () => {
    expect(downloadErrorRoute(coded('TRANSFER_EXPIRED', 410))).toBe('/d/expired');
    expect(downloadErrorRoute(coded('TRANSFER_NOT_FOUND', 404))).toBe('/d/notfound');
    expect(downloadErrorRoute(coded('TRANSFER_DISABLED', 410))).toBe('/d/notfound');
    expect(downloadErrorRoute(coded('TOO_MANY_DOWNLOADS', 403))).toBeNull();
    expect(downloadErrorRoute(new NetworkError(null))).toBeNull();
  });

  it('uses the spec keys for download and preview limits', () => {
    expect(downloadNoticeKey(coded('TOO_MANY_DOWNLOADS', 403))).toBe('downloader:too_many_dowloads');
    expect(downloadNoticeKey(coded('TOO_MANY_PREVIEWS', 403))).toBe('downloader:notif_too_many_previews');
    expect(downloadNoticeKey(coded('INTERNAL', 500))).toBeNull();
  });

  it('asks for the password again when it is missing or wrong', () => {
    expect(needsPassword(coded('PASSWORD_REQUIRED', 401))).toBe(true);
    expect(needsPassword(coded('WRONG_PASSWORD', 403))).toBe(true);
    expect(needsPassword(coded('TOO_MANY_DOWNLOADS', 403))).toBe(false);
  });

  it('reads a password check: 429 is rate limited, any other failure a wrong password', () => {
    expect(passwordErrorKey(parseApiError(429, '', '20'))).toEqual({
      key: 'downloader:password_rate_limited_wait',
      waitSeconds: 20,
    });
    expect(passwordErrorKey(parseApiError(429, ''))).toEqual({ key: 'downloader:password_rate_limited' });
    expect(passwordErrorKey(coded('WRONG_PASSWORD', 403))).toEqual({ key: 'downloader:wrong_password' });
    expect(passwordErrorKey(parseApiError(500, ''))).toEqual({ key: 'downloader:wrong_password' });
    expect(passwordErrorKey(new NetworkError(null))).toEqual({ key: 'errors:network' });
  });
});
