import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { initialOf } from './user-menu';

const routes = [{ path: '/page', element: <p>page</p> }];

describe('header user menu', () => {
  let view: Rendered;
  beforeEach(() => {
    vi.stubGlobal(
      'confirm',
      vi.fn(() => true),
    );
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('offers "Sign in" (coming back here after) to anonymous visitors', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(routes, '/page?x=1').ui);
    await settle();
    expect(byTestId(view.container, 'header-signin').getAttribute('href')).toBe(
      '/signin?next=%2Fpage%3Fx%3D1',
    );
    expect(view.container.querySelector('[data-testid="user-menu-button"]')).toBeNull();
  });

  it('opens and closes by keyboard, shows e-mail and plan, and signs out', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'TEAM' })),
      'GET /api/auth/auth/sign-out': () => json({ revoked: 1 }),
    });
    view = await render(authHarness(routes, '/page').ui);
    await settle();
    const root = view.container;
    const button = byTestId(root, 'user-menu-button');
    const panel = byTestId(root, 'user-menu');
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(button.getAttribute('aria-label')).toBe('A ada@example.com: account menu');
    // Label in name (WCAG 2.5.3): the accessible name contains the visible text, letter included, in order.
    const visible = [...button.querySelectorAll('span')].map((s) => s.textContent).join(' ');
    expect(visible).toBe('A ada@example.com');
    expect(button.getAttribute('aria-label')?.startsWith(visible)).toBe(true);
    expect(button.getAttribute('aria-controls')).toBe(panel.id);
    expect(panel.hidden).toBe(true);
    expect(button.querySelector('.avatar')?.textContent).toBe('A');
    await click(button);
    expect(button.getAttribute('aria-expanded')).toBe('true');
    expect(panel.hidden).toBe(false);
    expect(byTestId(root, 'user-menu-email').textContent).toBe('ada@example.com');
    expect(byTestId(root, 'user-menu-plan').textContent).toBe('Team');
    expect(byTestId(root, 'user-menu-dashboard').getAttribute('href')).toBe('/dashboard');
    expect(byTestId(root, 'user-menu-account').getAttribute('href')).toBe('/account/profile');
    byTestId(root, 'user-menu-account').focus();
    await act(async () => {
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    });
    expect(panel.hidden).toBe(true);
    expect(document.activeElement).toBe(button);

    await click(button);
    await click(byTestId(root, 'user-menu-signout'));
    await settle();
    expect(api.to('GET /api/auth/auth/sign-out')[0]?.query.has('revokeAllSessions')).toBe(false);
    expect(byTestId(root, 'header-signin')).toBeTruthy();
    expect(root.textContent).toContain('You are signed out.');
  });

  it('signs out everywhere from the menu after confirmation', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/auth/auth/sign-out': () => json({ revoked: 4 }),
    });
    view = await render(authHarness(routes, '/page').ui);
    await settle();
    await click(byTestId(view.container, 'user-menu-button'));
    await click(byTestId(view.container, 'user-menu-signout-all'));
    await settle();
    expect(window.confirm).toHaveBeenCalledWith('Sign out on every device, this one included?');
    expect(api.to('GET /api/auth/auth/sign-out')[0]?.query.get('revokeAllSessions')).toBe('true');
    expect(view.container.textContent).toContain('You are signed out on every device.');
  });

  it('keeps the user signed in, saying why, when sign-out fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        if (url.startsWith('/api/auth/me')) return json(signedInState());
        throw new TypeError('Failed to fetch');
      }),
    );
    view = await render(authHarness(routes, '/page').ui);
    await settle();
    await click(byTestId(view.container, 'user-menu-button'));
    await click(byTestId(view.container, 'user-menu-signout'));
    await settle();
    expect(view.container.textContent).toContain('The server cannot be reached');
    expect(byTestId(view.container, 'user-menu-button')).toBeTruthy();
  });

  it('uses the first letter of the name, else of the address', () => {
    expect(initialOf('élodie', 'x@example.com')).toBe('É');
    expect(initialOf(null, 'bob@example.com')).toBe('B');
    expect(initialOf('  ', '')).toBe('?');
  });
});
