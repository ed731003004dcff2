import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, type Handler, json, mockApi } from '../../../test/api-mock';
import { signedInState } from '../../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../../test/render';
import { userProfile } from '../../account/profile.fixture';
import { appHarness, type FakeScreen, fakeScreen } from '../dashboard.fixture';
import { TransferListPage } from './transfer-list-page';
import { listItem, listPage } from './transfers.fixture';

const routes = [{ path: '/dashboard/transfers', element: <TransferListPage /> }];
const LIST = 'GET /api/transfer/transfers';

describe('/dashboard/transfers', () => {
  let view: Rendered;
  let screen: FakeScreen | undefined;
  afterEach(async () => {
    await view?.unmount();
    screen?.restore();
    screen = undefined;
    vi.unstubAllGlobals();
  });

  async function open(list: Handler | Handler[]) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [LIST]: list,
    });
    view = await render(appHarness(routes, '/dashboard/transfers').ui);
    await settle();
    return { root: view.container, api };
  }

  const rows = (root: HTMLElement) => [...root.querySelectorAll('[data-testid="transfer-row"]')];

  it('lists sent transfers with name, type, status label, size, expiry and activity, and the storage', async () => {
    const { root, api } = await open(() =>
      json(
        listPage([
          listItem(),
          listItem({
            id: 'ZZZZZZZZZZZZZZZ1',
            type: 'S2',
            status: 'RETAINED',
            statusLabel: 'deleted',
            name: 'a-very-long-report-name-for-the-board.pdf',
            expired: true,
            recipientCount: null,
            downloadCount: 4,
          }),
        ]),
      ),
    );
    const [first, second] = rows(root);
    expect(byTestId(first as HTMLElement, 'transfer-name').textContent).toBe('Holiday photos');
    expect(first?.textContent).toContain('By e-mail');
    expect(byTestId(first as HTMLElement, 'transfer-status').textContent).toBe('enabled');
    expect(byTestId(first as HTMLElement, 'transfer-size').textContent).toBe('1.50 MB');
    expect(byTestId(first as HTMLElement, 'transfer-expiry').textContent).toBe('until January 8, 2030');
    expect(byTestId(first as HTMLElement, 'transfer-activity').textContent).toBe('1 download · 3 recipients');
    const name = byTestId(second as HTMLElement, 'transfer-name');
    expect(name.textContent).toBe('a-very-long-report...pdf');
    expect(name.getAttribute('title')).toBe('a-very-long-report-name-for-the-board.pdf');
    expect(name.getAttribute('href')).toBe('/dashboard/transfers/ZZZZZZZZZZZZZZZ1');
    expect(byTestId(second as HTMLElement, 'transfer-status').textContent).toBe('deleted');
    expect(byTestId(second as HTMLElement, 'transfer-expiry').textContent).toBe('expired');
    expect(byTestId(second as HTMLElement, 'transfer-activity').textContent).toBe('4 downloads');
    expect(byTestId(root, 'transfers-storage').textContent).toBe('250 GB used of 1.00 TB');
    expect(byTestId(root, 'transfers-total').textContent).toBe('2 transfers');
    const query = api.to(LIST)[0]?.query;
    expect(query?.get('direction')).toBe('sent');
    expect(query?.get('sort')).toBe('createdAt');
    expect(query?.get('dir')).toBe('desc');
  });

  it('searches once typing pauses, and sends the type, status label and sort filters', async () => {
    const { root, api } = await open((call) =>
      json(listPage(call.query.get('type') === 'S2' ? [] : [listItem()])),
    );
    const search = byTestId<HTMLInputElement>(root, 'transfers-search');
    await typeInto(search, 'h');
    await typeInto(search, 'ho');
    await typeInto(search, 'hol');
    expect(api.to(LIST)).toHaveLength(1);
    await until(() => api.to(LIST).some((c) => c.query.get('q') === 'hol'), 'the search');
    expect(api.to(LIST).filter((c) => c.query.has('q'))).toHaveLength(1);

    const change = async (testId: string, value: string) => {
      const select = byTestId<HTMLSelectElement>(root, testId);
      select.value = value;
      select.dispatchEvent(new Event('change', { bubbles: true }));
      await settle();
    };
    await change('filter-type', 'S2');
    await change('filter-status', 'pending');
    await change('transfers-sort', 'size:desc');
    const last = api.to(LIST).at(-1)?.query;
    expect(last?.get('q')).toBe('hol');
    expect(last?.get('type')).toBe('S2');
    expect(last?.get('status')).toBe('MODERATING,PENDING');
    expect(last?.get('sort')).toBe('size');
    expect(last?.get('dir')).toBe('desc');
    expect(byTestId(root, 'transfers-empty').textContent).toBe('No transfer matches your search.');
  });

  it('loads the next page by cursor with a button, and stops on the last page', async () => {
    const { root, api } = await open((call) =>
      call.query.get('cursor') === 'c2'
        ? json(listPage([listItem({ id: 'BBBBBBBBBBBBBBBB', name: 'Second page' })], { total: 2 }))
        : json(listPage([listItem()], { nextCursor: 'c2', total: 2 })),
    );
    expect(rows(root)).toHaveLength(1);
    const more = byTestId<HTMLButtonElement>(root, 'transfers-more');
    expect(more.tagName).toBe('BUTTON');
    await click(more);
    await settle();
    expect(api.to(LIST).at(-1)?.query.get('cursor')).toBe('c2');
    expect(rows(root).map((r) => byTestId(r as HTMLElement, 'transfer-name').textContent)).toEqual([
      'Holiday photos',
      'Second page',
    ]);
    expect(root.querySelector('[data-testid="transfers-more"]')).toBeNull();
  });

  it('shows received transfers with their sender, and says when there are none', async () => {
    const { root, api } = await open((call) =>
      call.query.get('direction') === 'received'
        ? json(
            listPage([
              listItem({ direction: 'received', senderEmail: 'bob@example.com', recipientCount: null }),
              listItem({
                id: 'UpLoAdEdThRoUgH1',
                type: 'S3',
                direction: 'received',
                senderEmail: 'erin@example.com',
                senderEmailVerified: false,
                recipientCount: null,
              }),
            ]),
          )
        : json(listPage([])),
    );
    expect(byTestId(root, 'transfers-empty').textContent).toBe('You have not sent any transfer yet.');
    await click(byTestId(root, 'direction-received'));
    await settle();
    expect(byTestId(root, 'direction-received').getAttribute('aria-pressed')).toBe('true');
    const [bob, erin] = rows(root) as HTMLElement[];
    expect(byTestId(bob as HTMLElement, 'transfer-activity').textContent).toBe('From bob@example.com');
    expect(byTestId(bob as HTMLElement, 'transfer-name').getAttribute('href')).toBe('/dl/AbCdEfGhIjKlMnOp');
    // Typed on a request page, never checked: not shown as who sent it.
    expect(byTestId(erin as HTMLElement, 'transfer-activity').textContent).toBe(
      'From erin@example.com (address not verified)',
    );
    expect(api.to(LIST).at(-1)?.query.get('direction')).toBe('received');
  });

  it('says when the list cannot be loaded, in words, and tries again', async () => {
    const { root } = await open([() => coded(503, 'UNAVAILABLE'), () => json(listPage([listItem()]))]);
    const error = byTestId(root, 'transfers-error');
    expect(error.querySelector('p')?.textContent).toBe(
      'The service is briefly unavailable. Please try again in a moment.',
    );
    await click(error.querySelector('button') as HTMLElement);
    await until(() => rows(root).length === 1, 'the list');
  });

  it('shows cards instead of a table on a phone', async () => {
    screen = fakeScreen({ mobile: true });
    const { root } = await open(() => json(listPage([listItem()])));
    expect(root.querySelector('[data-testid="transfer-table"]')).toBeNull();
    expect(byTestId(root, 'transfer-cards').querySelectorAll('li')).toHaveLength(1);
    await screen.set({ mobile: false });
    expect(byTestId(root, 'transfer-table')).toBeTruthy();
  });
});
