import { describe, expect, it } from 'vitest';
import { detectLocale, specLocaleOf } from './index';

describe('detectLocale', () => {
  it('prefers the saved choice, then the first translated browser language, then English', () => {
    expect(detectLocale('fr', ['en-US'])).toBe('fr');
    expect(detectLocale(null, ['fr-CA', 'en'])).toBe('fr');
    expect(detectLocale(null, ['de-DE', 'fr'])).toBe('fr');
    expect(detectLocale(null, ['de-DE'])).toBe('en');
    expect(detectLocale('xx', [])).toBe('en');
  });

  it("maps browser tags to the spec's locale codes", () => {
    expect(specLocaleOf('ja-JP')).toBe('jp');
    expect(specLocaleOf('ko')).toBe('kr');
    expect(specLocaleOf('pt_BR')).toBe('pt');
    expect(specLocaleOf('tlh')).toBeNull();
  });
});
