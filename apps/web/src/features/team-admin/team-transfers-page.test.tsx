import type { TeamMember, TeamTransferListItem, TeamTransferListResponse } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, type Handler, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { appHarness, type FakeScreen, fakeScreen } from '../dashboard/dashboard.fixture';
import { listItem } from '../dashboard/transfers/transfers.fixture';
import { TeamTransfersPage } from './team-transfers-page';

const routes = [{ path: '/dashboard/admin/transfers', element: <TeamTransfersPage /> }];
const LIST = 'GET /api/user/teams/u_1/transfers';
const MEMBERS = 'GET /api/user/teams/u_1/members';

function item(overrides: Partial<TeamTransferListItem> = {}): TeamTransferListItem {
  return {
    ...listItem(),
    ownerUid: 'u_2',
    ownerEmail: 'bob@example.com',
    firstFileName: 'photo-1.jpg',
    ...overrides,
  };
}

function page(items: TeamTransferListItem[], overrides: Partial<TeamTransferListResponse> = {}) {
  return { items, nextCursor: null, total: items.length, totalIsCapped: false, ...overrides };
}

function member(uid: string, email: string, isManager = false): TeamMember {
  return {
    email,
    uid,
    invitationId: null,
    status: 'active',
    isManager,
    permissions: [],
    groupId: null,
    firstname: null,
    lastSignInAt: null,
    expiresAt: null,
  };
}

const MEMBERS_ANSWER = {
  members: [
    member('u_1', 'ada@example.com', true),
    member('u_2', 'bob@example.com'),
    { ...member('x', 'new@example.com'), uid: null, invitationId: 'inv1', status: 'invited' as const },
  ],
  seats: { licences: 5, used: 3 },
};

