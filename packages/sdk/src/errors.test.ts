import { describe, expect, it } from 'vitest';
import { FerryApiError, parseErrorBody, parseRetryAfter } from './errors.js';

const headers = (h: Record<string, string>) => ({ get: (name: string) => h[name.toLowerCase()] ?? null });

describe('parseErrorBody (spec §8)', () => {
  it('reads a limit error: status, error, limitErrors', () => {
    const error = parseErrorBody(
      400,
      JSON.stringify({
        status: 400,
        error: 'Bad Request',
        message: 'Too many files.',
        codes: ['LIMIT_EXCEEDED'],
        limitErrors: [{ limit: 'files', max: 250, actual: 251 }],
      }),
    );
    expect(error).toBeInstanceOf(FerryApiError);
    expect(error.kind).toBe('limit');
    expect(error.status).toBe(400);
    expect(error.codes).toEqual(['LIMIT_EXCEEDED']);
    expect(error.limitErrors).toEqual([{ limit: 'files', max: 250, actual: 251 }]);
    expect(error.message).toBe('Too many files.');
  });

  it('describes a limit error that has no message, and gives it the LIMIT_EXCEEDED code', () => {
    const error = parseErrorBody(
      400,
      '{"status":400,"error":"Bad Request","limitErrors":[{"limit":"uploadSize","max":5,"actual":7}]}',
    );
    expect(error.kind).toBe('limit');
    expect(error.codes).toEqual(['LIMIT_EXCEEDED']);
    expect(error.message).toBe('limit exceeded: uploadSize 7 > max 5');
  });

  it('reads a coded error: status, error, codes (and details)', () => {
    const error = parseErrorBody(
      422,
      JSON.stringify({
        status: 422,
        error: 'Unprocessable Entity',
        message: 'Checksum mismatch.',
        codes: ['CHECKSUM_MISMATCH'],
        details: { files: [{ id: 'abc123', expected: 'a', actual: 'b' }] },
      }),
    );
    expect(error.kind).toBe('coded');
    expect(error.has('CHECKSUM_MISMATCH')).toBe(true);
    expect(error.details).toEqual({ files: [{ id: 'abc123', expected: 'a', actual: 'b' }] });
    expect(error.limitErrors).toEqual([]);
  });

  it('uses the reason phrase when a coded error has no message', () => {
    const error = parseErrorBody(403, '{"status":403,"error":"Forbidden","codes":["TOO_MANY_DOWNLOADS"]}');
    expect(error.message).toBe('Forbidden');
  });

  it('reads a generic error from its message, else its error, else the raw body', () => {
    expect(parseErrorBody(500, '{"status":500,"error":"Internal","message":"boom"}').message).toBe('boom');
    expect(parseErrorBody(500, '{"status":500,"error":"Internal Server Error"}').message).toBe(
      'Internal Server Error',
    );
    const raw = parseErrorBody(502, 'upstream went away');
    expect(raw.kind).toBe('generic');
    expect(raw.codes).toEqual([]);
    expect(raw.message).toBe('upstream went away');
  });

  it('says "unexpected return status" when there is no body (or only an HTML page)', () => {
    expect(parseErrorBody(503, '').message).toBe('unexpected return status 503');
    expect(parseErrorBody(502, '<html><body>Bad gateway</body></html>').message).toBe(
      'unexpected return status 502',
    );
  });

  it('keeps Retry-After of a 429', () => {
    const error = parseErrorBody(
      429,
      '{"status":429,"error":"Too Many Requests","message":"slow down","codes":["RATE_LIMITED"]}',
      headers({ 'retry-after': '42' }),
    );
    expect(error.retryAfterSeconds).toBe(42);
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120')).toBe(120);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(parseRetryAfter('Tue, 01 Jan 2030 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon')).toBeUndefined();
    expect(parseRetryAfter(null)).toBeUndefined();
  });
});
