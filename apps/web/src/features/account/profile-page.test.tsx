import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { navigation } from '../../components/language-switcher';
import { changeLocale } from '../../i18n';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { RequireAuth } from '../auth/require-auth';
import { userProfile } from './profile.fixture';
import { firstnameUpdate } from './profile-form';
import { ProfilePage } from './profile-page';

const routes = [
  { element: <RequireAuth />, children: [{ path: '/account/profile', element: <ProfilePage /> }] },
];

describe('/account/profile: first name and language', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    await changeLocale('en');
    vi.unstubAllGlobals();
  });

  async function open() {
    view = await render(authHarness(routes, '/account/profile').ui);
    await settle();
    return view.container;
  }

  it('saves the first name with PATCH /api/user/users/{id} and the display name follows', async () => {
    const api = mockApi({
      'GET /api/auth/me': [
        () => json(signedInState()),
        () =>
          json(
            signedInState({
              user: { uid: 'u_1', email: 'ada@example.com', displayName: 'Ada L.', locale: null },
            }),
          ),
      ],
      'GET /api/user/users/u_1': () => json(userProfile()),
      'PATCH /api/user/users/u_1': () => json(userProfile({ info: { firstname: 'Ada L.' } })),
    });
    const root = await open();
    const input = byTestId<HTMLInputElement>(root, 'profile-firstname');
    expect(input.value).toBe('Ada');
    expect(root.querySelector(`label[for="${CSS.escape(input.id)}"]`)?.textContent).toBe('First name');
    await typeInto(input, '  Ada L. ');
    await click(byTestId(root, 'profile-save'));
    await settle();
    expect(api.to('PATCH /api/user/users/u_1')[0]?.body).toEqual({ info: { firstname: 'Ada L.' } });
    expect(root.textContent).toContain('Your profile is saved.');
    expect(input.value).toBe('Ada L.');
    expect(api.to('GET /api/auth/me')).toHaveLength(2);
    // Nothing changed: nothing is sent.
    await click(byTestId(root, 'profile-save'));
    await settle();
    expect(api.to('PATCH /api/user/users/u_1')).toHaveLength(1);
  });

  it("saves the account's language, then loads the page in it", async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      'PATCH /api/user/users/u_1': () => json(userProfile()),
    });
    const root = await open();
    const language = byTestId<HTMLSelectElement>(root, 'profile-language');
    expect(language.value).toBe('en');
    expect([...language.options].map((o) => o.textContent)).toContain('Français');
    expect([...language.options].map((o) => o.textContent)).toContain('日本語');
    await act(async () => {
      language.value = 'jp';
      language.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await click(byTestId(root, 'profile-save'));
    await until(() => assign.mock.calls.length > 0, 'the page load');
    expect(api.to('PATCH /api/user/users/u_1')[0]?.body).toEqual({ locale: 'jp' });
    expect(assign).toHaveBeenCalledWith('/jp/account/profile');
    expect(localStorage.getItem('ferry.locale')).toBe('jp');
  });

  it('tells a refused save and stays in the language shown', async () => {
    const assign = vi.spyOn(navigation, 'assign').mockImplementation(() => undefined);
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      'PATCH /api/user/users/u_1': () => coded(400, 'VALIDATION_FAILED'),
    });
    const root = await open();
    const language = byTestId<HTMLSelectElement>(root, 'profile-language');
    await act(async () => {
      language.value = 'fr';
      language.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await click(byTestId(root, 'profile-save'));
    await settle();
    expect(byTestId(root, 'profile-error').textContent).toContain('Some information is not valid');
    expect(assign).not.toHaveBeenCalled();
    expect(document.documentElement.lang).toBe('en');
  });

  it('shows loading, then a load error with a retry', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': [
        () => coded(503, 'UNAVAILABLE'),
        () => json(userProfile({ info: { firstname: null } })),
      ],
    });
    const root = await open();
    expect(byTestId(root, 'profile-load-error').textContent).toContain('briefly unavailable');
    expect(byTestId(root, 'profile-email').textContent).toBe('ada@example.com');
    await click(byTestId(root, 'profile-load-error').querySelector('button') as HTMLElement);
    await settle();
    expect(byTestId<HTMLInputElement>(root, 'profile-firstname').value).toBe('');
  });

  it('sends a trimmed first name, null for an empty one, nothing when unchanged', () => {
    expect(firstnameUpdate(' Zoé ', 'Ada')).toEqual({ info: { firstname: 'Zoé' } });
    expect(firstnameUpdate('   ', 'Ada')).toEqual({ info: { firstname: null } });
    expect(firstnameUpdate('Ada ', 'Ada')).toBeUndefined();
    expect(firstnameUpdate('', null)).toBeUndefined();
  });
});
