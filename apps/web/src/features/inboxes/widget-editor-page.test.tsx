import type { WidgetView } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, mockApi, noContent } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness } from '../dashboard/dashboard.fixture';
import { INBOX_ID, inboxList, inboxView, WIDGET_ID, widgetView } from './inboxes.fixture';
import { WidgetEditorPage } from './widget-editor-page';

const INBOX = `/api/receive/inboxes/${INBOX_ID}`;
const WIDGET = `/api/receive/widgets/${WIDGET_ID}`;

describe('/dashboard/admin/inboxes/:inboxId/widgets/…', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(path: string, rules = {}, extra = {}) {
    const inbox = inboxView({
      customization: { backgroundColor: '#222222', actionColor: null, startbtnColor: null },
      fields: { name: 'required', email: 'optional', message: 'hidden', questions: [] },
    });
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      'GET /api/receive/inboxes': () => json(inboxList([inbox], rules)),
      [`GET ${INBOX}`]: () => json(inbox),
      [`GET ${INBOX}/widgets`]: () => json({ items: [] }),
      ...extra,
    });
    const element = (widgetId: string | null) => <WidgetEditorPage inboxId={INBOX_ID} widgetId={widgetId} />;
    const harness = appHarness(
      [
        { path: '/dashboard/admin/inboxes/:inboxId/widgets/new', element: element(null) },
        { path: '/dashboard/admin/inboxes/:inboxId/widgets/:widgetId', element: element(WIDGET_ID) },
        { path: '/dashboard/admin/inboxes/:inboxId', element: <p data-testid="inbox-page">inbox</p> },
      ],
      path,
    );
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api, harness };
  }

  it('creates a widget with its own colours over the inbox’s and a question, then shows its code', async () => {
    let created: WidgetView | null = null;
    const { root, api, harness } = await open(
      `/dashboard/admin/inboxes/${INBOX_ID}/widgets/new`,
      {},
      {
        [`POST ${INBOX}/widgets`]: (call: ApiCall) => {
          const body = call.body as Partial<WidgetView>;
          created = widgetView({ name: body.name ?? null, theme: { ...widgetView().theme, ...body.theme } });
          return json(created, 201);
        },
        [`GET ${WIDGET}`]: () => json(created),
      },
    );
    // A new widget asks what the inbox asks, in the inbox's colours (else the spec's defaults).
    expect(byTestId<HTMLSelectElement>(root, 'widget-fields-name').value).toBe('required');
    expect(byTestId<HTMLSelectElement>(root, 'widget-fields-message').value).toBe('hidden');
    const preview = () =>
      byTestId(root, 'widget-preview').querySelector<HTMLElement>('.widget-card') as HTMLElement;
    expect(preview().style.getPropertyValue('--theme-bg')).toBe('#222222');
    expect(preview().style.getPropertyValue('--theme-action')).toBe('#3f51b5');
    expect(preview().style.getPropertyValue('--theme-start')).toBe('#ff6208');
    expect(byTestId(root, 'widget-colors').textContent).toContain('Default colour (#222222).');
    expect(byTestId(root, 'widget-colors').textContent).toContain('Default colour (#FF6208).');

    await typeInto(byTestId(root, 'widget-name-input'), 'Shop footer');
    await typeInto(byTestId(root, 'widget-colors-startbtnColor'), '#0a0');
    expect(preview().style.getPropertyValue('--theme-start')).toBe('#00aa00');
    await click(byTestId(root, 'widget-fields-question-add'));
    await typeInto(byTestId(root, 'widget-fields-question-label'), 'Order number');
    expect(byTestId(root, 'widget-preview').textContent).toContain('Order number');

    await click(byTestId(root, 'widget-save'));
    await settle();
    expect(api.to(`POST ${INBOX}/widgets`)[0]?.body).toEqual({
      name: 'Shop footer',
      fields: {
        name: 'required',
        email: 'optional',
        message: 'hidden',
        questions: [{ id: 'q1', label: 'Order number', required: false }],
      },
      theme: { backgroundColor: null, actionColor: null, startbtnColor: '#00aa00' },
    });
    expect(harness.router.state.location.pathname).toBe(
      `/dashboard/admin/inboxes/${INBOX_ID}/widgets/${WIDGET_ID}`,
    );
    await settle();
    expect(byTestId<HTMLInputElement>(root, 'widget-snippet').value).toBe(widgetView().snippet);
    expect(byTestId<HTMLTextAreaElement>(root, 'widget-iframe').value).toBe(widgetView().iframe);
    expect(byTestId(root, 'widget-heading').textContent).toBe('Shop footer');
  });

  it('edits a widget (only what changed) and deletes it after confirming', async () => {
    let current = widgetView({
      theme: { backgroundColor: '#101010', actionColor: null, startbtnColor: null },
    });
    const { root, api, harness } = await open(
      `/dashboard/admin/inboxes/${INBOX_ID}/widgets/${WIDGET_ID}`,
      {},
      {
        [`GET ${WIDGET}`]: () => json(current),
        [`PATCH ${WIDGET}`]: (call: ApiCall) => {
          const body = call.body as Partial<WidgetView>;
          current = { ...current, ...body, theme: { ...current.theme, ...body.theme } };
          return json(current);
        },
        [`DELETE ${WIDGET}`]: () => noContent(),
      },
    );
    await click(byTestId(root, 'widget-colors-backgroundColor-reset'));
    await click(byTestId(root, 'widget-save'));
    await settle();
    expect(api.to(`PATCH ${WIDGET}`)[0]?.body).toEqual({
      theme: { backgroundColor: null, actionColor: null, startbtnColor: null },
    });
    expect(document.body.textContent).toContain('Changes saved.');
    expect(byTestId<HTMLButtonElement>(root, 'widget-colors-backgroundColor-reset').disabled).toBe(true);

    await click(byTestId(root, 'widget-delete'));
    expect(api.to(`DELETE ${WIDGET}`)).toHaveLength(0);
    await click(byTestId(root, 'widget-delete-yes'));
    await settle();
    expect(api.to(`DELETE ${WIDGET}`)).toHaveLength(1);
    expect(harness.router.state.location.pathname).toBe(`/dashboard/admin/inboxes/${INBOX_ID}`);
  });

  it('keeps the inbox’s colours when customization is off, and says why', async () => {
    const { root, api } = await open(
      `/dashboard/admin/inboxes/${INBOX_ID}/widgets/new`,
      { receiveAllowCustomization: false },
      {
        [`POST ${INBOX}/widgets`]: () => json(widgetView(), 201),
        [`GET ${WIDGET}`]: () => json(widgetView()),
      },
    );
    expect(byTestId(root, 'widget-colors-locked').textContent).toContain('Customization is turned off');
    await click(byTestId(root, 'widget-save'));
    await settle();
    expect(api.to(`POST ${INBOX}/widgets`)[0]?.body).not.toHaveProperty('theme');
  });
});
