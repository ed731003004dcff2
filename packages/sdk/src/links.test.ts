import { describe, expect, it } from 'vitest';
import { formatDownloadLink, parseDownloadLink } from './links.js';

describe('parseDownloadLink', () => {
  it('reads the origin and the transfer id of a transfer link', () => {
    expect(parseDownloadLink('https://ferry.example.com/dl/AbCdEfGh12345678')).toEqual({
      server: 'https://ferry.example.com',
      transferId: 'AbCdEfGh12345678',
    });
  });

  it('reads the file id of a file link, keeping the port', () => {
    expect(parseDownloadLink('http://localhost:8090/dl/AbCdEfGh12345678/x1Y2z3')).toEqual({
      server: 'http://localhost:8090',
      transferId: 'AbCdEfGh12345678',
      fileId: 'x1Y2z3',
    });
  });

  it('keeps a base path in front of /dl and ignores a trailing slash, query and fragment', () => {
    expect(parseDownloadLink('  https://example.com/ferry/dl/AbCdEfGh12345678/?utm=1#top ')).toEqual({
      server: 'https://example.com/ferry',
      transferId: 'AbCdEfGh12345678',
    });
  });

  it('keeps the userSecret of a personal link', () => {
    expect(parseDownloadLink('https://ferry.example.com/dl/AbCdEfGh12345678?userSecret=x%2By&utm=1')).toEqual(
      {
        server: 'https://ferry.example.com',
        transferId: 'AbCdEfGh12345678',
        userSecret: 'x+y',
      },
    );
  });

  it('reads a custom link as the transfer it names', () => {
    expect(parseDownloadLink('https://ferry.example.com/dl/q3-report?userSecret=s3cr3t')).toEqual({
      server: 'https://ferry.example.com',
      transferId: 'q3-report',
      userSecret: 's3cr3t',
    });
  });

  it("keeps the purchase token of a buyer's link", () => {
    expect(parseDownloadLink('https://ferry.example.com/dl/AbCdEfGh12345678?purchase=Ab12.x-Y_z')).toEqual({
      server: 'https://ferry.example.com',
      transferId: 'AbCdEfGh12345678',
      purchaseToken: 'Ab12.x-Y_z',
    });
  });

  it.each([
    ['not a url', 'not a download link'],
    ['ftp://example.com/dl/AbCdEfGh12345678', 'not an http(s) download link'],
    ['https://example.com/dl/ab', 'not a download link'],
    ['https://example.com/dl/q3_report', 'not a download link'],
    ['https://example.com/dl/AbCdEfGh12345678/toolongid', 'not a download link'],
    ['https://example.com/d/AbCdEfGh12345678', 'not a download link'],
    ['https://example.com/dl/AbCdEfGh1234567!', 'not a download link'],
  ])('refuses %s', (link, message) => {
    expect(() => parseDownloadLink(link)).toThrow(message);
  });

  it('round-trips with formatDownloadLink', () => {
    const link = formatDownloadLink('https://example.com/base/', 'AbCdEfGh12345678', 'x1Y2z3');
    expect(link).toBe('https://example.com/base/dl/AbCdEfGh12345678/x1Y2z3');
    expect(parseDownloadLink(link).fileId).toBe('x1Y2z3');
  });
});
