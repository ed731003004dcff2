import type { TransferDetail, TransferListItem, TransferListResponse } from '@ferry/core';

/** For tests: one row of GET /api/transfer/transfers, a sent S1 transfer unless overridden. */
export function listItem(overrides: Partial<TransferListItem> = {}): TransferListItem {
  return {
    id: 'AbCdEfGhIjKlMnOp',
    type: 'S1',
    status: 'ENABLED',
    statusLabel: 'enabled',
    name: 'Holiday photos',
    link: '/dl/AbCdEfGhIjKlMnOp',
    createdAt: '2030-01-01T10:00:00.000Z',
    expiresAt: '2030-01-08T10:00:00.000Z',
    expired: false,
    totalSize: 1_500_000,
    fileCount: 2,
    recipientCount: 3,
    senderEmailVerified: true,
    downloadCount: 1,
    passwordProtected: false,
    senderEmail: 'ada@example.com',
    direction: 'sent',
    ...overrides,
  };
}

export function listPage(
  items: TransferListItem[],
  overrides: Partial<TransferListResponse> = {},
): TransferListResponse {
  return {
    items,
    nextCursor: null,
    total: items.length,
    totalIsCapped: false,
    storage: { used: 250e9, limit: 1000e9 },
    ...overrides,
  };
}

/** For tests: GET …/detail of a sent S1 transfer with one file, one recipient and two events. */
export function transferDetail(overrides: Partial<TransferDetail> = {}): TransferDetail {
  return {
    transferId: 'AbCdEfGhIjKlMnOp',
    type: 'S1',
    status: 'ENABLED',
    statusLabel: 'enabled',
    name: 'Holiday photos',
    link: '/dl/AbCdEfGhIjKlMnOp',
    customLink: null,
    availableFrom: null,
    expiresAt: '2030-01-08T10:00:00.000Z',
    totalSize: 1_500_000,
    files: [
      {
        id: 'F1a2b3',
        name: 'beach.jpg',
        relativePath: null,
        size: 1_500_000,
        sha256: 'a'.repeat(64),
        uploaded: true,
      },
    ],
    senderEmail: 'ada@example.com',
    senderVerification: 'not_needed',
    sentAt: '2030-01-01T10:00:00.000Z',
    recipients: [
      {
        email: 'bob@example.com',
        delivery: 'sent',
        error: null,
        downloadedAt: '2030-01-02T09:00:00.000Z',
        timeline: [
          { kind: 'sent', at: '2030-01-01T10:00:00.000Z' },
          { kind: 'delivered', at: '2030-01-01T10:00:05.000Z' },
          { kind: 'opened', at: '2030-01-02T08:59:00.000Z' },
          { kind: 'downloaded', at: '2030-01-02T09:00:00.000Z', fileIds: ['F1a2b3'], bytes: 1_500_000 },
        ],
      },
    ],
    notifications: {
      downloadConfirmation: true,
      expiryReminder: true,
      summary: true,
      forceEmailWhenDownloadS2: false,
    },
    ownerId: 'u_1',
    createdAt: '2030-01-01T10:00:00.000Z',
    expired: false,
    bytesDeletedAt: null,
    message: null,
    maxDownloads: null,
    allowPreview: true,
    passwordProtected: false,
    downloadCount: 1,
    fileCount: 1,
    downloads: [],
    events: [
      {
        type: 'CREATED',
        at: '2030-01-01T10:00:00.000Z',
        actor: { kind: 'user', userId: 'u_1', email: null },
        data: {},
      },
      {
        type: 'RECIPIENT_ADDED',
        at: '2030-01-01T11:00:00.000Z',
        actor: { kind: 'system', userId: null, email: null },
        data: { email: 'bob@example.com' },
      },
    ],
    clonedFrom: null,
    additions: [],
    price: null,
    sales: [],
    ...overrides,
  };
}
