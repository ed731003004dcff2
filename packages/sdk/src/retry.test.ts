import { describe, expect, it } from 'vitest';
import { errorCodes, isConnectionRefused, isNetworkError, retryDelaysFor } from './retry.js';

describe('retryDelaysFor', () => {
  it('starts at once, backs off to 5 s steps and waits about the asked total', () => {
    const delays = retryDelaysFor(60_000);
    expect(delays[0]).toBe(0);
    expect(Math.max(...delays)).toBe(5000);
    const total = delays.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThanOrEqual(60_000);
    expect(total).toBeLessThan(66_000);
  });
});

describe('network errors', () => {
  const refused = new TypeError('fetch failed', {
    cause: new AggregateError([Object.assign(new Error('a'), { code: 'ECONNREFUSED' })]),
  });

  it('finds codes in causes, aggregate members and tus causingError', () => {
    expect(errorCodes(refused)).toEqual(['ECONNREFUSED']);
    const tus = Object.assign(new Error('tus: failed'), {
      causingError: Object.assign(new Error(), { code: 'EPIPE' }),
    });
    expect(isNetworkError(tus)).toBe(true);
  });

  it('tells a refused connection (never reached the server) from a reset one', () => {
    expect(isConnectionRefused(refused)).toBe(true);
    const reset = new TypeError('fetch failed', {
      cause: Object.assign(new Error(), { code: 'ECONNRESET' }),
    });
    expect(isNetworkError(reset)).toBe(true);
    expect(isConnectionRefused(reset)).toBe(false);
    expect(isNetworkError(new Error('bad json'))).toBe(false);
  });
});
