import { describe, expect, it } from 'vitest';
import { AVAILABLE_UPLOAD_TYPES, transferTypeFromHash } from './transfer-type';

describe('transferTypeFromHash', () => {
  it('offers S1 (by e-mail) and S2 (by link), S1 first: the spec §4 default', () => {
    expect(AVAILABLE_UPLOAD_TYPES).toEqual(['S1', 'S2']);
  });

  it('selects S1 for /#S1 and for / (the default), S2 for /#S2 in any case', () => {
    expect(transferTypeFromHash('#S1')).toBe('S1');
    expect(transferTypeFromHash('')).toBe('S1');
    expect(transferTypeFromHash('#S2')).toBe('S2');
    expect(transferTypeFromHash('#s2')).toBe('S2');
  });

  it('falls back to the first available type for an unknown or unavailable hash', () => {
    expect(transferTypeFromHash('#whatever')).toBe('S1');
    expect(transferTypeFromHash('#S3')).toBe('S1');
    expect(transferTypeFromHash('#S1', ['S2'])).toBe('S2');
  });
});
