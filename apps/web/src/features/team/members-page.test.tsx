import type { TeamMember } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi, noContent } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness } from '../dashboard/dashboard.fixture';
import { MembersPage, splitAddresses } from './members-page';

const TEAM = 'u_1';
const LIST = `GET /api/user/teams/${TEAM}/members`;

const member = (overrides: Partial<TeamMember>): TeamMember => ({
  email: 'm@example.com',
  uid: 'u_2',
  invitationId: null,
  status: 'active',
  isManager: false,
  permissions: ['TRANSFER_MANAGER'],
  groupId: null,
  firstname: null,
  lastSignInAt: null,
  expiresAt: null,
  ...overrides,
});
const roster = () => ({
  members: [
    member({
      email: 'ada@example.com',
      uid: TEAM,
      isManager: true,
      permissions: ['TRANSFER_MANAGER', 'USER_MANAGER', 'BILLING'],
    }),
    member({}),
    member({
      email: 'new@example.com',
      uid: null,
      invitationId: 'inv1',
      status: 'invited',
      permissions: ['BILLING'],
    }),
  ],
  seats: { licences: 5, used: 3 },
});

describe('/dashboard/admin/users', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function open(extra = {}) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'TEAM' })),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [LIST]: () => json(roster()),
      ...extra,
    });
    const harness = appHarness(
      [{ path: '/dashboard/admin/users', element: <MembersPage /> }],
      '/dashboard/admin/users',
    );
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api };
  }

  it('lists the manager, members and invitations with the seats', async () => {
    const { root } = await open();
    expect(byTestId(root, 'team-seats').textContent).toBe('3 of 5 seats used (pending invitations included)');
    const rows = [...root.querySelectorAll<HTMLElement>('[data-testid="member-row"]')];
    expect(rows.map((r) => r.dataset.status)).toEqual(['active', 'active', 'invited']);
    expect(rows[0]!.textContent).toContain('Manager');
    // The manager has no actions; a member can be disabled or removed; an invitation withdrawn.
    expect(rows[0]!.querySelector('button')).toBeNull();
    expect(byTestId(rows[1]!, 'member-remove')).toBeTruthy();
    expect(byTestId(rows[2]!, 'invitation-withdraw')).toBeTruthy();
  });

  it('invites several addresses with permissions and shows a result per address', async () => {
    const { root, api } = await open({
      [`POST /api/user/teams/${TEAM}/invitations`]: () =>
        json({
          results: [
            { email: 'a@example.com', result: 'invited' },
            { email: 'b@example.com', result: 'MAX_LICENCES_REACHED' },
          ],
        }),
    });
    await typeInto(byTestId(root, 'invite-addresses'), 'a@example.com, b@example.com');
    const boxes = [...root.querySelectorAll<HTMLInputElement>('input[name="invite-permissions"]')];
    await click(boxes[2]!);
    await click(byTestId(root, 'invite-submit'));
    await settle();
    expect(api.to(`POST /api/user/teams/${TEAM}/invitations`)[0]!.body).toEqual({
      emails: ['a@example.com', 'b@example.com'],
      permissions: ['BILLING'],
    });
    const results = [...byTestId(root, 'invite-results').querySelectorAll('li')].map((li) => li.textContent);
    expect(results).toEqual(['a@example.com — invited', 'b@example.com — no free seat left']);
  });

  it('asks before removing a member and removes on yes', async () => {
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    const { root, api } = await open({ 'DELETE /api/user/teams/u_1/members/u_2': () => noContent() });
    const row = root.querySelectorAll<HTMLElement>('[data-testid="member-row"]')[1]!;
    await click(byTestId(row, 'member-remove'));
    expect(confirm).toHaveBeenCalledWith(expect.stringContaining('Remove m@example.com from the team?'));
    expect(api.to('DELETE /api/user/teams/u_1/members/u_2')).toHaveLength(0);
    confirm.mockReturnValue(true);
    await click(byTestId(row, 'member-remove'));
    await settle();
    expect(api.to('DELETE /api/user/teams/u_1/members/u_2')).toHaveLength(1);
    expect(api.to(LIST).length).toBeGreaterThan(1);
  });

  it('splits typed addresses on commas, spaces and lines', () => {
    expect(splitAddresses(' a@x.io,b@x.io;\nc@x.io  ')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
  });
});
