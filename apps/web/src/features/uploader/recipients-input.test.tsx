import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type Handler, json, mockApi } from '../../test/api-mock';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, until } from '../../test/render';
import { AuthProvider } from '../auth/auth-context';
import {
  contact,
  contactGroup,
  contactPage,
  groupDetail,
  groupPage,
} from '../dashboard/address-book/contacts.fixture';
import { ToastProvider } from '../toasts/toast-context';
import { RecipientsInput } from './recipients-input';

let latest: { recipients: string[]; draft: string } = { recipients: [], draft: '' };

function Harness({ initial = [], max = 10 }: { initial?: string[]; max?: number }) {
  const [state, setState] = useState({ recipients: initial, draft: '' });
  latest = state;
  return (
    <RecipientsInput
      recipients={state.recipients}
      draft={state.draft}
      max={max}
      missing={false}
      onChange={(recipients, draft) => setState({ recipients, draft })}
    />
  );
}

function input(root: HTMLElement) {
  return byTestId<HTMLInputElement>(root, 'recipients-input');
}

async function type(root: HTMLElement, value: string) {
  const element = input(root);
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(element, value);
  await act(async () => {
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

async function key(root: HTMLElement, name: string) {
  await act(async () => {
    input(root).dispatchEvent(new KeyboardEvent('keydown', { key: name, bubbles: true, cancelable: true }));
  });
}

async function paste(root: HTMLElement, text: string) {
  const event = new Event('paste', { bubbles: true, cancelable: true }) as Event & {
    clipboardData: { getData: (type: string) => string };
  };
  event.clipboardData = { getData: (type) => (type === 'text' ? text : '') };
  await act(async () => {
    input(root).dispatchEvent(event);
  });
  return event;
}

function chips(root: HTMLElement): string[] {
  return [...root.querySelectorAll('[data-testid="recipient-chip"] .chip-text')].map(
    (e) => e.textContent ?? '',
  );
}

function error(root: HTMLElement): string | null {
  return root.querySelector('[data-testid="recipients-error"]')?.textContent ?? null;
}

describe('RecipientsInput', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
  });

  it('turns an address into a chip when a separator is typed or Enter is pressed', async () => {
    view = await render(<Harness />);
    const root = view.container;
    await type(root, 'ann@example.com,');
    expect(chips(root)).toEqual(['ann@example.com']);
    expect(input(root).value).toBe('');
    await type(root, 'bob@example.com');
    expect(chips(root)).toEqual(['ann@example.com']);
    await key(root, 'Enter');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(byTestId(root, 'recipients-count').textContent).toBe('2 / 10');
    expect(latest).toEqual({ recipients: ['ann@example.com', 'bob@example.com'], draft: '' });
  });

  it('takes a pasted list whole, keeps what is not an address in the field and says so', async () => {
    view = await render(<Harness />);
    const root = view.container;
    const event = await paste(
      root,
      'ann@example.com; Bob <bob@example.com>\nnot-an-address carl@example.com',
    );
    expect(event.defaultPrevented).toBe(true);
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com', 'carl@example.com']);
    expect(input(root).value).toBe('not-an-address');
    expect(input(root).getAttribute('aria-invalid')).toBe('true');
    expect(error(root)).toBe('“not-an-address” is not a valid e-mail address.');
  });

  it('ignores duplicates, whatever their case, and tells the sender', async () => {
    view = await render(<Harness initial={['ann@example.com']} />);
    const root = view.container;
    await paste(root, 'ANN@example.com, bob@example.com');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    expect(byTestId(root, 'recipients-duplicates').textContent).toBe(
      'ANN@example.com is already in the list.',
    );
    expect(error(root)).toBeNull();
  });

  it('removes the last chip with Backspace in the empty field, and a chip with its button', async () => {
    view = await render(<Harness initial={['ann@example.com', 'bob@example.com', 'carl@example.com']} />);
    const root = view.container;
    await key(root, 'Backspace');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    // Backspace while typing edits the text, it does not remove a chip.
    await type(root, 'x');
    await key(root, 'Backspace');
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com']);
    await type(root, '');
    const remove = root.querySelector<HTMLButtonElement>('button[aria-label="Remove ann@example.com"]');
    expect(remove).not.toBeNull();
    await click(remove as HTMLButtonElement);
    expect(chips(root)).toEqual(['bob@example.com']);
    expect(document.activeElement).toBe(input(root));
  });

  it('accepts at most the plan limit and explains why the rest stays out', async () => {
    const nine = Array.from({ length: 9 }, (_, i) => `r${i}@example.com`);
    view = await render(<Harness initial={nine} />);
    const root = view.container;
    await paste(root, 'ten@example.com eleven@example.com');
    expect(chips(root)).toHaveLength(10);
    expect(chips(root).at(-1)).toBe('ten@example.com');
    expect(input(root).value).toBe('eleven@example.com');
    expect(error(root)).toBe('You can send to 10 recipients at most. Remove one to add another.');
    expect(byTestId(root, 'recipients-count').className).toContain('is-full');
  });

  it('adds what was typed when the field is left', async () => {
    view = await render(<Harness />);
    const root = view.container;
    await type(root, 'ann@example.com');
    await act(async () => {
      input(root).dispatchEvent(new FocusEvent('focusout', { bubbles: true }));
    });
    expect(chips(root)).toEqual(['ann@example.com']);
  });
});

