import { describe, expect, it } from 'vitest';
import { receiveRequest, uploadReceipt, uploadReceived } from './index.js';

/** The mails of receiving files (S3): the ask, the reminder, the owner's notification, the uploader's receipt. */
const ctx = (locale: string) => ({ locale, productName: 'Ferry', timeZone: 'Europe/Paris' });
const expiresAt = new Date('2026-03-15T13:05:00Z');
const uploadUrl = 'https://ferry.example/r/AbCdEf0123456789?userSecret=abc&x=1';

describe('receiveRequest', () => {
  it('asks for files with a personal upload button, in English and French', async () => {
    const input = {
      requesterName: 'Alice Martin',
      requesterEmail: 'alice@example.com',
      subject: 'Signed contract',
      message: 'Please <b>sign</b>.',
      expiresAt,
      uploadUrl,
      allowedExtensions: ['pdf'],
      passwordProtected: true,
    };
    const en = await receiveRequest(ctx('en'), input);
    expect(en.subject).toBe('Alice Martin asks you for files: “Signed contract”');
    expect(en.text).toContain(`Upload files: ${uploadUrl}`);
    expect(en.text).toContain('Accepted file types: pdf');
    expect(en.text).toContain('asks for a password');
    expect(en.html).toContain('Please &lt;b&gt;sign&lt;/b&gt;.');
    expect(en.html).toContain(`href="${uploadUrl.replace(/&/g, '&amp;')}"`);
    const fr = await receiveRequest(ctx('fr'), input);
    expect(fr.subject).toBe('Alice Martin vous demande des fichiers : « Signed contract »');
    expect(fr.text).toContain('Déposer des fichiers');
  });

  it('reminds with the date the link stops working', async () => {
    const mail = await receiveRequest(ctx('en'), {
      requesterName: null,
      requesterEmail: 'alice@example.com',
      subject: null,
      message: null,
      expiresAt,
      uploadUrl,
      allowedExtensions: [],
      passwordProtected: false,
      reminder: true,
    });
    expect(mail.subject).toMatch(/^Reminder: alice@example.com is waiting for your files until /);
    expect(mail.text).toContain('You have not uploaded anything yet.');
    expect(mail.text).not.toContain('Accepted file types');
  });
});

describe('uploadReceived and uploadReceipt', () => {
  it('tell the owner who sent what through which page, with the answers', async () => {
    const mail = await uploadReceived(ctx('en'), {
      uploaderName: 'Bob',
      uploaderEmail: 'bob@example.com',
      uploaderEmailVerified: true,
      pointTitle: 'Invoices',
      message: 'Here.',
      answers: [
        { label: 'Order', answer: 'A-42' },
        { label: 'Empty', answer: ' ' },
      ],
      files: [{ name: 'a.pdf', size: 1500 }],
      totalSize: 1500,
      expiresAt,
      transferUrl: 'https://ferry.example/dl/AbCdEf0123456789',
    });
    expect(mail.subject).toBe('Bob sent you files for “Invoices”');
    expect(mail.text).toContain('Bob (bob@example.com) uploaded 1 file for you');
    expect(mail.text).toContain('Order: A-42');
    expect(mail.text).not.toContain('Empty:');
    expect(mail.text).toContain('See the files: https://ferry.example/dl/AbCdEf0123456789');
  });

  it.each([
    [
      'en',
      'Erin',
      'Erin sent you files for “Invoices”',
      'Erin (erin@example.com, address not verified) uploaded 2 files for you',
    ],
    [
      'en',
      null,
      'erin@example.com (address not verified) sent you files for “Invoices”',
      'erin@example.com (address not verified) uploaded 2 files for you',
    ],
    ['fr', 'Erin', null, 'Erin (erin@example.com, adresse non vérifiée)'],
  ])('never give a typed address as fact (%s, name %s)', async (lng, name, subject, text) => {
    const mail = await uploadReceived(ctx(lng as 'en' | 'fr'), {
      uploaderName: name,
      uploaderEmail: 'erin@example.com',
      uploaderEmailVerified: false,
      pointTitle: 'Invoices',
      message: null,
      answers: [],
      files: [
        { name: 'a.pdf', size: 1500 },
        { name: 'b.pdf', size: 10 },
      ],
      totalSize: 1510,
      expiresAt,
      transferUrl: 'https://ferry.example/dl/AbCdEf0123456789',
    });
    if (subject) expect(mail.subject).toBe(subject);
    expect(mail.text).toContain(text);
    expect(mail.html).toContain(lng === 'en' ? 'address not verified' : 'adresse non vérifiée');
  });

  it('give the uploader each file’s SHA-256 and no link', async () => {
    const sha = 'a'.repeat(64);
    const mail = await uploadReceipt(ctx('fr'), {
      ownerName: null,
      pointTitle: 'Factures',
      files: [{ name: 'a.pdf', size: 10, sha256: sha }],
      totalSize: 10,
      receivedAt: expiresAt,
    });
    expect(mail.subject).toBe('Vos fichiers ont été remis à Factures');
    expect(mail.text).toContain(`SHA-256 ${sha}`);
    expect(mail.text).not.toMatch(/https?:\/\//);
  });
});
