import type { Contact, ContactGroup } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi, noContent } from '../../../test/api-mock';
import { signedInState } from '../../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../../test/render';
import { userProfile } from '../../account/profile.fixture';
import { appHarness } from '../dashboard.fixture';
import { ContactGroupsPage } from './contact-groups-page';
import { contact, contactGroup, contactPage, groupDetail, groupPage } from './contacts.fixture';

const routes = [{ path: '/dashboard/contact-groups', element: <ContactGroupsPage /> }];

/** A small server of groups and members, as the API answers them. */
function groupsServer() {
  const bob = contact();
  const carl = contact({ id: 'c_CARLCARLCARLCARL', email: 'carl@example.com', name: 'Carl' });
  const book: Contact[] = [bob, carl];
  const groups = new Map<string, { group: ContactGroup; members: Contact[] }>([
    ['g_AAAAAAAAAAAAAAAA', { group: contactGroup(), members: [bob] }],
  ]);
  const detail = (id: string) => {
    const entry = groups.get(id)!;
    return json(groupDetail(entry.group, entry.members));
  };
  const routesOf = (id: string) => ({
    [`GET /api/user/contact-groups/${id}`]: () => detail(id),
  });
  const api = mockApi({
    'GET /api/auth/me': () => json(signedInState()),
    'GET /api/user/users/u_1': () => json(userProfile()),
    'GET /api/user/contacts': () => json(contactPage(book)),
    'GET /api/user/contact-groups': () =>
      json(groupPage([...groups.values()].map((g) => ({ ...g.group, memberCount: g.members.length })))),
    ...routesOf('g_AAAAAAAAAAAAAAAA'),
    'POST /api/user/contact-groups': (call) => {
      const name = (call.body as { name: string }).name;
      if ([...groups.values()].some((g) => g.group.name.toLowerCase() === name.toLowerCase()))
        return json(
          {
            status: 409,
            error: 'Conflict',
            message: 'taken',
            codes: ['CONFLICT'],
            details: { groupId: 'g_AAAAAAAAAAAAAAAA' },
          },
          409,
        );
      const id = 'g_NEWNEWNEWNEWNEWN';
      groups.set(id, { group: contactGroup({ id, name }), members: [] });
      api.set(`GET /api/user/contact-groups/${id}`, () => detail(id));
      api.set(`PATCH /api/user/contact-groups/${id}`, (patch) => {
        groups.get(id)!.group.name = (patch.body as { name: string }).name;
        return detail(id);
      });
      api.set(`POST /api/user/contact-groups/${id}/members`, (add) => {
        const ids = (add.body as { contactIds?: string[] }).contactIds ?? [];
        const entry = groups.get(id)!;
        entry.members.push(...book.filter((c) => ids.includes(c.id)));
        return detail(id);
      });
      api.set(`DELETE /api/user/contact-groups/${id}/members/${carl.id}`, () => {
        const entry = groups.get(id)!;
        entry.members = entry.members.filter((m) => m.id !== carl.id);
        return detail(id);
      });
      api.set(`DELETE /api/user/contact-groups/${id}`, () => {
        groups.delete(id);
        return noContent();
      });
      return json(groupDetail(groups.get(id)!.group, []), 201);
    },
  });
  return { api, carl };
}

