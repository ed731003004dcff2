import { afterEach, describe, expect, it } from 'vitest';
import { formatDate, formatPercent } from '../lib/format';
import {
  applyToDocument,
  basenameOf,
  chooseLocale,
  detectLocale,
  i18next,
  loadLocale,
  specLocaleOf,
  UI_LOCALES,
} from './index';

describe('detectLocale', () => {
  it('prefers the saved choice, then the first translated browser language, then English', () => {
    expect(detectLocale('fr', ['en-US'])).toBe('fr');
    expect(detectLocale(null, ['fr-CA', 'en'])).toBe('fr');
    expect(detectLocale(null, ['tlh', 'de-DE', 'fr'])).toBe('de');
    expect(detectLocale(null, ['ja-JP'])).toBe('jp');
    expect(detectLocale(null, ['tlh'])).toBe('en');
    expect(detectLocale('xx', [])).toBe('en');
  });

  it("maps browser tags to the spec's locale codes", () => {
    expect(specLocaleOf('ja-JP')).toBe('jp');
    expect(specLocaleOf('ko')).toBe('kr');
    expect(specLocaleOf('cs-CZ')).toBe('ccs');
    expect(specLocaleOf('zh-Hans-CN')).toBe('zh');
    expect(specLocaleOf('nn-NO')).toBe('no');
    expect(specLocaleOf('pt_BR')).toBe('pt');
    expect(specLocaleOf('tlh')).toBeNull();
  });
});

describe('chooseLocale: URL, then account, then saved choice, then browser', () => {
  const all = { account: 'de', saved: 'it', browser: ['es-ES'] };

  it('takes the URL prefix first', () => {
    expect(chooseLocale({ pathname: '/fr/dashboard', ...all })).toBe('fr');
    expect(chooseLocale({ pathname: '/JP/dl/abc', ...all })).toBe('jp');
    expect(chooseLocale({ pathname: '/ar', ...all })).toBe('ar');
  });

  it("then the signed-in account's language", () => {
    expect(chooseLocale({ pathname: '/dashboard', ...all })).toBe('de');
    expect(chooseLocale({ pathname: '/', ...all, account: 'ja-JP' })).toBe('jp');
  });

  it('then the choice saved in this browser', () => {
    expect(chooseLocale({ pathname: '/dashboard', ...all, account: null })).toBe('it');
    expect(chooseLocale({ pathname: '/dashboard', ...all, account: 'tlh' })).toBe('it');
  });

  it("then the browser's languages, then English", () => {
    expect(chooseLocale({ pathname: '/', account: null, saved: null, browser: ['es-ES'] })).toBe('es');
    expect(chooseLocale({ pathname: '/', account: null, saved: null, browser: [] })).toBe('en');
    // /en/… is no language path: the prefix is ignored.
    expect(chooseLocale({ pathname: '/en/signin', account: null, saved: null, browser: ['kr'] })).toBe('kr');
  });

  it('keeps a site page at its bare path in English', () => {
    expect(chooseLocale({ pathname: '/prices', ...all })).toBe('en');
    expect(chooseLocale({ pathname: '/prices/', ...all })).toBe('en');
    expect(chooseLocale({ pathname: '/fr/prices', ...all })).toBe('fr');
  });
});

describe('basenameOf', () => {
  it("is the URL's language prefix as written, or none", () => {
    expect(basenameOf('/fr/dashboard')).toBe('/fr');
    expect(basenameOf('/JP')).toBe('/JP');
    expect(basenameOf('/ccs/')).toBe('/ccs');
    expect(basenameOf('/dashboard')).toBeUndefined();
    expect(basenameOf('/en/dashboard')).toBeUndefined();
  });
});

describe('the page in a language', () => {
  afterEach(async () => {
    await i18next.changeLanguage('en');
  });

  it('sets <html lang> to the BCP 47 tag and dir to rtl for Arabic and Persian', async () => {
    const cases: Array<[string, string, string]> = [
      ['jp', 'ja', 'ltr'],
      ['kr', 'ko', 'ltr'],
      ['ccs', 'cs', 'ltr'],
      ['zh', 'zh-Hans', 'ltr'],
      ['ar', 'ar', 'rtl'],
      ['fa', 'fa', 'rtl'],
      ['fr', 'fr', 'ltr'],
    ];
    for (const [code, lang, dir] of cases) {
      applyToDocument(code);
      expect([document.documentElement.lang, document.documentElement.dir], code).toEqual([lang, dir]);
    }
    // And as the language changes.
    await i18next.changeLanguage('fa');
    expect(document.documentElement.lang).toBe('fa');
    expect(document.documentElement.dir).toBe('rtl');
    await i18next.changeLanguage('en');
    expect(document.documentElement.dir).toBe('ltr');
  });

  it("picks plural forms by the language's own rules (jp and ccs are no BCP 47 codes)", async () => {
    for (const code of ['jp', 'ccs', 'ar'] as const) {
      i18next.addResourceBundle(code, 'teamPolicies', (await loadLocale(code)).teamPolicies, true, true);
    }
    const t = (lng: string, count: number) => i18next.t('teamPolicies:overview.pending', { lng, count });
    expect(t('jp', 1)).toBe('保留中の招待 1 件');
    expect(t('ccs', 3)).toBe('3 čekající pozvánky');
    expect(t('ccs', 5)).toBe('5 čekajících pozvánek');
    expect(t('ar', 2)).toBe('دعوتان معلّقتان (2)');
  });

  it('formats dates and numbers with the BCP 47 tag', () => {
    const date = new Date('2026-03-12T12:00:00Z');
    expect(formatDate(date, 'jp')).toBe(new Intl.DateTimeFormat('ja', { dateStyle: 'long' }).format(date));
    expect(formatDate(date, 'jp')).toContain('年');
    expect(formatDate(date, 'kr')).toContain('년');
    expect(formatDate(date, 'zh')).toBe(
      new Intl.DateTimeFormat('zh-Hans', { dateStyle: 'long' }).format(date),
    );
    expect(formatPercent(42, 'ar')).toBe(new Intl.NumberFormat('ar', { style: 'percent' }).format(0.42));
  });

  it('registers every translation file present', () => {
    expect(UI_LOCALES.length).toBeGreaterThan(2);
    expect(UI_LOCALES).toContain('jp');
  });
});
