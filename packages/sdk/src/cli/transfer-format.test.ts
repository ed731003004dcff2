import type { TransferDetail, TransferListItem } from '@ferry/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  formatTransferDetail,
  formatTransferLines,
  formatTransferTable,
  printable,
} from './transfer-format.js';

const item = (over: Partial<TransferListItem> = {}): TransferListItem => ({
  id: 'AbCdEfGh12345678',
  type: 'S2',
  status: 'ENABLED',
  statusLabel: 'enabled',
  name: 'Quarterly report',
  link: 'http://f.example/dl/AbCdEfGh12345678',
  createdAt: '2030-01-01T10:00:00.000Z',
  expiresAt: '2030-01-08T10:00:00.000Z',
  expired: false,
  totalSize: 1_234_567,
  fileCount: 2,
  recipientCount: 0,
  senderEmailVerified: true,
  downloadCount: 3,
  passwordProtected: false,
  senderEmail: 'ann@example.com',
  direction: 'sent',
  ...over,
});

const saved = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
});
afterAll(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

describe('formatTransferTable', () => {
  it('aligns columns, shows labels, §2 sizes, local days, and shortens long names by the §2 rule', () => {
    const table = formatTransferTable([
      item(),
      item({
        id: 'ZzZzZzZz99999999',
        type: 'S1',
        status: 'MODERATING',
        statusLabel: 'pending',
        name: 'a very long name for a transfer of photos.zip',
        totalSize: 999,
        downloadCount: null,
        direction: 'received',
        expired: true,
        expiresAt: '2029-12-31T23:00:00.000Z',
      }),
      item({ id: 'NoName0000000000', name: null, totalSize: 12_345_678_901, downloadCount: 12 }),
    ]);
    expect(table).toBe(
      [
        'ID                TYPE  STATUS   NAME                         SIZE  EXPIRES               DOWNLOADS',
        'AbCdEfGh12345678  S2    enabled  Quarterly report          1.23 MB  2030-01-08                    3',
        'ZzZzZzZz99999999  S1    pending  a very long name f...zip    999 B  2029-12-31 (expired)          -',
        'NoName0000000000  S2    enabled  -                         12.3 GB  2030-01-08                   12',
        '',
      ].join('\n'),
    );
  });

  it('never lets a name move the cursor or start an escape sequence', () => {
    const table = formatTransferTable([item({ name: 'a\u001b[2Jb\tc\nd' })]);
    const controls = [...table].filter((c) => c !== '\n' && (c.codePointAt(0) ?? 0) < 0x20);
    expect(controls).toEqual([]);
    expect(table).toContain('a?[2Jb?c?d');
  });
});

describe('formatTransferLines', () => {
  it('prints one tab-separated line per transfer: id, type, status, bytes, ISO expiry, downloads, name', () => {
    expect(
      formatTransferLines([item(), item({ downloadCount: null, name: 'tab\there' }), item({ name: null })]),
    ).toBe(
      'AbCdEfGh12345678\tS2\tenabled\t1234567\t2030-01-08T10:00:00.000Z\t3\tQuarterly report\n' +
        'AbCdEfGh12345678\tS2\tenabled\t1234567\t2030-01-08T10:00:00.000Z\t-\ttab?here\n' +
        'AbCdEfGh12345678\tS2\tenabled\t1234567\t2030-01-08T10:00:00.000Z\t3\t\n',
    );
    expect(formatTransferLines([])).toBe('');
  });
});

describe('formatTransferDetail', () => {
  const detail: TransferDetail = {
    transferId: 'AbCdEfGh12345678',
    type: 'S1',
    status: 'DISABLED',
    statusLabel: 'disabled',
    name: 'Photos',
    link: 'http://f.example/dl/AbCdEfGh12345678',
    expiresAt: '2030-01-08T10:00:00.000Z',
    createdAt: '2030-01-01T10:00:00.000Z',
    totalSize: 3000,
    files: [
      {
        id: 'f00001',
        name: 'a.jpg',
        relativePath: 'trip/a.jpg',
        size: 1000,
        sha256: 'a'.repeat(64),
        uploaded: true,
      },
      { id: 'f00002', name: 'b.jpg', relativePath: null, size: 2000, sha256: 'b'.repeat(64), uploaded: true },
    ],
    senderEmail: 'ann@example.com',
    senderVerification: 'not_needed',
    sentAt: '2030-01-01T10:01:00.000Z',
    recipients: [
      {
        email: 'bob@example.com',
        delivery: 'sent',
        error: null,
        downloadedAt: '2030-01-02T09:00:00.000Z',
        timeline: [
          { kind: 'sent', at: '2030-01-01T10:01:00.000Z' },
          { kind: 'delivered', at: '2030-01-01T10:01:05.000Z' },
          { kind: 'opened', at: '2030-01-02T08:59:00.000Z' },
          {
            kind: 'downloaded',
            at: '2030-01-02T09:00:00.000Z',
            fileIds: ['f00001'],
            archive: false,
            bytes: 1000,
          },
        ],
      },
    ],
    notifications: {
      downloadConfirmation: true,
      expiryReminder: true,
      summary: true,
      forceEmailWhenDownloadS2: false,
    },
    ownerId: 'u1',
    expired: false,
    bytesDeletedAt: null,
    clonedFrom: null,
    additions: [],
    price: null,
    sales: [],
    message: null,
    maxDownloads: 10,
    allowPreview: true,
    passwordProtected: false,
    downloadCount: 2,
    fileCount: 2,
    downloads: [
      {
        at: '2030-01-03T12:00:00.000Z',
        fileIds: ['f00001', 'f00002'],
        archive: true,
        bytes: null,
        downloaderEmail: null,
      },
    ],
    events: [
      {
        type: 'CREATED',
        at: '2030-01-01T10:00:00.000Z',
        actor: { kind: 'user', userId: 'u1', email: null },
        data: { type: 'S1', files: 2 },
      },
      {
        type: 'RENAMED',
        at: '2030-01-04T10:00:00.000Z',
        actor: { kind: 'user', userId: 'u2', email: null },
        data: { to: 'Photos', from: null },
      },
      {
        type: 'DISABLED',
        at: '2030-01-05T10:00:00.000Z',
        actor: { kind: 'system', userId: null, email: null },
        data: {},
      },
    ],
  };

  it('lists files with their SHA-256, each recipient with their timeline, other downloads, and the history', () => {
    expect(formatTransferDetail(detail)).toBe(
      [
        'Transfer   AbCdEfGh12345678  "Photos"',
        'Link       http://f.example/dl/AbCdEfGh12345678',
        'Type       S1 (by e-mail)',
        'Status     disabled',
        'Created    2030-01-01 10:00',
        'Expires    2030-01-08 10:00',
        'Size       3.00 kB in 2 files',
        'Downloads  2 of at most 10',
        'Password   no',
        'Preview    allowed',
        'Sender     ann@example.com',
        '',
        'Files (2)',
        `  f00001  trip/a.jpg  1.00 kB  sha256 ${'a'.repeat(64)}`,
        `  f00002  b.jpg  2.00 kB  sha256 ${'b'.repeat(64)}`,
        '',
        'Recipients (1)',
        '  bob@example.com  delivered',
        '    2030-01-01 10:01  sent',
        '    2030-01-01 10:01  delivered',
        '    2030-01-02 08:59  opened',
        '    2030-01-02 09:00  downloaded trip/a.jpg (1.00 kB)',
        '',
        'Downloads by link (1, newest first)',
        '  2030-01-03 12:00  all files (ZIP)',
        '',
        'History (3)',
        '  2030-01-01 10:00  CREATED  by you  files=2 type="S1"',
        '  2030-01-04 10:00  RENAMED  by user u2  from=null to="Photos"',
        '  2030-01-05 10:00  DISABLED  by Ferry',
        '',
      ].join('\n'),
    );
  });
});

describe('printable', () => {
  it('replaces control characters and leaves the rest', () => {
    expect(printable('résumé 📄\u0007\u009b\u2028')).toBe('résumé 📄???');
  });
});
