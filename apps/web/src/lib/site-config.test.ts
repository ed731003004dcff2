import { afterEach, describe, expect, it } from 'vitest';
import { NO_SITE_CONFIG, parseSiteConfig, readSiteConfig, SITE_CONFIG_ELEMENT_ID } from './site-config';

describe('the site settings the server puts in index.html', () => {
  afterEach(() => document.getElementById(SITE_CONFIG_ELEMENT_ID)?.remove());

  it('reads the country and whether this is the main domain', () => {
    expect(parseSiteConfig('{"madeInCountry":"FR","mainDomain":true}')).toEqual({
      madeInCountry: 'FR',
      mainDomain: true,
      ownHost: false,
    });
    expect(parseSiteConfig('{"madeInCountry":" de ","mainDomain":false}')).toEqual({
      madeInCountry: 'DE',
      mainDomain: false,
      ownHost: false,
    });
  });

  it('turns the banner off for an empty, malformed or unknown country, and keeps the domain', () => {
    for (const country of ['', 'FRA', 'F', '12', 'ZZ', 42, null]) {
      expect(parseSiteConfig(JSON.stringify({ madeInCountry: country, mainDomain: true }))).toEqual({
        madeInCountry: '',
        mainDomain: true,
        ownHost: false,
      });
    }
  });

  it("reads whether the page is on an account's own host", () => {
    expect(parseSiteConfig('{"madeInCountry":"","mainDomain":false,"ownHost":true}').ownHost).toBe(true);
    for (const ownHost of ['true', 1, null, undefined])
      expect(parseSiteConfig(JSON.stringify({ mainDomain: false, ownHost })).ownHost).toBe(false);
  });

  it('counts only a real true as the main domain', () => {
    for (const mainDomain of ['true', 1, null, undefined]) {
      expect(parseSiteConfig(JSON.stringify({ madeInCountry: 'FR', mainDomain })).mainDomain).toBe(false);
    }
  });

  it('says whether the page came with a session cookie only when the server said so', () => {
    expect(parseSiteConfig('{"madeInCountry":"FR","mainDomain":true,"sessionCookie":false}')).toEqual({
      madeInCountry: 'FR',
      mainDomain: true,
      ownHost: false,
      sessionCookie: false,
    });
    expect(parseSiteConfig('{"sessionCookie":true}').sessionCookie).toBe(true);
    expect(parseSiteConfig('{"sessionCookie":"no"}')).not.toHaveProperty('sessionCookie');
  });

  it('reads missing, empty or invalid settings as no banner and not the main domain', () => {
    for (const text of [null, undefined, '', '{', 'null', '[]', '"FR"', '42']) {
      expect(parseSiteConfig(text)).toEqual(NO_SITE_CONFIG);
    }
  });

  it('reads the element of the page, and nothing without it', () => {
    expect(readSiteConfig()).toEqual(NO_SITE_CONFIG);
    const element = document.createElement('script');
    element.id = SITE_CONFIG_ELEMENT_ID;
    element.type = 'application/json';
    element.textContent = '{"madeInCountry":"FR","mainDomain":true}';
    document.head.append(element);
    expect(readSiteConfig()).toEqual({ madeInCountry: 'FR', mainDomain: true, ownHost: false });
    element.textContent = '{"madeInCountry":"FR",';
    expect(readSiteConfig()).toEqual(NO_SITE_CONFIG);
  });
});
