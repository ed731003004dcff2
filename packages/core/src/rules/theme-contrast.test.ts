import { describe, expect, it } from 'vitest';
import { DEFAULT_THEME_COLORS, ThemeUpdate, themeAssetIdOf } from '../api/theme.js';
import { contrastBetween, readableTextOn, themeContrastProblems } from './theme-contrast.js';

describe('theme contrast', () => {
  it('measures WCAG contrast', () => {
    expect(contrastBetween('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastBetween('#777', '#777777')).toBe(1);
    expect(readableTextOn('#FFEB3B')).toBe('#000000');
    expect(readableTextOn('#3F51B5')).toBe('#ffffff');
  });

  it('passes the spec §3 defaults and any background or start colour (black or white text reads on all)', () => {
    expect(themeContrastProblems(DEFAULT_THEME_COLORS)).toEqual([]);
    for (const c of ['#777777', '#808080', '#FFFF00', '#000000', '#FFFFFF'])
      expect(themeContrastProblems({ backgroundColor: c, startbtnColor: c })).toEqual([]);
  });

  it('refuses an action colour that white text (or it, as text on white) does not read on', () => {
    expect(themeContrastProblems({ actionColor: '#FFEB3B' })).toEqual([
      expect.objectContaining({ field: 'actionColor', against: '#ffffff', min: 4.5 }),
    ]);
    expect(themeContrastProblems({ actionColor: '#777' })[0]?.ratio).toBe(4.47);
    expect(themeContrastProblems({ actionColor: '#767676' })).toEqual([]);
    expect(themeContrastProblems({ actionColor: null })).toEqual([]);
  });
});

describe('ThemeUpdate', () => {
  it('takes only the paths of uploaded assets', () => {
    const url = '/api/theme/assets/AbCdEfGhIjKlMnOpQrStUvWx';
    expect(ThemeUpdate.safeParse({ logoURL: url }).success).toBe(true);
    expect(themeAssetIdOf(url)).toBe('AbCdEfGhIjKlMnOpQrStUvWx');
    for (const bad of ['https://evil.example/a.png', 'javascript:alert(1)', `${url}/../x`, `//evil${url}`])
      expect(ThemeUpdate.safeParse({ logoURL: bad }).success).toBe(false);
  });

  it('keeps uploader texts to one line', () => {
    expect(ThemeUpdate.safeParse({ uploader: { subject: 'Line\nbreak' } }).success).toBe(false);
    expect(ThemeUpdate.parse({ uploader: { subject: '  Acme  ' } }).uploader?.subject).toBe('Acme');
  });
});
