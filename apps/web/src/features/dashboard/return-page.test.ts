import { afterEach, describe, expect, it } from 'vitest';
import { forgetReturnPage, isReturnPage, rememberReturnPage, returnPagePath } from './return-page';

const at = (pathname: string, hash = '', search = '') => ({ pathname, hash, search });

describe('the panel’s way back (spec §2: the uploader or receiver page)', () => {
  afterEach(() => forgetReturnPage());

  it('is the uploader when nothing was seen', () => {
    expect(returnPagePath()).toBe('/');
  });

  it('is the last uploader or receiver page, with its #S1/#S2', () => {
    rememberReturnPage(at('/', '#S2'));
    expect(returnPagePath()).toBe('/#S2');
    rememberReturnPage(at('/request-files', '#S1'));
    expect(returnPagePath()).toBe('/request-files#S1');
  });

  it('ignores every other page', () => {
    rememberReturnPage(at('/request-files'));
    for (const path of ['/dashboard', '/account/profile', '/signin', '/dl/abc']) rememberReturnPage(at(path));
    expect(returnPagePath()).toBe('/request-files');
    expect(isReturnPage('/request-files/')).toBe(true);
    expect(isReturnPage('/dashboard')).toBe(false);
  });

  it('outlives a reload of the tab (session storage)', () => {
    rememberReturnPage(at('/request-files', '#S2'));
    expect(sessionStorage.getItem('ferry.panelReturn')).toBe('/request-files#S2');
  });
});
