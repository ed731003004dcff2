import { describe, expect, it } from 'vitest';
import {
  AUTH_REDIRECT_COOKIE,
  consumeHandoff,
  handoffUrl,
  isTokenShaped,
  readHandoff,
  rememberAuthDomain,
  takeHandoff,
  withoutHandoff,
} from './handoff';

/** A window stand-in whose history.replaceState moves its location, as a browser's does. */
function fakeWindow(href: string) {
  const location = new URL(href);
  const replaced: string[] = [];
  const state = { usr: null, key: 'k', idx: 0 };
  const history = {
    state,
    replaceState(data: unknown, _unused: string, url: string) {
      expect(data).toBe(state);
      replaced.push(url);
      const next = new URL(url, location);
      location.search = next.search;
      location.hash = next.hash;
      location.pathname = next.pathname;
    },
  };
  return { win: { location, history } as unknown as Pick<Window, 'location' | 'history'>, replaced };
}

describe('sign-in hand-off (spec §2/§4)', () => {
  it('reads customToken with staySignedIn, or sessionCookie', () => {
    expect(readHandoff('?customToken=a.b.c&staySignedIn=true')).toEqual({
      kind: 'customToken',
      token: 'a.b.c',
      staySignedIn: true,
    });
    expect(readHandoff('?customToken=a.b.c&staySignedIn=false')).toMatchObject({ staySignedIn: false });
    expect(readHandoff('?customToken=a.b.c')).toMatchObject({ staySignedIn: false });
    expect(readHandoff('?sessionCookie=s.e.t&x=1')).toEqual({ kind: 'sessionCookie', token: 's.e.t' });
    // Both: the custom token is used (and both leave the address).
    expect(readHandoff('?sessionCookie=s.e.t&customToken=a.b.c')?.kind).toBe('customToken');
    expect(readHandoff('?staySignedIn=true&next=%2F')).toBeNull();
    expect(readHandoff('')).toBeNull();
    // An empty token is still a hand-off: one that fails.
    expect(readHandoff('?customToken=')).toEqual({ kind: 'customToken', token: '', staySignedIn: false });
  });

  it('removes only its parameters, keeping the path, the other parameters in order and the hash', () => {
    expect(
      withoutHandoff({
        pathname: '/dl/abc',
        search: '?a=1&customToken=a.b.c&b=2&staySignedIn=true&sessionCookie=x',
        hash: '#S2',
      }),
    ).toBe('/dl/abc?a=1&b=2#S2');
    expect(withoutHandoff({ pathname: '/', search: '?customToken=a.b.c', hash: '' })).toBe('/');
  });

  it('checks the token shape of spec §5 (three dot-separated parts)', () => {
    expect(isTokenShaped('a.b.c')).toBe(true);
    expect(isTokenShaped('a.b.c.d')).toBe(true);
    expect(isTokenShaped('a.b')).toBe(false);
    expect(isTokenShaped('')).toBe(false);
  });

  it('takes the parameters out of the address with replaceState, once, and hands the result over once', () => {
    const { win, replaced } = fakeWindow(
      'https://ferry.example/account?customToken=a.b.c&staySignedIn=true#x',
    );
    const taken = takeHandoff(win);
    expect(taken).toMatchObject({ kind: 'customToken', token: 'a.b.c', staySignedIn: true });
    expect(replaced).toEqual(['/account#x']);
    expect(win.location.search).toBe('');
    // The router took it first; the auth provider still gets it, once.
    expect(takeHandoff(win)).toEqual(taken);
    expect(replaced).toHaveLength(1);
    expect(consumeHandoff(win)).toEqual(taken);
    expect(consumeHandoff(win)).toBeNull();
    const plain = fakeWindow('https://ferry.example/?x=1');
    expect(consumeHandoff(plain.win)).toBeNull();
    expect(plain.replaced).toEqual([]);
  });

  it('keeps the auth-redirect domain cookie for 90 days', () => {
    const jar = { cookie: '' };
    rememberAuthDomain('eu.ferry.example', jar, true);
    expect(jar.cookie).toBe(
      `${AUTH_REDIRECT_COOKIE}=eu.ferry.example; Max-Age=7776000; Path=/; SameSite=Lax; Secure`,
    );
    rememberAuthDomain('localhost', jar, false);
    expect(jar.cookie).not.toContain('Secure');
  });
});

describe('the cross-domain hand-off (spec §4)', () => {
  it('goes to the page asked for on the home host, with the token, the auth-redir flag and staySignedIn', () => {
    expect(handoffUrl('http://acme.ferry.test:8080', 'a.b.c', true, '/dashboard?tab=2')).toBe(
      'http://acme.ferry.test:8080/dashboard?tab=2&customToken=a.b.c&authRedir=true&staySignedIn=true',
    );
    expect(handoffUrl('https://files.acme.com', 'a.b.c', false, null)).toBe(
      'https://files.acme.com/?customToken=a.b.c&authRedir=true',
    );
    // `next` is a path of the app: another site's address is never followed.
    expect(handoffUrl('https://files.acme.com', 't', false, '//evil.example/x')).toBe(
      'https://files.acme.com/?customToken=t&authRedir=true',
    );
    expect(handoffUrl('https://files.acme.com', 't', false, 'https://evil.example/')).toBe(
      'https://files.acme.com/?customToken=t&authRedir=true',
    );
  });

  it('reads the auth-redir flag and takes it out of the address with the token', () => {
    expect(readHandoff('?customToken=a.b.c&authRedir=true&staySignedIn=true')).toEqual({
      kind: 'customToken',
      token: 'a.b.c',
      staySignedIn: true,
      authRedir: true,
    });
    expect(
      withoutHandoff({
        pathname: '/x',
        search: '?q=1&customToken=a.b.c&authRedir=true&staySignedIn=true',
        hash: '',
      }),
    ).toBe('/x?q=1');
  });
});
