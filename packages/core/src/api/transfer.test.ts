import { describe, expect, it } from 'vitest';
import {
  CheckPasswordRequest,
  DownloadLinkQuery,
  FileId,
  SenderVerificationRequest,
  Sha256Hex,
  TransferCompleteRequest,
  TransferCreateRequest,
  TransferFile,
  TransferId,
} from './transfer.js';

const TRANSFER_ID = 'AbCdEfGh12345678';
const FILE_ID = 'aB3dE9';
const SHA = 'a'.repeat(64);

const validCreate = {
  type: 'S1',
  name: 'Holiday photos',
  message: 'Enjoy',
  password: 'secret',
  expiresInDays: 7,
  maxDownloads: 10,
  allowPreview: false,
  senderEmail: 'alice@example.com',
  senderName: 'Alice',
  locale: 'fr',
  files: [
    { name: 'a.jpg', size: 1234 },
    { name: 'b.jpg', size: 0, relativePath: 'photos/b.jpg' },
  ],
};

describe('TransferId and FileId', () => {
  it('accept 16 and 6 alphanumeric characters respectively', () => {
    expect(TransferId.safeParse(TRANSFER_ID).success).toBe(true);
    expect(FileId.safeParse(FILE_ID).success).toBe(true);
  });

  it.each([
    '',
    'AbCdEfGh1234567', // 15
    'AbCdEfGh123456789', // 17
    'AbCdEfGh1234567-',
    'AbCdEfGh1234567_',
    'AbCdEfGh 1234567',
    '../../etc/passwd',
    'AbCdEfGh1234567é',
  ])('TransferId rejects %j', (id) => {
    expect(TransferId.safeParse(id).success).toBe(false);
  });

  it.each(['', 'aB3dE', 'aB3dE9x', 'aB3d-9', 'aB3d/9', 'aB3dé9', ' aB3dE'])('FileId rejects %j', (id) => {
    expect(FileId.safeParse(id).success).toBe(false);
  });

  it('rejects non-strings', () => {
    expect(TransferId.safeParse(1234567890123456).success).toBe(false);
    expect(FileId.safeParse(123456).success).toBe(false);
  });
});

describe('Sha256Hex', () => {
  it('accepts 64 lowercase hex digits only', () => {
    expect(Sha256Hex.safeParse(SHA).success).toBe(true);
    expect(Sha256Hex.safeParse('0123456789abcdef'.repeat(4)).success).toBe(true);
    expect(Sha256Hex.safeParse('A'.repeat(64)).success).toBe(false);
    expect(Sha256Hex.safeParse('a'.repeat(63)).success).toBe(false);
    expect(Sha256Hex.safeParse('g'.repeat(64)).success).toBe(false);
  });
});

