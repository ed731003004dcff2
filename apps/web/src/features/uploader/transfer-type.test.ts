import { describe, expect, it } from 'vitest';
import { transferTypeFromHash } from './transfer-type';

describe('transferTypeFromHash', () => {
  it('uses S2 for / and /#S2', () => {
    expect(transferTypeFromHash('')).toBe('S2');
    expect(transferTypeFromHash('#S2')).toBe('S2');
    expect(transferTypeFromHash('#s2')).toBe('S2');
  });

  it('falls back to S2 for #S1 until S1 is available, and selects S1 once it is', () => {
    expect(transferTypeFromHash('#S1')).toBe('S2');
    expect(transferTypeFromHash('#S1', ['S1', 'S2'])).toBe('S1');
    expect(transferTypeFromHash('#whatever', ['S1', 'S2'])).toBe('S1');
  });
});