describe('/dashboard/contact-groups', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open() {
    const server = groupsServer();
    view = await render(appHarness(routes, '/dashboard/contact-groups').ui);
    await settle();
    return { root: view.container, ...server };
  }

  const items = (root: HTMLElement) =>
    [...root.querySelectorAll('[data-testid="group-item"]')].map((e) => e.textContent);
  const members = (root: HTMLElement) =>
    [...root.querySelectorAll('[data-testid="group-member"] strong')].map((e) => e.textContent);

  it('creates a group (a taken name is explained), renames it, adds and removes members, deletes it', async () => {
    const { root, api, carl } = await open();
    expect(items(root)).toEqual(['Team1 member']);
    expect(byTestId(root, 'group-none-selected').textContent).toBe(
      'Choose a group to see and change its members.',
    );

    await typeInto(byTestId<HTMLInputElement>(root, 'group-create-name'), 'team');
    await click(byTestId(root, 'group-create-submit'));
    await until(() => root.querySelector('[data-testid="group-create-error"]') !== null, 'the refusal');
    expect(byTestId(root, 'group-create-error').textContent).toBe('You already have a group with this name.');

    await typeInto(byTestId<HTMLInputElement>(root, 'group-create-name'), 'Clients');
    await click(byTestId(root, 'group-create-submit'));
    await until(() => root.querySelector('[data-testid="group-detail"]') !== null, 'the new group');
    expect(byTestId(root, 'group-detail-name').textContent).toBe('Clients');
    expect(byTestId(root, 'group-members-empty').textContent).toBe('No one is in this group yet.');

    await typeInto(byTestId<HTMLInputElement>(root, 'group-rename-name'), 'Key clients');
    await click(byTestId(root, 'group-rename-submit'));
    await until(() => byTestId(root, 'group-detail-name').textContent === 'Key clients', 'the new name');

    await until(() => root.querySelectorAll('[data-testid="group-pick-add"]').length === 2, 'the picker');
    const addCarl = root.querySelector<HTMLButtonElement>(
      'button[aria-label="Add Carl to Key clients"]',
    ) as HTMLButtonElement;
    await click(addCarl);
    await until(() => members(root).includes('Carl'), 'Carl in the group');
    expect(api.to('POST /api/user/contact-groups/g_NEWNEWNEWNEWNEWN/members')[0]?.body).toEqual({
      contactIds: [carl.id],
    });
    // A member is not offered again.
    await until(() => root.querySelectorAll('[data-testid="group-pick-add"]').length === 1, 'the picker');

    await click(root.querySelector('button[aria-label="Remove Carl from Key clients"]') as HTMLButtonElement);
    await until(() => members(root).length === 0, 'Carl out of the group');

    await click(byTestId(root, 'group-delete'));
    await click(byTestId(root, 'group-delete-yes'));
    await until(() => items(root).length === 1, 'the group gone');
    expect(api.to('DELETE /api/user/contact-groups/g_NEWNEWNEWNEWNEWN')).toHaveLength(1);
  });

  it('adds typed addresses to a group, checking them first', async () => {
    const { root, api } = await open();
    api.set('POST /api/user/contact-groups/g_AAAAAAAAAAAAAAAA/members', () => coded(400, 'LIMIT_EXCEEDED'));
    await click(root.querySelector('[data-testid="group-item"]') as HTMLElement);
    await until(() => root.querySelector('[data-testid="group-add-emails"]') !== null, 'the group');
    await typeInto(byTestId<HTMLInputElement>(root, 'group-add-emails'), 'dora@example.com, nope');
    await click(byTestId(root, 'group-add-emails-submit'));
    expect(byTestId(root, 'group-add-error').textContent).toBe('“nope” is not a valid e-mail address.');
    expect(api.to('POST /api/user/contact-groups/g_AAAAAAAAAAAAAAAA/members')).toEqual([]);

    await typeInto(byTestId<HTMLInputElement>(root, 'group-add-emails'), 'dora@example.com; eve@example.com');
    await click(byTestId(root, 'group-add-emails-submit'));
    await until(
      () => api.to('POST /api/user/contact-groups/g_AAAAAAAAAAAAAAAA/members').length === 1,
      'the call',
    );
    expect(api.to('POST /api/user/contact-groups/g_AAAAAAAAAAAAAAAA/members')[0]?.body).toEqual({
      emails: ['dora@example.com', 'eve@example.com'],
    });
    await until(() => root.querySelector('[data-testid="group-add-error"]') !== null, 'the refusal');
    expect(byTestId(root, 'group-add-error').textContent).toBe('This goes beyond the limits of your plan.');
  });
});
