import type { InboxView } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, mockApi, noContent } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness } from '../dashboard/dashboard.fixture';
import { InboxDetailPage } from './inbox-detail-page';
import { INBOX_ID, inboxList, inboxView, WIDGET_ID, widgetView } from './inboxes.fixture';

const BASE = `/api/receive/inboxes/${INBOX_ID}`;

describe('/dashboard/admin/inboxes/:inboxId', () => {
  let view: Rendered;
  let current: InboxView;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(inbox: InboxView, extra = {}) {
    current = inbox;
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      'GET /api/receive/inboxes': () => json(inboxList([current])),
      [`GET ${BASE}`]: () => json(current),
      [`GET ${BASE}/widgets`]: () => json({ items: [widgetView()] }),
      [`PATCH ${BASE}`]: (call: ApiCall) => {
        const body = call.body as Record<string, unknown>;
        const { password, ...rest } = body;
        current = {
          ...current,
          ...(rest as Partial<InboxView>),
          ...(password === undefined ? {} : { passwordProtected: password !== null }),
        };
        return json(current);
      },
      ...extra,
    });
    const harness = appHarness(
      [
        { path: '/dashboard/admin/inboxes/:inboxId', element: <InboxDetailPage inboxId={INBOX_ID} /> },
        { path: '/dashboard/admin/inboxes', element: <p data-testid="list">list</p> },
      ],
      `/dashboard/admin/inboxes/${INBOX_ID}`,
    );
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api, harness };
  }

  it('saves only what changed, and starts the form again from the answer', async () => {
    const { root, api } = await open(
      inboxView({
        fields: {
          name: 'required',
          email: 'optional',
          message: 'optional',
          questions: [{ id: 'budget', label: 'Budget', required: false }],
        },
      }),
    );
    expect(byTestId(root, 'inbox-heading').textContent).toBe('Client files');
    expect(byTestId<HTMLInputElement>(root, 'inbox-slug').value).toBe('client-files');
    // Nothing changed: nothing is sent.
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(`PATCH ${BASE}`)).toHaveLength(0);
    // Editing the title keeps the address (it is the inbox's, already shared).
    await typeInto(byTestId(root, 'inbox-title'), 'Client documents');
    expect(byTestId<HTMLInputElement>(root, 'inbox-slug').value).toBe('client-files');
    await click(byTestId(root, 'inbox-fields-question-add'));
    const labels = root.querySelectorAll<HTMLInputElement>('[data-testid="inbox-fields-question-label"]');
    await typeInto(labels[1] as HTMLInputElement, 'Deadline');
    await typeInto(byTestId(root, 'inbox-password'), 'hunter22');
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(`PATCH ${BASE}`)[0]?.body).toEqual({
      title: 'Client documents',
      password: 'hunter22',
      fields: {
        name: 'required',
        email: 'optional',
        message: 'optional',
        questions: [
          { id: 'budget', label: 'Budget', required: false },
          { id: 'q2', label: 'Deadline', required: false },
        ],
      },
    });
    expect(document.body.textContent).toContain('Changes saved.');
    expect(byTestId<HTMLInputElement>(root, 'inbox-password').value).toBe('');
    expect(byTestId(root, 'inbox-password-state').textContent).toContain('Senders must type a password');
    // The password is removed only on save, with null.
    await click(byTestId(root, 'inbox-password-remove'));
    expect(byTestId(root, 'inbox-password-state').textContent).toBe(
      'The password will be removed when you save.',
    );
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(`PATCH ${BASE}`)[1]?.body).toEqual({ password: null });
    expect(root.querySelector('[data-testid="inbox-password-remove"]')).toBeNull();
  });

  it('lists the widgets with their script and iframe to copy', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { root } = await open(inboxView());
    const row = byTestId(root, 'widget-row');
    expect(row.querySelector('h3')?.textContent).toBe('Our site');
    expect(byTestId(row, 'widget-edit').getAttribute('href')).toBe(
      `/dashboard/admin/inboxes/${INBOX_ID}/widgets/${WIDGET_ID}`,
    );
    await click(byTestId(row, 'widget-snippet-copy'));
    expect(writeText).toHaveBeenCalledWith(widgetView().snippet);
    expect(document.body.textContent).toContain('Script copied to the clipboard.');
    await click(byTestId(row, 'widget-iframe-copy'));
    expect(writeText).toHaveBeenLastCalledWith(widgetView().iframe);
    expect(byTestId(root, 'widget-new').getAttribute('href')).toBe(
      `/dashboard/admin/inboxes/${INBOX_ID}/widgets/new`,
    );
  });

  it('switches the inbox off and says its widgets are closed; makes it the default', async () => {
    const { root, api } = await open(inboxView({ isDefault: false }));
    await click(byTestId(root, 'inbox-switch'));
    await settle();
    expect(api.to(`PATCH ${BASE}`)[0]?.body).toEqual({ enabled: false });
    expect(byTestId(root, 'widgets-inbox-off').textContent).toContain('its widgets say it is closed');
    await click(byTestId(root, 'inbox-make-default'));
    await settle();
    expect(api.to(`PATCH ${BASE}`)[1]?.body).toEqual({ isDefault: true });
    expect(byTestId(root, 'inbox-default').textContent).toBe('Default');
  });

  it('deletes the inbox only after confirming, then goes back to the list', async () => {
    const { root, api, harness } = await open(inboxView(), { [`DELETE ${BASE}`]: () => noContent() });
    await click(byTestId(root, 'inbox-delete'));
    expect(api.to(`DELETE ${BASE}`)).toHaveLength(0);
    expect(byTestId(root, 'inbox-delete-confirm').textContent).toContain(
      'Delete “Client files” and its widgets?',
    );
    expect(document.activeElement).toBe(byTestId(root, 'inbox-delete-yes'));
    await click(byTestId(root, 'inbox-delete-yes'));
    await settle();
    expect(api.to(`DELETE ${BASE}`)).toHaveLength(1);
    expect(harness.router.state.location.pathname).toBe('/dashboard/admin/inboxes');
    expect(document.body.textContent).toContain('Inbox deleted.');
  });
});
