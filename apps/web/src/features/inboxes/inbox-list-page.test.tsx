import type { InboxView } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness } from '../dashboard/dashboard.fixture';
import { InboxListPage } from './inbox-list-page';
import { INBOX_ID, inboxList, inboxView } from './inboxes.fixture';

const LIST = 'GET /api/receive/inboxes';
const PATCH = `PATCH /api/receive/inboxes/${INBOX_ID}`;

describe('/dashboard/admin/inboxes', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(list: ReturnType<typeof inboxList>, extra = {}) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [LIST]: () => json(list),
      ...extra,
    });
    const harness = appHarness(
      [
        { path: '/dashboard/admin/inboxes', element: <InboxListPage /> },
        { path: '/dashboard/admin/inboxes/:id', element: <p data-testid="detail">detail</p> },
      ],
      '/dashboard/admin/inboxes',
    );
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api, harness };
  }

  it('lists each inbox with its address to copy, its state, uploads and the default mark', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { root } = await open(
      inboxList([
        inboxView(),
        inboxView({
          inboxId: 'OtHeRaaaaaaaaaa2',
          title: 'Photos',
          slug: 'photos',
          link: 'http://localhost/i/photos',
          isDefault: false,
          enabled: false,
          uploadCount: 1,
          passwordProtected: true,
          linkMode: 'S1',
        }),
      ]),
    );
    const rows = [...root.querySelectorAll<HTMLElement>('[data-testid="inbox-row"]')];
    expect(rows.map((r) => byTestId(r, 'inbox-link').textContent)).toEqual(['Client files', 'Photos']);
    const [first, second] = rows as [HTMLElement, HTMLElement];
    expect(byTestId(first, 'inbox-facts').textContent).toBe('DefaultBy link2 uploads');
    expect(byTestId(second, 'inbox-facts').textContent).toBe('By e-mail1 upload Password');
    expect(byTestId<HTMLInputElement>(first, 'inbox-switch').checked).toBe(true);
    expect(byTestId<HTMLInputElement>(second, 'inbox-switch').checked).toBe(false);
    expect(byTestId<HTMLInputElement>(second, 'inbox-address').value).toBe('http://localhost/i/photos');
    await click(byTestId(second, 'inbox-address-copy'));
    expect(writeText).toHaveBeenCalledWith('http://localhost/i/photos');
    expect(document.body.textContent).toContain('Address copied to the clipboard.');
    expect(byTestId(first, 'inbox-link').getAttribute('href')).toBe(`/dashboard/admin/inboxes/${INBOX_ID}`);
    expect(byTestId(root, 'inbox-new').getAttribute('href')).toBe('/dashboard/admin/inboxes/new');
  });

  it('switches an inbox off at once, and says why it cannot be switched on again', async () => {
    let current: InboxView = inboxView();
    const { root, api } = await open(inboxList([current]), {
      [PATCH]: [
        (call: { body: unknown }) => {
          current = { ...current, ...(call.body as Partial<InboxView>) };
          return json(current);
        },
        () =>
          json(
            {
              status: 403,
              error: 'Forbidden',
              message: 'off',
              codes: ['FORBIDDEN'],
              details: { setting: 'allowInboxS2' },
            },
            403,
          ),
      ],
    });
    api.set(LIST, () => json(inboxList([current])));
    await click(byTestId(root, 'inbox-switch'));
    await settle();
    expect(api.to(PATCH)[0]?.body).toEqual({ enabled: false });
    expect(byTestId<HTMLInputElement>(root, 'inbox-switch').checked).toBe(false);
    expect(document.body.textContent).toContain('The inbox is off');
    await click(byTestId(root, 'inbox-switch'));
    await settle();
    expect(api.to(PATCH)[1]?.body).toEqual({ enabled: true });
    expect(byTestId<HTMLInputElement>(root, 'inbox-switch').checked).toBe(false);
    expect(byTestId(root, 'inbox-switch-error').textContent).toContain('cannot be switched on');
  });

  it('explains when the team turned inboxes off, and offers no "New inbox"', async () => {
    const { root } = await open(inboxList([], { allowed: false, allowInboxS1: false, allowInboxS2: false }));
    expect(byTestId(root, 'inboxes-not-allowed').textContent).toContain('Ask your team manager');
    expect(root.querySelector('[data-testid="inbox-new"]')).toBeNull();
  });

  it('shows the empty state, and a load error with a retry', async () => {
    const { root, api } = await open(inboxList([]), {});
    expect(byTestId(root, 'inboxes-empty').textContent).toContain('No inbox yet');
    await view.unmount();
    const failing = await open(inboxList([]), { [LIST]: () => coded(500, 'INTERNAL') });
    expect(byTestId(failing.root, 'inboxes-error').textContent).toContain('The server ran into a problem');
    failing.api.set(LIST, () => json(inboxList([inboxView()])));
    await click(byTestId(failing.root, 'inboxes-error').querySelector('button') as HTMLElement);
    await settle();
    expect(failing.root.querySelectorAll('[data-testid="inbox-row"]')).toHaveLength(1);
    expect(api.calls.length).toBeGreaterThan(0);
  });
});
