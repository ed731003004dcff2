import type { Contact, ContactImportResult, UserProfile } from '@ferry/core';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, type Handler, json, mockApi, noContent } from '../../../test/api-mock';
import { signedInState } from '../../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../../test/render';
import { userProfile } from '../../account/profile.fixture';
import { appHarness } from '../dashboard.fixture';
import { AddressBookPage } from './address-book-page';
import { contact, contactGroup, contactPage, groupPage } from './contacts.fixture';

const routes = [{ path: '/dashboard/address-book', element: <AddressBookPage /> }];
const LIST = 'GET /api/user/contacts';

type Api = ReturnType<typeof mockApi>;

describe('/dashboard/address-book', () => {
  let view: Rendered;
  let api: Api;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  const bob = contact();
  const zoe = contact({
    id: 'c_ZOEZOEZOEZOEZOE1',
    email: 'zoe@example.com',
    name: null,
    company: 'Acme',
    source: 'auto',
    groupIds: ['g_AAAAAAAAAAAAAAAA'],
    lastUsedAt: '2030-01-05T10:00:00.000Z',
    useCount: 2,
  });
  const team = contactGroup({ memberCount: 1 });

  async function open(extra: Record<string, Handler | Handler[]> = {}, path = '/dashboard/address-book') {
    let profile: UserProfile = userProfile({ addressBookSettings: { autoSave: true } });
    api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(profile),
      'PATCH /api/user/users/u_1': (call) => {
        const body = call.body as Partial<UserProfile>;
        profile = {
          ...profile,
          addressBookSettings: { ...profile.addressBookSettings, ...body.addressBookSettings },
        };
        return json(profile);
      },
      [LIST]: () => json(contactPage([bob, zoe])),
      'GET /api/user/contact-groups': () => json(groupPage([team])),
      ...extra,
    });
    view = await render(appHarness(routes, path).ui);
    await settle();
    return view.container;
  }

  const rows = (root: HTMLElement) => [...root.querySelectorAll<HTMLElement>('[data-testid="contact-row"]')];

  it('lists the contacts with their details, groups and origin, and searches once typing pauses', async () => {
    const root = await open();
    const [first, second] = rows(root);
    expect(byTestId(first!, 'contact-name').textContent).toBe('Bob Stone');
    expect(byTestId(first!, 'contact-email').textContent).toBe('bob@example.com');
    expect(byTestId(second!, 'contact-name').textContent).toBe('zoe@example.com');
    expect(second!.textContent).toContain('saved from a transfer');
    expect(second!.textContent).toContain('Acme');
    expect(second!.textContent).toContain('Team');
    expect(second!.textContent).toContain('Last sent to on January 5, 2030 (2 transfers)');
    expect(byTestId(root, 'contacts-total').textContent).toBe('2 contacts (at most 10000)');

    await typeInto(byTestId<HTMLInputElement>(root, 'contacts-search'), 'zo');
    await until(() => api.to(LIST).some((c) => c.query.get('q') === 'zo'), 'the search');
    expect(api.to(LIST).filter((c) => c.query.get('q') === 'z')).toEqual([]);
  });

  it('adds a contact after checking its address, and explains an address already in the book', async () => {
    const root = await open({
      'POST /api/user/contacts': [
        () => coded(409, 'CONFLICT'),
        (call) => json(contact({ id: 'c_NEWNEWNEWNEWNEW1', ...(call.body as Partial<Contact>) }), 201),
      ],
    });
    await click(byTestId(root, 'contact-add-open'));
    expect(document.activeElement).toBe(byTestId(root, 'contact-add-email'));
    await typeInto(byTestId<HTMLInputElement>(root, 'contact-add-email'), 'not-an-address');
    await click(byTestId(root, 'contact-add-save'));
    expect(byTestId(root, 'contact-add-email-error').textContent).toBe(
      'Enter a valid e-mail address, like name@example.com.',
    );
    expect(api.to('POST /api/user/contacts')).toEqual([]);

    await typeInto(byTestId<HTMLInputElement>(root, 'contact-add-email'), 'bob@example.com');
    await click(byTestId(root, 'contact-add-save'));
    await until(() => root.querySelector('[data-testid="contact-add-error"]') !== null, 'the refusal');
    expect(byTestId(root, 'contact-add-error').textContent).toBe(
      'This address is already in your address book.',
    );

    await typeInto(byTestId<HTMLInputElement>(root, 'contact-add-email'), 'carl@example.com');
    await typeInto(byTestId<HTMLInputElement>(root, 'contact-add-name'), 'Carl');
    await click(byTestId(root, `contact-add-group-${team.id}`));
    const listed = api.to(LIST).length;
    await click(byTestId(root, 'contact-add-save'));
    await until(() => root.querySelector('[data-testid="contact-add"]') === null, 'the form to close');
    expect(api.to('POST /api/user/contacts')[1]?.body).toEqual({
      email: 'carl@example.com',
      name: 'Carl',
      company: '',
      notes: '',
      groupIds: [team.id],
    });
    await until(() => api.to(LIST).length > listed, 'the list to read again');
    expect(root.textContent).toContain('Contact added.');
  });

  it('edits a contact in place, and deletes one only after confirming', async () => {
    const root = await open({
      [`PATCH /api/user/contacts/${bob.id}`]: (call) => json({ ...bob, ...(call.body as object) }),
      [`DELETE /api/user/contacts/${zoe.id}`]: () => noContent(),
    });
    await click(byTestId(rows(root)[0]!, 'contact-edit-open'));
    const name = byTestId<HTMLInputElement>(root, 'contact-edit-name');
    expect(name.value).toBe('Bob Stone');
    await typeInto(name, 'Robert Stone');
    await click(byTestId(root, 'contact-edit-save'));
    await until(() => api.to(`PATCH /api/user/contacts/${bob.id}`).length === 1, 'the save');
    expect(api.to(`PATCH /api/user/contacts/${bob.id}`)[0]?.body).toMatchObject({
      email: 'bob@example.com',
      name: 'Robert Stone',
    });

    const second = rows(root)[1]!;
    await click(byTestId(second, 'contact-delete'));
    expect(api.to(`DELETE /api/user/contacts/${zoe.id}`)).toEqual([]);
    expect(document.activeElement).toBe(byTestId(second, 'contact-delete-yes'));
    expect(byTestId(second, 'contact-delete-confirm').textContent).toContain(
      'Delete zoe@example.com from your address book?',
    );
    await click(byTestId(second, 'contact-delete-yes'));
    await until(() => api.to(`DELETE /api/user/contacts/${zoe.id}`).length === 1, 'the deletion');
  });

  it('switches the automatic saving of recipients on and off', async () => {
    const root = await open();
    const toggle = byTestId<HTMLInputElement>(root, 'contacts-auto-save');
    expect(toggle.checked).toBe(true);
    await click(toggle);
    await until(() => api.to('PATCH /api/user/users/u_1').length === 1, 'the save');
    expect(api.to('PATCH /api/user/users/u_1')[0]?.body).toEqual({
      addressBookSettings: { autoSave: false },
    });
    await settle();
    expect(byTestId<HTMLInputElement>(root, 'contacts-auto-save').checked).toBe(false);
  });

  it('imports a file into a group and shows what was added and why lines were skipped', async () => {
    const result: ContactImportResult = {
      format: 'csv',
      added: 2,
      updated: 1,
      unchanged: 0,
      skipped: 2,
      skippedLines: [
        { line: 3, reason: 'invalid_email', value: 'not-an-address' },
        { line: 5, reason: 'duplicate', value: 'ann@example.com' },
      ],
      groupId: team.id,
    };
    const root = await open({ 'POST /api/user/contacts/import': () => json(result) });
    await click(byTestId(root, 'import-submit'));
    expect(byTestId(root, 'import-error').textContent).toBe('Choose a CSV or vCard file first.');

    const input = byTestId<HTMLInputElement>(root, 'import-file');
    const file = new File(['email;name\nann@example.com;Ann\n'], 'contacts.CSV', { type: 'text/csv' });
    Object.defineProperty(input, 'files', { configurable: true, value: [file] });
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    const group = byTestId<HTMLSelectElement>(root, 'import-group');
    group.value = team.id;
    await act(async () => {
      group.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await click(byTestId(root, 'import-submit'));
    await until(() => root.querySelector('[data-testid="import-result"]') !== null, 'the summary');
    expect(api.to('POST /api/user/contacts/import')[0]?.body).toEqual({
      content: 'email;name\nann@example.com;Ann\n',
      format: 'csv',
      groupId: team.id,
    });
    expect(byTestId(root, 'import-counts').textContent).toBe(
      '2 added · 1 completed · 0 already there · 2 lines skipped',
    );
    expect([...byTestId(root, 'import-skipped').querySelectorAll('li')].map((li) => li.textContent)).toEqual([
      'Line 3: not a valid e-mail address “not-an-address”',
      'Line 5: the same address appears earlier in the file “ann@example.com”',
    ]);
  });

  it('refuses a file over the size limit before sending it', async () => {
    const root = await open();
    const input = byTestId<HTMLInputElement>(root, 'import-file');
    const big = new File(['x'], 'big.vcf');
    Object.defineProperty(big, 'size', { value: 3 * 1024 * 1024 });
    Object.defineProperty(input, 'files', { configurable: true, value: [big] });
    await act(async () => {
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await click(byTestId(root, 'import-submit'));
    expect(byTestId(root, 'import-error').textContent).toBe('The file is too large: 2.00 MB at most.');
    expect(api.to('POST /api/user/contacts/import')).toEqual([]);
  });

  it('shows the groups on the same page at #my-groups; the tabs follow the arrow keys and the address', async () => {
    const root = await open({}, '/dashboard/address-book#my-groups');
    const groupsTab = byTestId(root, 'address-book-tab-groups');
    expect(groupsTab.getAttribute('aria-selected')).toBe('true');
    expect(root.querySelector('#my-groups')?.getAttribute('role')).toBe('tabpanel');
    expect(byTestId(root, 'group-item').textContent).toBe('Team1 member');
    await act(async () => {
      groupsTab.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowLeft', bubbles: true }));
    });
    const contactsTab = byTestId(root, 'address-book-tab-contacts');
    expect(contactsTab.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(contactsTab);
    await until(() => rows(root).length === 2, 'the contacts');
  });
});