describe('TransferCreateRequest', () => {
  it('accepts a valid request and keeps its values', () => {
    const parsed = TransferCreateRequest.parse(validCreate);
    expect(parsed).toEqual({ ...validCreate, forceEmailWhenDownloadS2: false });
  });

  it('takes S1 recipients and notification switches, trimming typed addresses', () => {
    const parsed = TransferCreateRequest.parse({
      ...validCreate,
      type: 'S1',
      senderEmail: ' alice@example.com ',
      recipients: [' bob@example.com', 'carol@example.com '],
      downloadConfirmation: false,
      expiryReminder: true,
    });
    expect(parsed.senderEmail).toBe('alice@example.com');
    expect(parsed.recipients).toEqual(['bob@example.com', 'carol@example.com']);
    expect(parsed).toMatchObject({ downloadConfirmation: false, expiryReminder: true });
    expect(() => TransferCreateRequest.parse({ ...validCreate, recipients: ['not an address'] })).toThrow();
  });

  it('a sender verification code is six digits', () => {
    expect(SenderVerificationRequest.parse({ code: ' 012345 ' }).code).toBe('012345');
    for (const code of ['12345', '1234567', 'abcdef', '12 345'])
      expect(() => SenderVerificationRequest.parse({ code })).toThrow();
  });

  it('accepts a minimal request and applies the defaults', () => {
    const parsed = TransferCreateRequest.parse({ files: [{ name: 'a.txt', size: 1 }] });
    expect(parsed.type).toBe('S2');
    expect(parsed.allowPreview).toBe(true);
    expect(parsed.files).toEqual([{ name: 'a.txt', size: 1 }]);
  });

  it('trims the transfer and sender names', () => {
    const parsed = TransferCreateRequest.parse({ ...validCreate, name: '  x  ', senderName: ' Bob ' });
    expect(parsed.name).toBe('x');
    expect(parsed.senderName).toBe('Bob');
  });

  const bad: Array<[string, unknown]> = [
    ['zero files', { ...validCreate, files: [] }],
    ['missing files', { type: 'S2' }],
    ['a negative size', { ...validCreate, files: [{ name: 'a', size: -1 }] }],
    ['a fractional size', { ...validCreate, files: [{ name: 'a', size: 1.5 }] }],
    ['an unsafe integer size', { ...validCreate, files: [{ name: 'a', size: Number.MAX_SAFE_INTEGER + 2 }] }],
    ['a size as a string', { ...validCreate, files: [{ name: 'a', size: '10' }] }],
    ['an empty file name', { ...validCreate, files: [{ name: '', size: 1 }] }],
    ['a file name over 1024 characters', { ...validCreate, files: [{ name: 'a'.repeat(1025), size: 1 }] }],
    ['an empty relative path', { ...validCreate, files: [{ name: 'a', size: 1, relativePath: '' }] }],
    ['an unknown type', { ...validCreate, type: 'S4' }],
    ['a lowercase type', { ...validCreate, type: 's1' }],
    ['zero expiry days', { ...validCreate, expiresInDays: 0 }],
    ['fractional expiry days', { ...validCreate, expiresInDays: 1.5 }],
    ['expiry beyond 3650 days', { ...validCreate, expiresInDays: 3651 }],
    ['zero max downloads', { ...validCreate, maxDownloads: 0 }],
    ['an empty password', { ...validCreate, password: '' }],
    ['a password over 256 characters', { ...validCreate, password: 'p'.repeat(257) }],
    ['an invalid sender e-mail', { ...validCreate, senderEmail: 'not-an-email' }],
    ['a name over 255 characters', { ...validCreate, name: 'n'.repeat(256) }],
    ['allowPreview as a string', { ...validCreate, allowPreview: 'true' }],
  ];
  it.each(bad)('rejects %s', (_label, input) => {
    expect(TransferCreateRequest.safeParse(input).success).toBe(false);
  });

  it('accepts the boundary values', () => {
    expect(
      TransferCreateRequest.safeParse({
        ...validCreate,
        expiresInDays: 3650,
        maxDownloads: 1,
        files: [{ name: 'a', size: Number.MAX_SAFE_INTEGER }],
      }).success,
    ).toBe(true);
    expect(TransferCreateRequest.safeParse({ ...validCreate, expiresInDays: 1 }).success).toBe(true);
  });
});

describe('TransferFile and TransferCompleteRequest', () => {
  const file = { id: FILE_ID, name: 'a.txt', relativePath: null, size: 3, sha256: null, uploaded: false };

  it('accepts a valid file and rejects a bad file id', () => {
    expect(TransferFile.safeParse(file).success).toBe(true);
    expect(TransferFile.safeParse({ ...file, sha256: SHA }).success).toBe(true);
    expect(TransferFile.safeParse({ ...file, id: 'toolongid' }).success).toBe(false);
    expect(TransferFile.safeParse({ ...file, id: 'ab-de1' }).success).toBe(false);
    expect(TransferFile.safeParse({ ...file, sha256: 'xyz' }).success).toBe(false);
  });

  it('defaults the completion list to empty and validates its entries', () => {
    expect(TransferCompleteRequest.parse({})).toEqual({ files: [] });
    expect(TransferCompleteRequest.parse({ files: [{ id: FILE_ID }] })).toEqual({ files: [{ id: FILE_ID }] });
    expect(TransferCompleteRequest.safeParse({ files: [{ id: FILE_ID, sha256: SHA }] }).success).toBe(true);
    expect(TransferCompleteRequest.safeParse({ files: [{ id: 'abc' }] }).success).toBe(false);
    expect(
      TransferCompleteRequest.safeParse({ files: [{ id: FILE_ID, sha256: SHA.toUpperCase() }] }).success,
    ).toBe(false);
  });
});

