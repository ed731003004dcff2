import type { AuthState } from '@ferry/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../i18n';
import { json, mockApi } from '../../test/api-mock';
import { anonymousState, signedInState } from '../../test/fixtures';
import { type Rendered, render, settle } from '../../test/render';
import { AuthProvider } from '../auth/auth-context';
import { ToastProvider } from '../toasts/toast-context';
import { countryName, MadeInBanner } from './made-in-banner';
import { MAIN_DOMAIN_FR, setSiteConfig } from './visitors.fixture';

let view: Rendered | undefined;

async function show(me: AuthState | 'pending', settings: Parameters<typeof setSiteConfig>[0]) {
  mockApi({ 'GET /api/auth/me': () => (me === 'pending' ? new Promise<Response>(() => {}) : json(me)) });
  setSiteConfig(settings);
  view = await render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <AuthProvider>
          <MadeInBanner />
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  await settle();
  return view.container.querySelector('[data-testid="made-in-banner"]');
}

describe('the "Made in" banner', () => {
  afterEach(async () => {
    await view?.unmount();
    view = undefined;
    setSiteConfig(null);
    await act(async () => {
      await i18next.changeLanguage('en');
    });
    vi.unstubAllGlobals();
  });

  it('is shown to signed-out visitors on the main domain, naming the configured country', async () => {
    const banner = await show(anonymousState(), MAIN_DOMAIN_FR);
    expect(banner?.textContent).toBe('Made in France');
  });

  it('names the country in the page’s language', async () => {
    await act(async () => {
      await i18next.changeLanguage('fr');
    });
    expect((await show(anonymousState(), { madeInCountry: 'DE', mainDomain: true }))?.textContent).toBe(
      'Pays d’origine\u00a0: Allemagne',
    );
  });

  it('is not shown to a signed-in user', async () => {
    expect(await show(signedInState(), MAIN_DOMAIN_FR)).toBeNull();
  });

  it('is not shown while it is not yet known whether the visitor is signed in', async () => {
    expect(await show('pending', MAIN_DOMAIN_FR)).toBeNull();
    expect(await show('pending', { ...MAIN_DOMAIN_FR, sessionCookie: true })).toBeNull();
  });

  it('is shown at once, before the session is asked, when the page came without a session cookie', async () => {
    expect((await show('pending', { ...MAIN_DOMAIN_FR, sessionCookie: false }))?.textContent).toBe(
      'Made in France',
    );
    // the answer has the last word: a cookie's session that turns out signed in hides it
    expect(await show(signedInState(), { ...MAIN_DOMAIN_FR, sessionCookie: false })).toBeNull();
  });

  it('is not shown off the main domain', async () => {
    expect(await show(anonymousState(), { madeInCountry: 'FR', mainDomain: false })).toBeNull();
  });

  it('is turned off by an empty country, a missing or an unreadable setting', async () => {
    expect(await show(anonymousState(), { madeInCountry: '', mainDomain: true })).toBeNull();
    await view?.unmount();
    expect(await show(anonymousState(), null)).toBeNull();
    await view?.unmount();
    expect(await show(anonymousState(), '{"madeInCountry":"FR","mainDomain":tru')).toBeNull();
  });
});

describe('countryName', () => {
  it('names a country in each language through its BCP 47 tag', () => {
    expect(countryName('FR', 'en')).toBe('France');
    expect(countryName('FR', 'jp')).toBe('フランス');
    expect(countryName('DE', 'ccs')).toBe('Německo');
  });

  it('has no name for a code Intl does not know', () => {
    expect(countryName('XX', 'en')).toBeNull();
  });
});
