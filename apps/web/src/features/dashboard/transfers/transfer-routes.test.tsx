import { afterEach, describe, expect, it, vi } from 'vitest';
import { routes } from '../../../router';
import { json, mockApi } from '../../../test/api-mock';
import { signedInState } from '../../../test/fixtures';
import { click, type Rendered, render, until } from '../../../test/render';
import { userProfile } from '../../account/profile.fixture';
import { appHarness, type FakeScreen, fakeScreen } from '../dashboard.fixture';
import { forgetReturnPage } from '../return-page';
import { listItem, listPage, transferDetail } from './transfers.fixture';

/** The app's own routes: the list and the detail are real pages in the full-width panel, linked together. */
describe('transfer routes', () => {
  let view: Rendered;
  let screen: FakeScreen;
  afterEach(async () => {
    await view?.unmount();
    screen.restore();
    vi.unstubAllGlobals();
  });

  it('opens the list, the menu links it, and a row leads to the transfer’s detail', async () => {
    localStorage.clear();
    forgetReturnPage();
    screen = fakeScreen();
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      'GET /api/transfer/transfers': () => json(listPage([listItem()])),
      'GET /api/transfer/transfers/AbCdEfGhIjKlMnOp/detail': () => json(transferDetail()),
    });
    const harness = appHarness(routes, '/dashboard/transfers');
    view = await render(harness.ui);
    const find = (selector: string) => view.container.querySelector<HTMLElement>(selector);
    await until(() => find('[data-testid="transfer-name"]') !== null, 'the list', 5000);
    expect(find('[data-testid="menu-transfers"]')?.tagName).toBe('A');
    expect(find('[data-testid="slide-panel"]')?.dataset.state).toBe('full');
    await click(find('[data-testid="transfer-name"]') as HTMLElement);
    await until(() => find('[data-testid="transfer-title"]') !== null, 'the detail', 5000);
    expect(harness.router.state.location.pathname).toBe('/dashboard/transfers/AbCdEfGhIjKlMnOp');
  });
});