describe('DownloadLinkQuery (spec §7)', () => {
  it('needs only a valid transfer id; unset flags stay undefined', () => {
    const parsed = DownloadLinkQuery.parse({ transferId: TRANSFER_ID });
    expect(parsed.transferId).toBe(TRANSFER_ID);
    expect(parsed.preview).toBeUndefined();
    expect(parsed['admin-dashboard']).toBeUndefined();
  });

  it("turns 'true' and 'false' strings into booleans", () => {
    expect(DownloadLinkQuery.parse({ transferId: TRANSFER_ID, preview: 'true' }).preview).toBe(true);
    expect(DownloadLinkQuery.parse({ transferId: TRANSFER_ID, preview: 'false' }).preview).toBe(false);
    expect(
      DownloadLinkQuery.parse({ transferId: TRANSFER_ID, 'admin-dashboard': 'true' })['admin-dashboard'],
    ).toBe(true);
    expect(
      DownloadLinkQuery.parse({ transferId: TRANSFER_ID, 'admin-dashboard': 'false' })['admin-dashboard'],
    ).toBe(false);
  });

  it('accepts real booleans too', () => {
    expect(DownloadLinkQuery.parse({ transferId: TRANSFER_ID, preview: true }).preview).toBe(true);
    expect(DownloadLinkQuery.parse({ transferId: TRANSFER_ID, preview: false }).preview).toBe(false);
  });

  it.each(['yes', '1', 'TRUE', '', 'False'])('rejects the flag value %j', (value) => {
    expect(DownloadLinkQuery.safeParse({ transferId: TRANSFER_ID, preview: value }).success).toBe(false);
  });

  it('rejects a missing or bad transfer id and a bad file id', () => {
    expect(DownloadLinkQuery.safeParse({}).success).toBe(false);
    expect(DownloadLinkQuery.safeParse({ transferId: 'ab' }).success).toBe(false);
    expect(DownloadLinkQuery.safeParse({ transferId: '../etc' }).success).toBe(false);
    expect(DownloadLinkQuery.safeParse({ transferId: 'q3%2freport' }).success).toBe(false);
    // A custom link names the transfer too (any case; the server looks it up case-insensitively).
    expect(DownloadLinkQuery.safeParse({ transferId: 'Q3-Report' }).success).toBe(true);
    expect(DownloadLinkQuery.safeParse({ transferId: TRANSFER_ID, fileId: 'abc' }).success).toBe(false);
    expect(DownloadLinkQuery.safeParse({ transferId: TRANSFER_ID, fileId: FILE_ID }).success).toBe(true);
  });

  it('keeps the other optional fields and validates the downloader e-mail', () => {
    const query = {
      transferId: TRANSFER_ID,
      fileId: FILE_ID,
      userSecret: 's',
      password: 'p',
      downloaderEmail: 'bob@example.com',
      browserCode: 'code',
      orderId: 'order',
    };
    expect(DownloadLinkQuery.parse(query)).toEqual(query);
    expect(DownloadLinkQuery.safeParse({ ...query, downloaderEmail: 'bob' }).success).toBe(false);
  });
});

describe('CheckPasswordRequest', () => {
  it('needs a valid transfer id and a password string', () => {
    expect(CheckPasswordRequest.safeParse({ transferId: TRANSFER_ID, password: 'x' }).success).toBe(true);
    expect(CheckPasswordRequest.safeParse({ transferId: 'b/d', password: 'x' }).success).toBe(false);
    expect(CheckPasswordRequest.safeParse({ transferId: TRANSFER_ID }).success).toBe(false);
    expect(
      CheckPasswordRequest.safeParse({ transferId: TRANSFER_ID, password: 'p'.repeat(257) }).success,
    ).toBe(false);
  });
});

describe('stored text', () => {
  it('refuses NUL characters in every free-text field that is stored', () => {
    const base = { files: [{ name: 'a.txt', size: 1 }] };
    for (const field of ['name', 'message', 'senderName', 'password']) {
      expect(TransferCreateRequest.safeParse({ ...base, [field]: 'a\u0000b' }).success, field).toBe(false);
      expect(TransferCreateRequest.safeParse({ ...base, [field]: 'ab' }).success, field).toBe(true);
    }
    expect(TransferCreateRequest.safeParse({ ...base, locale: 'fr-CA' }).success).toBe(true);
    expect(TransferCreateRequest.safeParse({ ...base, locale: 'fr\u0000' }).success).toBe(false);
    for (const field of ['userSecret', 'browserCode', 'orderId', 'password']) {
      expect(DownloadLinkQuery.safeParse({ transferId: 'AbCdEfGhIjKlMnOp', [field]: '\u0000' }).success).toBe(
        false,
      );
    }
  });
});
