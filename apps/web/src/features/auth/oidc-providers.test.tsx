import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import en from '../../i18n/locales/en.json';
import fr from '../../i18n/locales/fr.json';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { OIDC_ERROR_CODES, oidcErrorKey } from './oidc-providers';
import { RegisterPage } from './register-page';
import { SignInPage } from './signin-page';

const routes = [
  { path: '/signin', element: <SignInPage /> },
  { path: '/register', element: <RegisterPage /> },
];
const PROVIDERS = [
  { name: 'google', label: 'Google' },
  { name: 'microsoft', label: 'Microsoft' },
  { name: 'apple', label: 'Apple' },
  { name: 'corp', label: 'Acme SSO' },
];

function links(root: ParentNode): HTMLAnchorElement[] {
  return [...root.querySelectorAll<HTMLAnchorElement>('[data-testid="oidc-provider"]')];
}

describe('OpenID Connect providers on /signin and /register', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(path: string) {
    view = await render(authHarness(routes, path).ui);
    await settle();
    return view.container;
  }

  it('offers every provider the server lists, as links to its start URL with next and the device', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'GET /api/auth/oidc/providers': () => json(PROVIDERS),
    });
    const root = await open('/signin?next=%2Faccount%2Fsecurity');
    const found = links(root);
    expect(found.map((a) => a.textContent)).toEqual([
      'Continue with Google',
      'Continue with Microsoft',
      'Continue with Apple',
      'Continue with Acme SSO',
    ]);
    // Plain links: reachable with Tab, followed with Enter, no script needed.
    expect(found.every((a) => a.tagName === 'A' && a.tabIndex === 0)).toBe(true);
    const google = new URL(found[0]?.getAttribute('href') ?? '', 'http://x');
    expect(google.pathname).toBe('/api/auth/oidc/google/start');
    expect(google.searchParams.get('next')).toBe('/account/security');
    expect(google.searchParams.get('deviceId')).toMatch(/^[0-9a-f-]{36}$/);
    expect(google.searchParams.has('staySignedIn')).toBe(false);
    // Each provider has its mark; the generic issuer a key.
    expect(found.every((a) => a.querySelector('svg[aria-hidden="true"]'))).toBe(true);
    // "Stay signed in" goes with the provider sign-in too.
    await click(byTestId(root, 'signin-stay'));
    const stay = new URL(links(root)[3]?.getAttribute('href') ?? '', 'http://x');
    expect(stay.pathname).toBe('/api/auth/oidc/corp/start');
    expect(stay.searchParams.get('staySignedIn')).toBe('true');
    // Below the form: the tab order of the e-mail sign-in is unchanged.
    const form = byTestId(root, 'signin-form');
    expect(form.compareDocumentPosition(found[0] as Node) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('shows nothing extra when there are no providers or they cannot be listed', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'GET /api/auth/oidc/providers': () => json([]),
    });
    let root = await open('/signin');
    expect(root.querySelector('[data-testid="oidc-providers"]')).toBeNull();
    await view.unmount();
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'GET /api/auth/oidc/providers': () => coded(503, 'UNAVAILABLE'),
    });
    root = await open('/signin');
    expect(root.querySelector('[data-testid="oidc-providers"]')).toBeNull();
    expect(byTestId(root, 'signin-form')).toBeTruthy();
  });

  it('offers sign-up with the providers on /register, landing home', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'GET /api/auth/oidc/providers': () => json(PROVIDERS.slice(0, 1)),
    });
    const root = await open('/register');
    const [google] = links(root);
    expect(google?.textContent).toBe('Sign up with Google');
    const url = new URL(google?.getAttribute('href') ?? '', 'http://x');
    expect(url.searchParams.has('next')).toBe(false);
    expect(byTestId(root, 'register-enterprise').getAttribute('href')).toBe('/register/enterprise');
  });

  it('carries the plan picked on /register to the provider sign-up, and none from /signin', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'GET /api/auth/oidc/providers': () => json(PROVIDERS.slice(0, 2)),
    });
    let root = await open('/register?type=TEAM10&frequency=MONTHLY');
    const urls = links(root).map((a) => new URL(a.getAttribute('href') ?? '', 'http://x'));
    expect(urls.map((u) => u.pathname)).toEqual([
      '/api/auth/oidc/google/start',
      '/api/auth/oidc/microsoft/start',
    ]);
    for (const url of urls) {
      expect(url.searchParams.get('plan')).toBe('TEAM10');
      expect(url.searchParams.get('frequency')).toBe('MONTHLY');
      expect(url.searchParams.has('trial')).toBe(false);
      expect(url.searchParams.get('deviceId')).toMatch(/^[0-9a-f-]{36}$/);
    }
    await view.unmount();
    root = await open('/register?type=PREMIUM&frequency=ANNUAL&trial=true');
    const premium = new URL(links(root)[0]?.getAttribute('href') ?? '', 'http://x');
    expect(Object.fromEntries(premium.searchParams)).toMatchObject({
      plan: 'PREMIUM',
      frequency: 'ANNUAL',
      trial: 'true',
    });
    await view.unmount();
    for (const path of ['/register', '/register?type=GOLD&frequency=ANNUAL', '/signin?type=PREMIUM']) {
      root = await open(path);
      const url = new URL(links(root)[0]?.getAttribute('href') ?? '', 'http://x');
      expect(url.searchParams.has('plan'), path).toBe(false);
      expect(url.searchParams.has('frequency'), path).toBe(false);
      await view.unmount();
    }
  });

  it('tells why a provider sign-in failed (/signin?error=<code>), in an alert', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'GET /api/auth/oidc/providers': () => json(PROVIDERS),
    });
    let root = await open('/signin?error=cancelled');
    const alert = byTestId(root, 'signin-oidc-error');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toBe('The sign-in was cancelled at the provider. You are still signed out.');
    await view.unmount();
    root = await open('/signin?error=whatever');
    expect(byTestId(root, 'signin-oidc-error').textContent).toBe(
      'The sign-in with this provider did not work. Please try again.',
    );
    await view.unmount();
    root = await open('/signin');
    expect(root.querySelector('[data-testid="signin-oidc-error"]')).toBeNull();
  });

  it('has a message for every code of the server, in English and French', () => {
    expect(oidcErrorKey(null)).toBeNull();
    expect(oidcErrorKey('account_suspended')).toBe('errors:code.ACCOUNT_SUSPENDED');
    for (const code of OIDC_ERROR_CODES) {
      const key = (oidcErrorKey(code) ?? '').replace('auth:', '') as keyof typeof en.auth;
      expect(en.auth[key], code).toBeTruthy();
      expect(fr.auth[key], code).toBeTruthy();
    }
  });
});
