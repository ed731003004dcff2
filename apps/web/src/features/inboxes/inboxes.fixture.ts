import type { InboxListResponse, InboxView, ReceivePointPublic, WidgetView } from '@ferry/core';

export const INBOX_ID = 'InBoXaaaaaaaaaa1';
export const WIDGET_ID = 'WiDgEtaaaaaaaaa1';

/** For tests: an S2 inbox of the signed-in fixture user, on, with two uploads. */
export function inboxView(overrides: Partial<InboxView> = {}): InboxView {
  return {
    inboxId: INBOX_ID,
    kind: 'inbox',
    slug: 'client-files',
    link: 'http://localhost/i/client-files',
    title: 'Client files',
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
    uploadCount: 2,
    createdAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  };
}

/** For tests: GET /api/receive/inboxes with the default (open) receive settings. */
export function inboxList(
  items: InboxView[],
  rules: Partial<InboxListResponse['inboxUpload']> = {},
): InboxListResponse {
  return {
    inboxUpload: {
      allowed: true,
      allowInboxS1: true,
      allowInboxS2: true,
      receiveAllowedExtensions: [],
      receivePasswordOpt: true,
      receiveRequirePassword: false,
      receiveAllowCustomization: true,
      ...rules,
    },
    items,
  };
}

/** For tests: a widget of the fixture inbox, with the snippet the server makes. */
export function widgetView(overrides: Partial<WidgetView> = {}): WidgetView {
  const widgetId = overrides.widgetId ?? WIDGET_ID;
  return {
    widgetId,
    inboxId: INBOX_ID,
    name: 'Our site',
    theme: { backgroundColor: null, actionColor: null, startbtnColor: null },
    fields: { name: 'optional', email: 'optional', message: 'optional', questions: [] },
    url: `http://localhost/widgets/${widgetId}`,
    snippet: `<script src="http://localhost/widget.js" data-ferry-widget="${widgetId}" async></script>`,
    iframe: `<iframe src="http://localhost/widgets/${widgetId}" title="Upload files"></iframe>`,
    createdAt: '2030-01-02T10:00:00.000Z',
    ...overrides,
  };
}

/** For tests: GET /api/receive/points/widget/{id} of an open S2 inbox. */
export function widgetPoint(overrides: Partial<ReceivePointPublic> = {}): ReceivePointPublic {
  return {
    kind: 'inbox',
    id: 'client-files',
    widgetId: WIDGET_ID,
    linkMode: 'S2',
    title: 'Client files',
    message: 'Send us your documents.',
    ownerName: 'Ada',
    passwordProtected: false,
    allowedExtensions: [],
    maxUploadBytes: 5e9,
    maxFiles: 250,
    expiresAt: null,
    fields: { name: 'optional', email: 'optional', message: 'optional', questions: [] },
    theme: { backgroundColor: '#4052B5', actionColor: '#3F51B5', startbtnColor: '#FF6208' },
    recipientEmail: null,
    logoURL: null,
    ...overrides,
  };
}
