import type { ReceivePointPublic, ReceiveReceipt, ReceiveRequestView } from '@ferry/core';

/** For tests: a POST/GET /api/receive/requests answer. */
export function requestView(overrides: Partial<ReceiveRequestView> = {}): ReceiveRequestView {
  return {
    requestId: 'AbCdEfGhIjKlMnOp',
    kind: 'request',
    linkMode: 'S2',
    state: 'open',
    link: 'http://localhost/r/AbCdEfGhIjKlMnOp',
    subject: null,
    message: null,
    senderName: 'Ada',
    senderEmail: 'ada@example.com',
    passwordProtected: false,
    expiresAt: '2030-01-08T00:00:00.000Z',
    createdAt: '2030-01-01T00:00:00.000Z',
    expiryReminder: false,
    uploadNotification: true,
    allowedExtensions: [],
    customization: { backgroundColor: null, actionColor: null, startbtnColor: null },
    recipients: [],
    uploadCount: 0,
    ...overrides,
  };
}

/** For tests: what an upload page reads (GET /api/receive/points/…). */
export function pointView(overrides: Partial<ReceivePointPublic> = {}): ReceivePointPublic {
  return {
    kind: 'request',
    id: 'AbCdEfGhIjKlMnOp',
    widgetId: null,
    linkMode: 'S2',
    title: 'Signed contract',
    message: 'Please send the signed pages.',
    ownerName: 'Ada',
    passwordProtected: false,
    allowedExtensions: [],
    maxUploadBytes: 5e9,
    maxFiles: 250,
    expiresAt: '2030-01-08T00:00:00.000Z',
    fields: { name: 'optional', email: 'optional', message: 'optional', questions: [] },
    theme: { backgroundColor: '#4052B5', actionColor: '#3F51B5', startbtnColor: '#FF6208' },
    recipientEmail: null,
    logoURL: null,
    ...overrides,
  };
}

/** For tests: an uploader's receipt. */
export function receipt(overrides: Partial<ReceiveReceipt> = {}): ReceiveReceipt {
  return {
    transferId: 'TrAnSfEr00000001',
    status: 'ENABLED',
    title: 'Signed contract',
    ownerName: 'Ada',
    files: [],
    totalSize: 0,
    receivedAt: '2030-01-02T10:00:00.000Z',
    receiptSentTo: null,
    ...overrides,
  };
}
