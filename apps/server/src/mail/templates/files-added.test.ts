import { describe, expect, it } from 'vitest';
import { filesAdded } from './index.js';

const input = {
  senderName: 'Alice Martin',
  senderEmail: 'alice@example.com',
  transferName: 'Holiday photos',
  files: [
    { name: 'beach.jpg', size: 2_000_000 },
    { name: 'docs/notes.txt', size: 999 },
  ],
  totalSize: 2_000_999,
  expiresAt: new Date('2026-03-15T13:05:00Z'),
  downloadUrl: 'https://ferry.example/dl/AbCdEf0123456789?userSecret=s3cr3t',
};

describe('filesAdded', () => {
  it('tells a recipient which files were added, with their own link, in their language', async () => {
    const en = await filesAdded({ locale: 'en', productName: 'Ferry' }, input);
    expect(en.subject).toBe('Alice Martin added files to “Holiday photos”');
    expect(en.text).toContain('Alice Martin (alice@example.com) added 2 files to the transfer');
    expect(en.text).toContain('docs/notes.txt');
    expect(en.text).toContain(input.downloadUrl);
    expect(en.html).toContain('href="https://ferry.example/dl/AbCdEf0123456789?userSecret=s3cr3t"');
    const fr = await filesAdded(
      { locale: 'fr', productName: 'Ferry', timeZone: 'Europe/Paris' },
      { ...input, transferName: null, files: [input.files[0]!], totalSize: 2_000_000 },
    );
    expect(fr.subject).toBe('Alice Martin a ajouté des fichiers pour vous sur Ferry');
    expect(fr.text).toContain('a ajouté 1 fichier au transfert');
  });
});
