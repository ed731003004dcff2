import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { i18next, LOCALE_STORAGE_KEY } from '../../i18n';
import { json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { type Rendered, render, settle, until } from '../../test/render';
import { ToastProvider } from '../toasts/toast-context';
import { AccountLanguage } from './account-language';
import { AuthProvider } from './auth-context';

const ada = (locale: string | null) =>
  signedInState({ user: { uid: 'u_1', email: 'ada@example.com', displayName: 'Ada', locale } });

describe("the account's language", () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    await i18next.changeLanguage('en');
    window.history.replaceState(null, '', '/');
  });

  async function open(path: string) {
    window.history.replaceState(null, '', path);
    view = await render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <AuthProvider>
            <AccountLanguage />
          </AuthProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    await settle();
  }

  it('is taken on a bare path once the auth state is known, and remembered', async () => {
    mockApi({ 'GET /api/auth/me': () => json(ada('kr')) });
    localStorage.setItem(LOCALE_STORAGE_KEY, 'fr');
    await open('/dashboard/transfers');
    await until(() => i18next.language === 'kr', 'the Korean texts');
    expect(document.documentElement.lang).toBe('ko');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('kr');
  });

  it("gives way to the URL's prefix", async () => {
    mockApi({ 'GET /api/auth/me': () => json(ada('kr')) });
    await i18next.changeLanguage('fr');
    await open('/fr/dashboard/transfers');
    expect(i18next.language).toBe('fr');
    // Nothing switched (a switch remembers its language at once, before the texts load).
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBeNull();
  });

  it('leaves a site page at its bare path in English', async () => {
    mockApi({ 'GET /api/auth/me': () => json(ada('kr')) });
    await open('/prices');
    expect(i18next.language).toBe('en');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBeNull();
  });

  it('changes nothing when the account has no language', async () => {
    mockApi({ 'GET /api/auth/me': () => json(ada(null)) });
    await open('/dashboard');
    expect(i18next.language).toBe('en');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBeNull();
  });
});
