import type { AuthState } from '@ferry/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SITE_FOOTER_LINKS } from '../components/site-footer';
import { AuthProvider } from '../features/auth/auth-context';
import { ToastProvider } from '../features/toasts/toast-context';
import { MAIN_DOMAIN_FR, setSiteConfig } from '../features/visitors/visitors.fixture';
import { i18next } from '../i18n';
import { json, mockApi } from '../test/api-mock';
import { anonymousState, signedInState } from '../test/fixtures';
import { byTestId, type Rendered, render, settle } from '../test/render';
import { RootLayout } from './root-layout';

let view: Rendered | undefined;

/** The app's frame at `path`, under the router's basename as main.tsx sets it for a prefixed address. */
async function open(path: string, me: AuthState = anonymousState(), basename?: string): Promise<HTMLElement> {
  mockApi({ 'GET /api/auth/me': () => json(me) });
  const router = createMemoryRouter(
    [{ path: '/', element: <RootLayout />, children: [{ index: true, element: <p>home</p> }] }],
    { initialEntries: [path], ...(basename ? { basename } : {}) },
  );
  view = await render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <ToastProvider>
        <AuthProvider>
          <RouterProvider router={router} />
        </AuthProvider>
      </ToastProvider>
    </QueryClientProvider>,
  );
  await settle();
  return view.container;
}

function footerLinks(root: ParentNode): Array<[string | null, string | null]> {
  return [...root.querySelectorAll('footer nav a')].map((a) => [a.getAttribute('href'), a.textContent]);
}

describe('the frame of every page', () => {
  afterEach(async () => {
    await view?.unmount();
    view = undefined;
    setSiteConfig(null);
    await act(async () => {
      await i18next.changeLanguage('en');
    });
    vi.unstubAllGlobals();
  });

  it('links the footer to the site’s pages as plain links, and to the prices', async () => {
    const root = await open('/');
    const nav = root.querySelector('footer nav');
    expect(nav?.getAttribute('aria-label')).toBe('More about Ferry');
    expect(footerLinks(root)).toEqual([
      ['/features', 'Features'],
      ['/how-to', 'How-to guides'],
      ['/support', 'Support'],
      ['/about', 'About'],
      ['/terms', 'Terms'],
      ['/privacy-gdpr', 'Privacy'],
      ['/cookies', 'Cookies'],
      ['/legal', 'Legal notice'],
      ['/prices', 'Prices'],
    ]);
    expect(SITE_FOOTER_LINKS).toHaveLength(8);
    expect(root.querySelector('footer')?.textContent).toContain('Large file transfers, simply.');
  });

  it('keeps the language prefix on every footer link', async () => {
    await act(async () => {
      await i18next.changeLanguage('fr');
    });
    const root = await open('/fr', anonymousState(), '/fr');
    expect(byTestId(root, 'footer-link-terms').getAttribute('href')).toBe('/fr/terms');
    expect(footerLinks(root)).toEqual([
      ['/fr/features', 'Fonctionnalités'],
      ['/fr/how-to', 'Guides pratiques'],
      ['/fr/support', 'Assistance'],
      ['/fr/about', 'À propos'],
      ['/fr/terms', 'Conditions d’utilisation'],
      ['/fr/privacy-gdpr', 'Confidentialité'],
      ['/fr/cookies', 'Gestion des cookies'],
      ['/fr/legal', 'Mentions légales'],
      ['/fr/prices', 'Tarifs'],
    ]);
  });

  it('shows the "Made in" banner above the header to signed-out visitors of the main domain only', async () => {
    setSiteConfig(MAIN_DOMAIN_FR);
    let root = await open('/');
    const banner = byTestId(root, 'made-in-banner');
    expect(banner.textContent).toBe('Made in France');
    expect(banner.nextElementSibling?.tagName).toBe('HEADER');
    expect(root.querySelector('.skip-link')?.compareDocumentPosition(banner)).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
    await view?.unmount();
    root = await open('/', signedInState());
    expect(root.querySelector('header')).not.toBeNull();
    expect(root.querySelector('[data-testid="made-in-banner"]')).toBeNull();
  });
});
