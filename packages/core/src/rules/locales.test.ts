import { describe, expect, it } from 'vitest';
import { LOCALES } from '../constants.js';
import {
  bcp47Of,
  directionOf,
  isLocale,
  LOCALE_TABLE,
  localeInfo,
  localePrefixOf,
  withLocalePrefix,
} from './locales.js';

describe('the locale table', () => {
  it('has one row per spec locale, in the spec order', () => {
    expect(LOCALE_TABLE.map((row) => row.code)).toEqual([...LOCALES]);
  });

  it('gives each a valid BCP 47 tag Intl knows, and its own name', () => {
    for (const row of LOCALE_TABLE) {
      expect(Intl.getCanonicalLocales(row.bcp47), row.code).toEqual([row.bcp47]);
      expect(row.nativeName.length, row.code).toBeGreaterThan(1);
    }
    expect(new Set(LOCALE_TABLE.map((row) => row.nativeName)).size).toBe(LOCALE_TABLE.length);
  });

  it.each([
    ['en', 'en'],
    ['fr', 'fr'],
    ['ccs', 'cs'],
    ['zh', 'zh-Hans'],
    ['jp', 'ja'],
    ['kr', 'ko'],
    ['nb', 'nb'],
    ['no', 'no'],
    ['JP', 'ja'],
  ])('bcp47Of(%s) is %s', (code, tag) => {
    expect(bcp47Of(code)).toBe(tag);
  });

  it('passes other tags through', () => {
    expect(bcp47Of('fr-CA')).toBe('fr-CA');
  });

  it('is right to left for Arabic and Persian only', () => {
    expect(LOCALE_TABLE.filter((row) => row.dir === 'rtl').map((row) => row.code)).toEqual(['ar', 'fa']);
    expect(directionOf('ar')).toBe('rtl');
    expect(directionOf('fa')).toBe('rtl');
    expect(directionOf('he-IL')).toBe('ltr');
    expect(directionOf('en')).toBe('ltr');
  });

  it('names the languages the switcher lists in their own words', () => {
    expect(localeInfo('de')?.nativeName).toBe('Deutsch');
    expect(localeInfo('jp')?.nativeName).toBe('日本語');
    expect(localeInfo('ar')?.nativeName).toBe('العربية');
    expect(localeInfo('ccs')?.nativeName).toBe('Čeština');
    expect(localeInfo('nb')?.nativeName).toBe('Norsk bokmål');
    expect(localeInfo('no')?.nativeName).toBe('Norsk');
    expect(isLocale('cs')).toBe(false);
    expect(isLocale('ccs')).toBe(true);
  });
});

describe('localePrefixOf', () => {
  it.each([
    ['/fr/prices', 'fr', '/prices'],
    ['/jp/dl/AbC/F1', 'jp', '/dl/AbC/F1'],
    ['/ccs/prices', 'ccs', '/prices'],
    ['/FR/prices', 'fr', '/prices'],
    ['/fr', 'fr', '/'],
    ['/fr/', 'fr', '/'],
    ['/fr?x=1', 'fr', '/?x=1'],
  ])('%s is %s with %s', (path, locale, rest) => {
    expect(localePrefixOf(path)).toEqual({ locale, rest });
  });

  it.each(['/en/prices', '/en', '/prices', '/', '/france/x', '/cs/prices', '/frx', '', 'fr/prices'])(
    '%s has no locale prefix',
    (path) => {
      expect(localePrefixOf(path)).toBeNull();
    },
  );
});

describe('withLocalePrefix', () => {
  it.each([
    ['/prices', 'fr', '/fr/prices'],
    ['/', 'fr', '/fr'],
    ['/dl/X', 'jp', '/jp/dl/X'],
    ['/prices', 'en', '/prices'],
    ['/fr/prices', 'en', '/prices'],
    ['/fr/prices', 'de', '/de/prices'],
    ['/fr', 'en', '/'],
    ['/prices', 'KR', '/kr/prices'],
    ['/prices', 'xx', '/prices'],
  ])('%s in %s is %s', (path, code, expected) => {
    expect(withLocalePrefix(path, code)).toBe(expected);
  });

  it('undoes localePrefixOf for every locale', () => {
    for (const code of LOCALES) {
      const prefixed = withLocalePrefix('/dashboard/transfers', code);
      expect(localePrefixOf(prefixed)?.rest ?? prefixed).toBe('/dashboard/transfers');
      expect(localePrefixOf(prefixed)?.locale ?? 'en').toBe(code);
    }
  });
});