describe('RecipientsInput with the address book (signed in)', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  const ann = contact({ id: 'c_ANNANNANNANNANN1', email: 'ann@example.com', name: 'Ann Lee' });
  const anna = contact({ id: 'c_ANNAANNAANNAANNA', email: 'anna@example.com', name: null });
  const team = contactGroup({ id: 'g_TEAMTEAMTEAMTEAM', name: 'Annual team', memberCount: 4 });
  const members = ['ann@example.com', 'bob@example.com', 'carl@example.com', 'dora@example.com'].map(
    (email, i) => contact({ id: `c_MEMBERMEMBERMEM${i}`, email, name: null }),
  );

  async function open(options: {
    initial?: string[];
    max?: number;
    auth?: 'in' | 'out';
    routes?: Record<string, Handler>;
  }) {
    const api = mockApi({
      'GET /api/auth/me': () => json(options.auth === 'out' ? anonymousState() : signedInState()),
      'GET /api/user/contacts': () => json(contactPage([ann, anna])),
      'GET /api/user/contact-groups': () => json(groupPage([team, contactGroup({ name: 'Empty annex' })])),
      'GET /api/user/contact-groups/g_TEAMTEAMTEAMTEAM': () => json(groupDetail(team, members)),
      ...options.routes,
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    view = await render(
      <QueryClientProvider client={client}>
        <ToastProvider>
          <AuthProvider>
            <Harness initial={options.initial} max={options.max} />
          </AuthProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    await settle();
    return { root: view.container, api };
  }

  const options = (root: HTMLElement) =>
    [...root.querySelectorAll('[data-testid="recipient-suggestion"]')].map((o) => o.textContent);
  const listbox = (root: HTMLElement) => byTestId(root, 'recipient-suggestions');

  it('looks up what is typed once typing pauses and offers contacts, then groups, as a combobox', async () => {
    const { root, api } = await open({ initial: ['anna@example.com'] });
    const field = input(root);
    expect(field.getAttribute('role')).toBe('combobox');
    expect(field.getAttribute('aria-expanded')).toBe('false');
    await type(root, 'an');
    await until(() => options(root).length > 0, 'the suggestions');
    const search = api.to('GET /api/user/contacts');
    expect(search).toHaveLength(1);
    expect([search[0]?.query.get('q'), search[0]?.query.get('sort')]).toEqual(['an', 'recent']);
    expect(api.to('GET /api/user/contact-groups')[0]?.query.get('q')).toBe('an');
    // Anna is already a recipient; an empty group is not offered.
    expect(options(root)).toEqual(['Ann Leeann@example.com', 'Group: Annual team4 members']);
    expect(field.getAttribute('aria-expanded')).toBe('true');
    expect(field.getAttribute('aria-controls')).toBe(listbox(root).id);
    expect(listbox(root).getAttribute('role')).toBe('listbox');
  });

  it('moves through the suggestions with the arrow keys and takes one with Enter; Escape closes them', async () => {
    const { root } = await open({});
    await type(root, 'an');
    await until(() => options(root).length > 0, 'the suggestions');
    const field = input(root);
    await key(root, 'ArrowDown');
    const first = root.querySelector('[data-testid="recipient-suggestion"]') as HTMLElement;
    expect(field.getAttribute('aria-activedescendant')).toBe(first.id);
    expect(first.getAttribute('aria-selected')).toBe('true');
    // Ann, Anna, the group: up from the first is the last; down past the last is the first.
    await key(root, 'ArrowUp');
    expect(field.getAttribute('aria-activedescendant')).toBe(
      root.querySelector('[data-testid="recipient-suggestion"]:last-child')?.id,
    );
    await key(root, 'ArrowDown');
    expect(field.getAttribute('aria-activedescendant')).toBe(first.id);
    await key(root, 'Escape');
    expect(field.getAttribute('aria-expanded')).toBe('false');
    expect(field.value).toBe('an');
    await key(root, 'ArrowDown');
    expect(field.getAttribute('aria-expanded')).toBe('true');
    await key(root, 'Enter');
    expect(chips(root)).toEqual(['ann@example.com']);
    expect(latest.draft).toBe('');
    expect(field.getAttribute('aria-expanded')).toBe('false');
  });

  it('brings in a group’s members, skipping those already there, up to the plan limit, and says so', async () => {
    const { root, api } = await open({ initial: ['ann@example.com'], max: 3 });
    await type(root, 'annual');
    await until(() => options(root).length > 0, 'the suggestions');
    const group = [...root.querySelectorAll('[data-testid="recipient-suggestion"]')].find((o) =>
      o.textContent?.startsWith('Group:'),
    ) as HTMLElement;
    await click(group);
    await until(() => chips(root).length === 3, 'the members');
    expect(api.to('GET /api/user/contact-groups/g_TEAMTEAMTEAMTEAM')).toHaveLength(1);
    expect(chips(root)).toEqual(['ann@example.com', 'bob@example.com', 'carl@example.com']);
    expect(latest.draft).toBe('');
    expect(error(root)).toBe('1 member of Annual team was not added: you can send to 3 recipients at most.');
    expect(byTestId(root, 'recipients-group').textContent).toBe('2 recipients added from Annual team.');
  });

  it('says when a group adds no one new', async () => {
    const { root } = await open({ initial: members.map((m) => m.email), max: 10 });
    await type(root, 'annual');
    await until(() => options(root).length > 0, 'the suggestions');
    await click(root.querySelector('[data-testid="recipient-suggestion"]:last-child') as HTMLElement);
    await until(() => root.querySelector('[data-testid="recipients-group"]') !== null, 'the notice');
    expect(byTestId(root, 'recipients-group').textContent).toBe(
      'Everyone in Annual team is already in the list.',
    );
    expect(chips(root)).toHaveLength(4);
  });

  it('asks nothing for a signed-out sender: a plain text field', async () => {
    const { root, api } = await open({ auth: 'out' });
    expect(input(root).getAttribute('role')).toBeNull();
    await type(root, 'an');
    await new Promise((resolve) => setTimeout(resolve, 400));
    await settle();
    expect(api.to('GET /api/user/contacts')).toEqual([]);
    expect(root.querySelector('[data-testid="recipient-suggestions"]')).toBeNull();
  });
});
