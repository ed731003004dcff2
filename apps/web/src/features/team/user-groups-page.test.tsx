import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness } from '../dashboard/dashboard.fixture';
import { UserGroupsPage } from './user-groups-page';

const GROUPS = 'GET /api/user/teams/u_1/groups';
const group = { id: 'g1', name: 'Interns', overrides: { allowS1: false }, memberIds: ['u_2'] };

describe('/dashboard/admin/user-groups', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open() {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'TEAM' })),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [GROUPS]: () => json({ groups: [group] }),
      'GET /api/user/teams/u_1/members': () =>
        json({
          members: [
            {
              email: 'm@example.com',
              uid: 'u_2',
              invitationId: null,
              status: 'active',
              isManager: false,
              permissions: ['TRANSFER_MANAGER'],
              groupId: 'g1',
              firstname: null,
              lastSignInAt: null,
              expiresAt: null,
            },
          ],
          seats: { licences: 5, used: 2 },
        }),
      'POST /api/user/teams/u_1/groups': () =>
        json({ ...group, id: 'g2', name: 'Sales', overrides: {} }, 201),
      'PATCH /api/user/teams/u_1/groups/g1': () => json(group),
      'PATCH /api/user/teams/u_1/members/u_2': () => json({}),
    });
    const harness = appHarness(
      [{ path: '/dashboard/admin/user-groups', element: <UserGroupsPage /> }],
      '/dashboard/admin/user-groups',
    );
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api };
  }

  it('shows each group with its overrides and sends a changed override, a new group and a membership', async () => {
    const { root, api } = await open();
    const card = byTestId(root, 'group-card');
    expect(card.textContent).toContain('1 member');
    expect(byTestId<HTMLSelectElement>(card, 'override-allowS1').value).toBe('off');
    expect(byTestId<HTMLSelectElement>(card, 'override-allowS2').value).toBe('team');

    const s2 = byTestId<HTMLSelectElement>(card, 'override-allowS2');
    s2.value = 'off';
    s2.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    expect(api.to('PATCH /api/user/teams/u_1/groups/g1')[0]?.body).toEqual({
      overrides: { allowS1: false, allowS2: false },
    });

    await typeInto(byTestId(root, 'group-new-name'), 'Sales');
    await click(byTestId(root, 'group-create'));
    await settle();
    expect(api.to('POST /api/user/teams/u_1/groups')[0]?.body).toEqual({ name: 'Sales' });

    const membership = byTestId<HTMLSelectElement>(root, 'member-group');
    expect(membership.value).toBe('g1');
    membership.value = '';
    membership.dispatchEvent(new Event('change', { bubbles: true }));
    await settle();
    expect(api.to('PATCH /api/user/teams/u_1/members/u_2')[0]?.body).toEqual({ groupId: null });
  });
});