describe('/dashboard/admin/transfers', () => {
  let view: Rendered;
  let screen: FakeScreen | undefined;
  afterEach(async () => {
    await view?.unmount();
    screen?.restore();
    screen = undefined;
    vi.unstubAllGlobals();
  });

  async function open(list: Handler | Handler[], members: Handler = () => json(MEMBERS_ANSWER)) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      [LIST]: list,
      [MEMBERS]: members,
    });
    view = await render(appHarness(routes, '/dashboard/admin/transfers').ui);
    await settle();
    return { root: view.container, api };
  }

  const rows = (root: HTMLElement) =>
    [...root.querySelectorAll('[data-testid="admin-transfer-row"]')] as HTMLElement[];
  const options = (root: HTMLElement) =>
    [...byTestId<HTMLSelectElement>(root, 'admin-transfers-member').options].map((o) => [o.value, o.text]);
  const choose = async (root: HTMLElement, testId: string, value: string) => {
    const select = byTestId<HTMLSelectElement>(root, testId);
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
  };

  it('lists the team’s transfers with owner, name or first file, status, size, dates and downloads', async () => {
    const { root } = await open(() =>
      json(
        page([
          item({ ownerEmail: 'ada@example.com', ownerUid: 'u_1' }),
          item({ id: 'ZZZZZZZZZZZZZZZ1', name: null, type: 'S2', downloadCount: 4, recipientCount: null }),
        ]),
      ),
    );
    const [named, untitled] = rows(root);
    expect(rows(root)).toHaveLength(2);
    expect(byTestId(named as HTMLElement, 'transfer-name').textContent).toBe('Holiday photos');
    expect(byTestId(named as HTMLElement, 'transfer-owner').textContent).toBe('ada@example.com');
    expect(byTestId(named as HTMLElement, 'transfer-status').textContent).toBe('enabled');
    expect(byTestId(named as HTMLElement, 'transfer-size').textContent).toBe('1.50 MB');
    expect(byTestId(named as HTMLElement, 'transfer-created').textContent).toBe('January 1, 2030');
    expect(byTestId(named as HTMLElement, 'transfer-expiry').textContent).toBe('until January 8, 2030');
    // An untitled transfer goes by its first file; every row opens the transfer's dashboard page.
    const name = byTestId(untitled as HTMLElement, 'transfer-name');
    expect(name.textContent).toBe('photo-1.jpg');
    expect(name.getAttribute('href')).toBe('/dashboard/transfers/ZZZZZZZZZZZZZZZ1');
    expect(byTestId(untitled as HTMLElement, 'transfer-owner').textContent).toBe('bob@example.com');
    expect(byTestId(untitled as HTMLElement, 'transfer-activity').textContent).toBe('4 downloads');
    expect(byTestId(root, 'admin-transfers-total').textContent).toBe('2 transfers');
  });

  it('filters by member (the members API’s accounts), status and a debounced search', async () => {
    const { root, api } = await open((call) =>
      json(page(call.query.get('member') === 'u_2' ? [item()] : [item(), item({ id: 'BBBBBBBBBBBBBBBB' })])),
    );
    await until(() => options(root).length === 3, 'the members');
    // Accounts only: a pending invitation owns no transfer.
    expect(options(root)).toEqual([
      ['', 'All members'],
      ['u_1', 'ada@example.com'],
      ['u_2', 'bob@example.com'],
    ]);
    await choose(root, 'admin-transfers-member', 'u_2');
    await until(() => rows(root).length === 1, 'the member’s transfers');
    await choose(root, 'admin-transfers-status', 'pending');
    const search = byTestId<HTMLInputElement>(root, 'admin-transfers-search');
    await typeInto(search, 'h');
    await typeInto(search, 'ho');
    await until(() => api.to(LIST).some((c) => c.query.get('q') === 'ho'), 'the search');
    expect(api.to(LIST).filter((c) => c.query.get('q') === 'h')).toHaveLength(0);
    const last = api.to(LIST).at(-1)?.query;
    expect(last?.get('member')).toBe('u_2');
    expect(last?.get('status')).toBe('MODERATING,PENDING');
    expect(last?.get('q')).toBe('ho');
    // The search box and the selects are labelled fields.
    expect(root.querySelector(`label[for="${search.id}"]`)?.textContent).toBe('Search');
  });

  it('offers the owners seen so far when the members list is not the caller’s to read', async () => {
    const { root } = await open(
      (call) =>
        json(
          page(
            call.query.get('member') === 'u_3'
              ? [item({ ownerUid: 'u_3', ownerEmail: 'cy@example.com' })]
              : [item(), item({ id: 'CCCCCCCCCCCCCCCC', ownerUid: 'u_3', ownerEmail: 'cy@example.com' })],
          ),
        ),
      () => coded(403, 'FORBIDDEN'),
    );
    await until(() => options(root).length === 3, 'the owners');
    expect(options(root)).toEqual([
      ['', 'All members'],
      ['u_2', 'bob@example.com'],
      ['u_3', 'cy@example.com'],
    ]);
    await choose(root, 'admin-transfers-member', 'u_3');
    await until(() => rows(root).length === 1, 'one member’s transfers');
    // Choosing one member keeps the others to choose next.
    expect(options(root)).toHaveLength(3);
  });

  it('loads the next page by cursor and stops on the last', async () => {
    const { root, api } = await open((call) =>
      call.query.get('cursor') === 'c2'
        ? json(page([item({ id: 'BBBBBBBBBBBBBBBB', name: 'Second page' })], { total: 2 }))
        : json(page([item()], { nextCursor: 'c2', total: 2 })),
    );
    expect(rows(root)).toHaveLength(1);
    await click(byTestId(root, 'admin-transfers-more'));
    await settle();
    expect(api.to(LIST).at(-1)?.query.get('cursor')).toBe('c2');
    expect(rows(root).map((r) => byTestId(r, 'transfer-name').textContent)).toEqual([
      'Holiday photos',
      'Second page',
    ]);
    expect(root.querySelector('[data-testid="admin-transfers-more"]')).toBeNull();
  });

  it('says so when the caller may not see the team’s transfers, and when there are none', async () => {
    const { root } = await open([() => coded(403, 'FORBIDDEN'), () => json(page([]))]);
    const error = byTestId(root, 'admin-transfers-error');
    expect(error.querySelector('p')?.textContent).not.toBe('');
    await click(error.querySelector('button') as HTMLElement);
    await until(() => root.querySelector('[data-testid="admin-transfers-empty"]') !== null, 'the empty list');
    expect(byTestId(root, 'admin-transfers-empty').textContent).toBe('Your team has no transfer yet.');
  });

  it('stacks the rows as cards on a phone, owner and creation date included', async () => {
    screen = fakeScreen({ mobile: true });
    const { root } = await open(() => json(page([item()])));
    expect(root.querySelector('[data-testid="transfer-table"]')).toBeNull();
    const [card] = rows(root);
    expect(card?.tagName).toBe('LI');
    expect(byTestId(card as HTMLElement, 'transfer-owner').textContent).toBe('bob@example.com');
    expect(byTestId(card as HTMLElement, 'transfer-created').textContent).toBe('created January 1, 2030');
  });
});
