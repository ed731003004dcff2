import type { DetailedError, HttpResponse } from 'tus-js-client';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError } from '../../lib/api';
import { isRetryableUploadError, toAppError } from './tus-transport';

function response(status: number, body = '', headers: Record<string, string> = {}): HttpResponse {
  return {
    getStatus: () => status,
    getBody: () => body,
    getHeader: (name: string) => headers[name],
    getUnderlyingObject: () => null,
  };
}

function tusError(res: HttpResponse | null, method = 'PATCH'): DetailedError {
  const error = new Error('tus failed') as DetailedError;
  Object.assign(error, {
    originalRequest: { getMethod: () => method },
    originalResponse: res,
    causingError: null,
  });
  return error;
}

describe('tus errors', () => {
  it('retries lost connections, server errors and "come back later" statuses only', () => {
    expect(isRetryableUploadError(tusError(null))).toBe(true);
    for (const status of [500, 502, 503, 409, 423, 429])
      expect(isRetryableUploadError(tusError(response(status)))).toBe(true);
    for (const status of [400, 401, 403, 404, 410, 413])
      expect(isRetryableUploadError(tusError(response(status)))).toBe(false);
  });

  it("turns the server's answer into an ApiError and no answer into a NetworkError", () => {
    const body = JSON.stringify({
      status: 410,
      error: 'Gone',
      message: 'expired',
      codes: ['TRANSFER_EXPIRED'],
    });
    const fromServer = toAppError(tusError(response(410, body)));
    expect(fromServer).toBeInstanceOf(ApiError);
    expect((fromServer as ApiError).hasCode('TRANSFER_EXPIRED')).toBe(true);
    expect(toAppError(tusError(null))).toBeInstanceOf(NetworkError);
    const plain = new Error('tus: no file');
    expect(toAppError(plain)).toBe(plain);
  });
});
