import { describe, expect, it } from 'vitest';
import { contrastRatio, fillTheme, normalizeHex, textOn, themeStyle } from './theme';

describe('widget theme', () => {
  it('fills each missing colour with the fallback, then the spec §3 default', () => {
    expect(fillTheme(null)).toEqual({
      backgroundColor: '#4052b5',
      actionColor: '#3f51b5',
      startbtnColor: '#ff6208',
    });
    expect(
      fillTheme({ actionColor: '#ABC' }, { backgroundColor: '#101010', actionColor: '#202020' }),
    ).toEqual({
      backgroundColor: '#101010',
      actionColor: '#aabbcc',
      startbtnColor: '#ff6208',
    });
    expect(fillTheme({ backgroundColor: 'red' })).toMatchObject({ backgroundColor: '#4052b5' });
  });

  it('reads hex colours only', () => {
    expect(normalizeHex(' #0aF ')).toBe('#00aaff');
    expect(normalizeHex('#12345')).toBeNull();
    expect(normalizeHex('url(x)')).toBeNull();
  });

  it('puts legible text on any colour (WCAG contrast)', () => {
    expect(textOn('#4052b5')).toBe('#ffffff');
    expect(textOn('#ffeedd')).toBe('#000000');
    expect(textOn('#ff6208')).toBe('#000000');
    for (const colour of ['#000000', '#ffffff', '#777777', '#ff0000', '#00ff00', '#3f51b5']) {
      expect(contrastRatio(colour, textOn(colour))).toBeGreaterThanOrEqual(4.5);
    }
    expect(themeStyle(fillTheme(null))).toMatchObject({
      '--theme-bg': '#4052b5',
      '--theme-bg-text': '#ffffff',
    });
  });
});
