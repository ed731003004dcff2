import { describe, expect, it } from 'vitest';
import {
  AVAILABLE_UPLOAD_TYPES,
  availableUploadTypes,
  defaultUploadType,
  transferTypeFromHash,
} from './transfer-type';

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

describe('default and allowed types (spec §4)', () => {
  const both = { allowS1: true, allowS2: true };

  it('defaults to S1, to S2 when the template says s2AsDefault', () => {
    expect(defaultUploadType(both, false, false)).toBe('S1');
    expect(defaultUploadType(both, true, false)).toBe('S2');
  });

  it('gives a team member only an allowed type', () => {
    expect(defaultUploadType({ allowS1: false, allowS2: true }, false, true)).toBe('S2');
    expect(defaultUploadType({ allowS1: true, allowS2: false }, true, true)).toBe('S1');
    expect(availableUploadTypes({ allowS1: false, allowS2: true }, true, 'S2')).toEqual(['S2']);
    expect(availableUploadTypes({ allowS1: true, allowS2: false }, true, 'S1')).toEqual(['S1']);
    expect(availableUploadTypes({ allowS1: false, allowS2: false }, true, 'S2')).toEqual(['S2']);
    // The restriction is for managed users only.
    expect(availableUploadTypes({ allowS1: false, allowS2: true }, false, 'S1')).toEqual(['S1', 'S2']);
  });

  it('lets the hash win over the default, but never for a type that is not allowed', () => {
    expect(transferTypeFromHash('', ['S1', 'S2'], 'S2')).toBe('S2');
    expect(transferTypeFromHash('#S1', ['S1', 'S2'], 'S2')).toBe('S1');
    expect(transferTypeFromHash('#S1', ['S2'], 'S2')).toBe('S2');
  });
});
