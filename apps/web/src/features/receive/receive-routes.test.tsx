import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../router';
import { json, mockApi } from '../../test/api-mock';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, until } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness, type FakeScreen, fakeScreen } from '../dashboard/dashboard.fixture';
import { forgetReturnPage } from '../dashboard/return-page';
import { pointView } from './receive.fixture';

/** The app's own routes (router.tsx): receive mode behind the panel, and the receive pages' frame. */
describe('receive routes (spec §2, §4)', () => {
  let view: Rendered;
  let screen: FakeScreen;
  let harness: ReturnType<typeof appHarness>;

  beforeEach(() => {
    localStorage.clear();
    forgetReturnPage();
    screen = fakeScreen();
  });
  afterEach(async () => {
    await view?.unmount();
    screen.restore();
    vi.unstubAllGlobals();
  });

  const find = (selector: string) => view.container.querySelector<HTMLElement>(selector);
  async function open(path: string) {
    harness = appHarness(routes, path);
    view = await render(harness.ui);
    return view.container;
  }
  async function go(path: string) {
    await act(async () => {
      await harness.router.navigate(path);
    });
  }

  it('switches to receive mode at /request-files, keeps it behind the dashboard, and turns it off at /', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
    });
    const root = await open('/request-files#S2');
    await until(() => find('[data-testid="request-subject"]') !== null, 'the receiver', 5000);
    expect(byTestId(root, 'main-frame').dataset.panel).toBe('closed');

    // The dashboard opens over the receiver, which stays as it was.
    const receiver = find('[data-testid="receiver-page"]');
    await go('/dashboard');
    await until(() => find('[data-testid="page-dashboard"]') !== null, 'the overview', 5000);
    expect(find('[data-testid="receiver-page"]')).toBe(receiver);
    expect(find('[data-testid="dropzone"]')).toBeNull();
    await click(byTestId(root, 'slide-panel-close'));
    await until(() => find('[data-testid="slide-panel"]') === null, 'the panel to close', 2000);
    const { pathname, hash } = harness.router.state.location;
    expect(`${pathname}${hash}`).toBe('/request-files#S2');

    // Leaving to /: the uploader, fresh (the receiver's state is gone: spec §4 reset).
    await go('/');
    await until(() => find('[data-testid="dropzone"]') !== null, 'the uploader', 5000);
    expect(find('[data-testid="receiver-page"]')).toBeNull();
    await go('/dashboard');
    await until(() => find('[data-testid="page-dashboard"]') !== null, 'the overview', 5000);
    expect(find('[data-testid="dropzone"]')).not.toBeNull();
  });

  it('shows the limited layout to signed-out visitors of an upload page, themed with its colours', async () => {
    mockApi({
      'GET /api/auth/me': () => json(anonymousState()),
      'GET /api/receive/points/inbox/studio': () =>
        json(
          pointView({
            kind: 'inbox',
            id: 'studio',
            ownerName: null,
            title: 'Studio',
            theme: { backgroundColor: '#112233', actionColor: '#445566', startbtnColor: '#778899' },
          }),
        ),
    });
    const root = await open('/i/Studio');
    await until(() => find('[data-testid="dropzone"]') !== null, 'the upload page', 5000);
    const frame = byTestId(root, 'limited-layout');
    expect(frame.querySelector('a.brand')).toBeNull();
    expect(find('[data-testid="header-signin"]')).toBeNull();
    expect(frame.style.getPropertyValue('--color-primary')).toBe('#112233');
    expect(frame.style.getPropertyValue('--color-start')).toBe('#778899');
    expect(byTestId(root, 'receive-title').textContent).toBe('Transfer files to Studio');
  });
});
