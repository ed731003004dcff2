import { describe, expect, it } from 'vitest';
import { hasLayoutControlChars } from './text.js';

describe('hasLayoutControlChars', () => {
  it('finds control characters, line separators and bidirectional controls', () => {
    for (const c of [
      '\u0000',
      '\t',
      '\n',
      '\r',
      '\u007f',
      '\u0085',
      '\u2028',
      '\u2029',
      '\u202A',
      '\u202E',
      '\u2066',
      '\u2069',
    ])
      expect(hasLayoutControlChars(`Erin${c}Smith`), JSON.stringify(c)).toBe(true);
  });

  it('leaves ordinary names alone, in any script', () => {
    for (const name of ['Erin Smith', 'Zoë Ñúñez-O’Brien', '李小龙', 'محمد', 'אבי\u200F', '😀 Team'])
      expect(hasLayoutControlChars(name), name).toBe(false);
  });
});
