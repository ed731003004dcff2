import { TransferSummary } from '@ferry/core';
import i18next from 'i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transferSummary } from '../test/fixtures';
import {
  ApiError,
  apiRequest,
  buildQuery,
  describeError,
  describeLimit,
  NetworkError,
  parseApiError,
  setBotChallengeHandler,
  UNEXPECTED_STATUS,
} from './api';
import { lazySchema } from './schemas';

describe('parseApiError (spec §8 shapes)', () => {
  it('reads a body with limitErrors as a limit error', () => {
    const body = {
      status: 400,
      error: 'Bad Request',
      message: 'limit',
      codes: ['LIMIT_EXCEEDED'],
      limitErrors: [{ limit: 'files', max: 250, actual: 251 }],
    };
    const error = parseApiError(400, JSON.stringify(body));
    expect(error.kind).toBe('limit');
    expect(error.limitErrors).toEqual([{ limit: 'files', max: 250, actual: 251 }]);
    expect(error.error).toBe('Bad Request');
    expect(error.hasCode('LIMIT_EXCEEDED')).toBe(true);
  });

  it('reads a body with codes as a coded error, keeping details', () => {
    const body = {
      status: 422,
      error: 'Unprocessable Entity',
      message: 'mismatch',
      codes: ['CHECKSUM_MISMATCH'],
      details: { files: [{ id: 'abc123', expected: 'a', actual: 'b' }] },
    };
    const error = parseApiError(422, JSON.stringify(body));
    expect(error.kind).toBe('coded');
    expect(error.codes).toEqual(['CHECKSUM_MISMATCH']);
    expect(error.details.files).toEqual([{ id: 'abc123', expected: 'a', actual: 'b' }]);
    expect(error.status).toBe(422);
  });

  it('falls back to message, then error, then the raw body for a generic error', () => {
    expect(parseApiError(500, '{"message":"boom","error":"Internal"}').message).toBe('boom');
    expect(parseApiError(500, '{"error":"Internal"}').message).toBe('Internal');
    const raw = parseApiError(502, '<html>Bad gateway</html>');
    expect(raw.kind).toBe('generic');
    expect(raw.message).toBe('<html>Bad gateway</html>');
  });

  it("gives 'unexpected return status' when there is no body", () => {
    const error = parseApiError(503, '');
    expect(error.kind).toBe('generic');
    expect(error.message).toBe(UNEXPECTED_STATUS);
    expect(error.status).toBe(503);
  });

  it('reads Retry-After in seconds', () => {
    expect(parseApiError(429, '', '12').retryAfterSeconds).toBe(12);
    expect(parseApiError(429, '').retryAfterSeconds).toBeNull();
  });
});

describe('describeError', () => {
  const i18n = i18next;

  it('names each broken limit, sizes formatted', () => {
    const error = parseApiError(
      400,
      JSON.stringify({
        limitErrors: [{ limit: 'uploadSize', max: 5e9, actual: 6.2e9 }],
        codes: ['LIMIT_EXCEEDED'],
      }),
    );
    expect(describeError(error, i18n)).toBe('Too large: 6.20 GB in total, 5.00 GB at most per transfer.');
  });

  it('writes the sizes of a limit in the user’s language', async () => {
    await i18next.changeLanguage('fr');
    try {
      expect(describeLimit({ limit: 'uploadSize', max: 5e9, actual: 6.2e9 }, i18n)).toBe(
        'Trop volumineux\u00a0: 6,20\u202fGo au total, 5,00\u202fGo au maximum par transfert.',
      );
      expect(describeLimit({ limit: 'files', max: 10, actual: 12 }, i18n)).toBe(
        'Trop de fichiers\u00a0: 12 choisis, 10 au maximum par transfert.',
      );
    } finally {
      await i18next.changeLanguage('en');
    }
  });

  it('uses the spec keys for download limits', () => {
    const error = new ApiError({ kind: 'coded', status: 403, message: 'x', codes: ['TOO_MANY_DOWNLOADS'] });
    expect(describeError(error, i18n)).toBe(i18n.t('downloader:too_many_dowloads'));
  });

  it('has a message per code and a generic one for unknown codes', () => {
    const expired = new ApiError({ kind: 'coded', status: 410, message: 'x', codes: ['TRANSFER_EXPIRED'] });
    expect(describeError(expired, i18n)).toBe('This transfer has expired.');
    const unknown = new ApiError({ kind: 'coded', status: 418, message: 'x', codes: ['TEAPOT'] });
    expect(describeError(unknown, i18n)).toContain('(418)');
  });

  it('says how long to wait when rate limited', () => {
    const error = parseApiError(429, JSON.stringify({ codes: ['RATE_LIMITED'] }), '30');
    expect(describeError(error, i18n)).toBe('Too many attempts. Try again in about 30 seconds.');
  });

  it('tells network failures apart', () => {
    expect(describeError(new NetworkError(new TypeError('fetch failed')), i18n)).toContain(
      'cannot be reached',
    );
  });
});

