import { describe, expect, it } from 'vitest';
import {
  ExtensionList,
  InboxCreate,
  InboxSlug,
  InboxUpdate,
  ReceiveRequestCreate,
  ReceiveRequestId,
  ReceiveUploadCreate,
  UploaderFields,
} from './receive.js';

describe('receive contracts', () => {
  it('normalises extension lists: lowercase, no dot, once each', () => {
    expect(ExtensionList.parse(['.PDF', 'pdf', ' Docx ', '..tar.gz'])).toEqual(['pdf', 'docx', 'tar.gz']);
    expect(ExtensionList.safeParse(['a/b']).success).toBe(false);
    expect(ExtensionList.safeParse(['']).success).toBe(false);
  });

  it('takes inbox names of 3 to 40 letters, digits and inner hyphens, stored lowercase', () => {
    expect(InboxSlug.parse(' Acme-Invoices ')).toBe('acme-invoices');
    for (const bad of ['ab', '-abc', 'abc-', 'a_b_c', 'x'.repeat(41), 'é-abc'])
      expect(InboxSlug.safeParse(bad).success, bad).toBe(false);
  });

  it('knows a request id: 16 random characters or a custom id', () => {
    expect(ReceiveRequestId.safeParse('AbCdEf0123456789').success).toBe(true);
    expect(ReceiveRequestId.safeParse('quarterly-reports').success).toBe(true);
    expect(ReceiveRequestId.safeParse('Quarterly').success).toBe(false);
    expect(ReceiveRequestId.safeParse('../etc').success).toBe(false);
  });

  it('defaults a request to a link (S2) and refuses NUL characters and unknown zones', () => {
    expect(ReceiveRequestCreate.parse({})).toEqual({ linkMode: 'S2' });
    expect(ReceiveRequestCreate.safeParse({ message: 'a\u0000b' }).success).toBe(false);
    expect(ReceiveRequestCreate.safeParse({ timeZone: 'Mars/Olympus' }).success).toBe(false);
    expect(ReceiveRequestCreate.parse({ customId: ' My-Files ' }).customId).toBe('my-files');
  });

  it('defaults form fields to optional, and an inbox to an enabled link inbox', () => {
    expect(UploaderFields.parse({})).toEqual({
      name: 'optional',
      email: 'optional',
      message: 'optional',
      questions: [],
    });
    expect(InboxCreate.parse({ slug: 'abc', title: ' Box ' })).toMatchObject({
      slug: 'abc',
      title: 'Box',
      linkMode: 'S2',
      enabled: true,
      uploadNotification: true,
    });
    expect(InboxUpdate.safeParse({ unknown: 1 }).success).toBe(false);
    expect(InboxUpdate.parse({ password: null })).toEqual({ password: null });
  });

  it('names where an upload goes', () => {
    const files = [{ name: 'a.pdf', size: 1 }];
    expect(ReceiveUploadCreate.parse({ target: { kind: 'inbox', slug: 'ACME' }, files }).target).toEqual({
      kind: 'inbox',
      slug: 'acme',
    });
    expect(ReceiveUploadCreate.safeParse({ target: { kind: 'other' }, files }).success).toBe(false);
    expect(
      ReceiveUploadCreate.safeParse({ target: { kind: 'push', to: 'a@b.example' }, files: [] }).success,
    ).toBe(false);
  });
});
