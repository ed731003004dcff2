import type { InboxListResponse, InboxView } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, type Rendered, render, settle } from '../../test/render';
import { InboxPanel } from './inbox-panel';

const inbox = (over: Partial<InboxView> = {}): InboxView => ({
  inboxId: 'InBoX00000000001',
  kind: 'inbox',
  slug: 'studio',
  link: 'http://localhost/i/studio',
  title: 'Studio uploads',
  description: null,
  linkMode: 'S2',
  enabled: true,
  isDefault: true,
  passwordProtected: false,
  allowedExtensions: [],
  effectiveAllowedExtensions: [],
  maxUploadBytes: null,
  fileValidityDays: null,
  fields: { name: 'optional', email: 'optional', message: 'optional', questions: [] },
  uploadNotification: true,
  customization: { backgroundColor: null, actionColor: null, startbtnColor: null },
  uploadCount: 0,
  createdAt: '2030-01-01T00:00:00.000Z',
  ...over,
});

const list = (allowed: boolean, items: InboxView[]): InboxListResponse => ({
  inboxUpload: {
    allowed,
    allowInboxS1: allowed,
    allowInboxS2: allowed,
    receiveAllowedExtensions: [],
    receivePasswordOpt: true,
    receiveRequirePassword: false,
    receiveAllowCustomization: true,
  },
  items,
});

const routes = [{ path: '/x', element: <InboxPanel /> }];

describe('the inbox panel (spec §2, step 1 of the uploader)', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('lists the enabled inboxes with their links, and the way to manage them', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/receive/inboxes': () =>
        json(list(true, [inbox(), inbox({ inboxId: 'InBoX00000000002', slug: 'off', enabled: false })])),
    });
    view = await render(authHarness(routes, '/x').ui);
    await settle();
    const root = view.container;
    expect(root.querySelectorAll('[data-testid="inbox-panel-item"]')).toHaveLength(1);
    expect(byTestId<HTMLInputElement>(root, 'inbox-link-studio').value).toBe('http://localhost/i/studio');
    // A free user has inboxes under the main menu; the path is the same spec route.
    expect(byTestId(root, 'inbox-panel-manage').getAttribute('href')).toBe('/dashboard/admin/inboxes');
    expect(byTestId(root, 'inbox-panel-manage').textContent).toBe('Manage inboxes');
  });

  it('shows nothing when inbox upload is not allowed, and asks nothing of anonymous visitors', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/receive/inboxes': () => json(list(false, [inbox()])),
    });
    view = await render(authHarness(routes, '/x').ui);
    await settle();
    expect(view.container.querySelector('[data-testid="inbox-panel"]')).toBeNull();
    await view.unmount();
    const api = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(routes, '/x').ui);
    await settle();
    expect(view.container.querySelector('[data-testid="inbox-panel"]')).toBeNull();
    expect(api.to('GET /api/receive/inboxes')).toHaveLength(0);
  });
});