describe('apiRequest', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('leaves unset query values out', () => {
    expect(buildQuery({ transferId: 'abc', password: undefined, fileId: '', preview: false })).toBe(
      '?transferId=abc&preview=false',
    );
  });

  it('sends JSON under /api and validates the answer with the schema', async () => {
    const summary = transferSummary({ totalSize: 3 });
    const fetchMock = vi.fn(async () => new Response(JSON.stringify(summary), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    const result = await apiRequest('/transfer/x', {
      method: 'POST',
      body: { files: [] },
      headers: { 'X-Upload-Token': 't' },
      schema: TransferSummary,
    });
    expect(result).toEqual(summary);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/transfer/x');
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"files":[]}');
    expect((init.headers as Record<string, string>)['X-Upload-Token']).toBe('t');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('throws a parsed ApiError for an error status', async () => {
    const body = JSON.stringify({
      status: 404,
      error: 'Not Found',
      message: 'no',
      codes: ['TRANSFER_NOT_FOUND'],
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(body, { status: 404 })),
    );
    const error = await apiRequest('/x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).hasCode('TRANSFER_NOT_FOUND')).toBe(true);
  });

  it('refuses an answer that does not match the schema', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"nope":true}', { status: 200 })),
    );
    await expect(apiRequest('/x', { schema: TransferSummary })).rejects.toBeInstanceOf(ApiError);
  });

  it('loads a schema given as a loader while the request is on its way, and validates with it', async () => {
    const summary = transferSummary({ totalSize: 3 });
    const order: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        order.push('fetch');
        return new Response(JSON.stringify(summary), { status: 200 });
      }),
    );
    const load = vi.fn(async () => {
      order.push('schema');
      return TransferSummary;
    });
    await expect(apiRequest('/transfer/x', { schema: load })).resolves.toEqual(summary);
    // asked for before the request went out, not after the answer came
    expect(order).toEqual(['schema', 'fetch']);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"nope":true}', { status: 200 })),
    );
    await expect(apiRequest('/x', { schema: load })).rejects.toBeInstanceOf(ApiError);
  });

  it('says network error when a schema to load cannot be fetched', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{}', { status: 200 })),
    );
    const failing = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    await expect(apiRequest('/x', { schema: failing })).rejects.toBeInstanceOf(NetworkError);
  });

  it("lazySchema gives @ferry/core's own schema", async () => {
    expect(await lazySchema('TransferSummary')()).toBe(TransferSummary);
  });

  it('turns a failed fetch into a NetworkError', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(apiRequest('/x')).rejects.toBeInstanceOf(NetworkError);
  });

  it('reloads on a bot challenge', async () => {
    const reload = vi.fn();
    setBotChallengeHandler(reload);
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 403, headers: { 'cf-mitigated': 'challenge' } })),
    );
    await expect(apiRequest('/x')).rejects.toBeInstanceOf(ApiError);
    expect(reload).toHaveBeenCalledOnce();
  });
});
