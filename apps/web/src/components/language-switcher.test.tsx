import { LOCALE_TABLE } from '@ferry/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AuthProvider } from '../features/auth/auth-context';
import { ToastProvider } from '../features/toasts/toast-context';
import { i18next, LOCALE_STORAGE_KEY, UI_LOCALES } from '../i18n';
import { json, mockApi } from '../test/api-mock';
import { anonymousState, signedInState } from '../test/fixtures';
import { byTestId, type Rendered, render, settle, until } from '../test/render';
import { LanguageSwitcher, navigation } from './language-switcher';

/** The switcher on a page at `path`, under the router's `basename` as main.tsx sets it for a prefixed URL. */
async function open(path: string, basename?: string): Promise<HTMLSelectElement> {
  const router = createMemoryRouter([{ path: '*', element: <LanguageSwitcher /> }], {
    initialEntries: [path],
    ...(basename ? { basename } : {}),
  });
  view = await render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  await settle();
  return byTestId<HTMLSelectElement>(view.container, 'language-switcher');
}

async function pick(select: HTMLSelectElement, code: string): Promise<void> {
  await act(async () => {
    select.value = code;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function key(select: HTMLSelectElement, name: string): Promise<void> {
  await act(async () => {
    select.dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true }));
  });
}

let view: Rendered;
let assign: ReturnType<typeof vi.fn<(url: string) => void>>;

describe('the language switcher', () => {
  beforeEach(() => {
    localStorage.clear();
    assign = vi.fn<(url: string) => void>();
    vi.spyOn(navigation, 'assign').mockImplementation(assign);
  });
  afterEach(async () => {
    await view?.unmount();
    await i18next.changeLanguage('en');
    vi.unstubAllGlobals();
  });

  it('lists every language in its own name, labelled, showing the current one', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    const select = await open('/prices');
    const names = [...select.options].map((option) => option.textContent);
    expect(names).toEqual(
      UI_LOCALES.map((code) => LOCALE_TABLE.find((row) => row.code === code)?.nativeName),
    );
    expect(names).toContain('日本語');
    expect(names).toContain('العربية');
    expect(select.value).toBe('en');
    expect(view.container.querySelector(`label[for="${CSS.escape(select.id)}"]`)?.textContent).toBe(
      'Language',
    );
    expect(select.querySelector('option[value="jp"]')?.getAttribute('lang')).toBe('ja');
    expect(select.querySelector('option[value="ar"]')?.getAttribute('dir')).toBe('rtl');
  });

  it('loads the same page under the new prefix and remembers the choice', async () => {
    const api = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    const select = await open('/dl/AbCd?x=1#files');
    await pick(select, 'jp');
    await until(() => assign.mock.calls.length > 0, 'the page load');
    expect(assign).toHaveBeenCalledWith('/jp/dl/AbCd?x=1#files');
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('jp');
    // Signed out: no account to save the language to.
    expect(api.calls.filter((call) => call.method === 'PATCH')).toEqual([]);
  });

  it('goes to the bare path for English, from a prefixed page', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    await act(async () => {
      await i18next.changeLanguage('fr');
    });
    const select = await open('/fr/dashboard/transfers', '/fr');
    expect(select.value).toBe('fr');
    await pick(select, 'en');
    await until(() => assign.mock.calls.length > 0, 'the page load');
    expect(assign).toHaveBeenCalledWith('/dashboard/transfers');
  });

  it("saves the signed-in account's language through the profile call", async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'PATCH /api/user/users/u_1': () => json({}),
    });
    const select = await open('/dashboard');
    await pick(select, 'de');
    await until(() => assign.mock.calls.length > 0, 'the page load');
    expect(api.to('PATCH /api/user/users/u_1')[0]?.body).toEqual({ locale: 'de' });
    expect(assign).toHaveBeenCalledWith('/de/dashboard');
  });

  it('lets the keyboard browse with the arrows and switches on Enter only', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    const select = await open('/');
    await key(select, 'ArrowDown');
    await pick(select, 'fr');
    await settle();
    expect(assign).not.toHaveBeenCalled();
    expect(select.value).toBe('fr');
    await key(select, 'Enter');
    await until(() => assign.mock.calls.length > 0, 'the page load');
    expect(assign).toHaveBeenCalledWith('/fr');
  });
});
