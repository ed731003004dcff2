import { describe, expect, it } from 'vitest';
import { contactsToCsv, contactsToVCard } from './contacts-export.js';
import { detectContactFormat, parseContactFile, parseContactsCsv, parseVCards } from './contacts-import.js';

const emails = (parsed: { contacts: Array<{ email: string }> }) => parsed.contacts.map((c) => c.email);

describe('CSV contacts', () => {
  it('reads a header with email and name columns, in any order and spelling', async () => {
    const parsed = await parseContactsCsv('Full Name,E-mail\nAnn Lee,ann@example.com\nBob,bob@example.com\n');
    expect(parsed.contacts).toEqual([
      { line: 2, email: 'ann@example.com', name: 'Ann Lee', company: null, notes: null },
      { line: 3, email: 'bob@example.com', name: 'Bob', company: null, notes: null },
    ]);
    expect(parsed.skipped).toEqual([]);
  });

  it('strips a byte-order mark and reads semicolons, quotes with "" inside, and quoted line breaks', async () => {
    const parsed = await parseContactsCsv(
      '\uFEFFmail;name;notes\r\n"ann@example.com";"Ann ""Nan"" Lee";"first\r\nsecond"\r\n\r\nbob@example.com;Bob;\r\n',
    );
    expect(parsed.contacts).toEqual([
      { line: 2, email: 'ann@example.com', name: 'Ann "Nan" Lee', company: null, notes: 'first\nsecond' },
      { line: 5, email: 'bob@example.com', name: 'Bob', company: null, notes: null },
    ]);
  });

  it('joins first and last name columns, and reads company and French titles', async () => {
    const parsed = await parseContactsCsv(
      'Prénom;Nom;Adresse de messagerie;Société\nÉlise;Durand;elise@example.fr;Acme\n',
    );
    expect(parsed.contacts).toEqual([
      { line: 2, email: 'elise@example.fr', name: 'Élise Durand', company: 'Acme', notes: null },
    ]);
  });

  it('takes every address column and Google’s " ::: " lists: one contact per address', async () => {
    const parsed = await parseContactsCsv(
      'Name,E-mail 1 - Value,E-mail 2 - Value\nAnn,ann@example.com ::: ann@work.example,ann@home.example\n',
    );
    expect(emails(parsed)).toEqual(['ann@example.com', 'ann@work.example', 'ann@home.example']);
    expect(parsed.contacts.every((c) => c.name === 'Ann')).toBe(true);
  });

  it('reports invalid addresses, lines without one and repeated ones, each with its line', async () => {
    const parsed = await parseContactsCsv(
      [
        'email,name',
        'ann@example.com,Ann',
        'not-an-address,Bob',
        ',Carl',
        'ANN@example.com,Ann again',
        'dan@example.com,Dan',
      ].join('\n'),
    );
    expect(emails(parsed)).toEqual(['ann@example.com', 'dan@example.com']);
    expect(parsed.skipped).toEqual([
      { line: 3, reason: 'invalid_email', value: 'not-an-address' },
      { line: 4, reason: 'missing_email', value: 'Carl' },
      { line: 5, reason: 'duplicate', value: 'ANN@example.com' },
    ]);
  });

  it('reads "Name <address>" cells, and files without a header', async () => {
    const parsed = await parseContactsCsv(
      '"Lee, Ann" <ann@example.com>\nBob Stone,bob@example.com\nno address here\n',
    );
    expect(parsed.contacts).toEqual([
      { line: 1, email: 'ann@example.com', name: 'Lee, Ann', company: null, notes: null },
      { line: 2, email: 'bob@example.com', name: 'Bob Stone', company: null, notes: null },
    ]);
    expect(parsed.skipped).toEqual([{ line: 3, reason: 'missing_email', value: 'no address here' }]);
  });

  it('reports a quote left open as unreadable from its line, keeping the lines before it', async () => {
    const parsed = await parseContactsCsv(
      'email,name\nann@example.com,Ann\nbob@example.com,"Bob\ncarl@example.com,Carl\n',
    );
    expect(emails(parsed)).toEqual(['ann@example.com']);
    expect(parsed.skipped).toHaveLength(1);
    expect(parsed.skipped[0]).toMatchObject({ line: 3, reason: 'unreadable' });
  });

  it('reads tab-separated files and shortens long names to the limit', async () => {
    const parsed = await parseContactsCsv(`email\tname\nann@example.com\t${'x'.repeat(300)}\n`);
    expect(parsed.contacts[0]?.name).toHaveLength(200);
  });
});

describe('vCard contacts', () => {
  it('reads FN and every EMAIL of vCard 3.0 cards, with CRLF and folded lines', async () => {
    const parsed = await parseVCards(
      [
        'BEGIN:VCARD',
        'VERSION:3.0',
        'FN:Ann',
        '  Lee',
        'N:Lee;Ann;;;',
        'EMAIL;TYPE=INTERNET,WORK:ann@work.example',
        'item1.EMAIL;TYPE=INTERNET:ann@',
        '\thome.example',
        'ORG:Acme\\, Inc.;Sales',
        'NOTE:met at\\nthe fair',
        'END:VCARD',
        'BEGIN:VCARD',
        'VERSION:4.0',
        'N:Stone;Bob;J.;Dr.;',
        'EMAIL;PREF=1:bob@example.com',
        'END:VCARD',
        '',
      ].join('\r\n'),
    );
    expect(parsed.contacts).toEqual([
      {
        line: 1,
        email: 'ann@work.example',
        name: 'Ann Lee',
        company: 'Acme, Inc.',
        notes: 'met at\nthe fair',
      },
      {
        line: 1,
        email: 'ann@home.example',
        name: 'Ann Lee',
        company: 'Acme, Inc.',
        notes: 'met at\nthe fair',
      },
      { line: 12, email: 'bob@example.com', name: 'Dr. Bob J. Stone', company: null, notes: null },
    ]);
    expect(parsed.skipped).toEqual([]);
  });

  it('skips cards without an address and reports invalid ones at their BEGIN line', async () => {
    const parsed = await parseVCards(
      '\uFEFFBEGIN:VCARD\nVERSION:3.0\nFN:No Mail\nEND:VCARD\nBEGIN:VCARD\nFN:Bad\nEMAIL:bad@\nEND:VCARD\n',
    );
    expect(parsed.contacts).toEqual([]);
    expect(parsed.skipped).toEqual([
      { line: 1, reason: 'missing_email', value: 'No Mail' },
      { line: 5, reason: 'invalid_email', value: 'bad@' },
    ]);
  });

  it('decodes vCard 2.1 quoted-printable names in their charset', async () => {
    const parsed = await parseVCards(
      'BEGIN:VCARD\nVERSION:2.1\nFN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=C3=89lise =\nDurand\nEMAIL;INTERNET:elise@example.fr\nEND:VCARD\n',
    );
    expect(parsed.contacts).toEqual([
      { line: 1, email: 'elise@example.fr', name: 'Élise Durand', company: null, notes: null },
    ]);
  });

  it('says a text with no card in it is unreadable', async () => {
    expect((await parseVCards('hello\nworld')).skipped).toEqual([
      { line: 1, reason: 'unreadable', value: 'hello' },
    ]);
  });
});

describe('format detection', () => {
  it('takes a text starting with BEGIN:VCARD as vCard and anything else as CSV', async () => {
    expect(detectContactFormat('\uFEFF\r\nbegin:vcard\r\n')).toBe('vcard');
    expect(detectContactFormat('email\nann@example.com')).toBe('csv');
    expect((await parseContactFile('BEGIN:VCARD\nEMAIL:a@example.com\nEND:VCARD')).format).toBe('vcard');
    expect((await parseContactFile('BEGIN:VCARD', 'csv')).format).toBe('csv');
  });
});

describe('exports read back by the import', () => {
  const contacts = [
    {
      email: 'ann@example.com',
      name: `Ännä ${'é'.repeat(80)} Lee`,
      company: 'A, B; C',
      notes: 'one\ntwo \\ three',
    },
    { email: 'bob@example.com', name: null, company: null, notes: null },
  ];

  it('folds vCard lines at 75 octets without cutting a character, and escapes text', async () => {
    const vcf = contactsToVCard(contacts);
    for (const line of vcf.split('\r\n')) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect((await parseVCards(vcf)).contacts.map(({ line: _, ...c }) => c)).toEqual(contacts);
  });

  it('writes CSV with a byte-order mark and quotes, and defuses spreadsheet formulas', async () => {
    const csv = contactsToCsv([
      ...contacts,
      { email: 'f@example.com', name: '=cmd()', company: '+1', notes: null },
    ]);
    expect(csv.startsWith('\uFEFFemail,name,company,notes\r\n')).toBe(true);
    const back = (await parseContactsCsv(csv)).contacts.map(({ line: _, ...c }) => c);
    expect(back).toEqual([
      ...contacts,
      { email: 'f@example.com', name: "'=cmd()", company: "'+1", notes: null },
    ]);
  });
});

describe('hostile files', () => {
  it('reads a cell of 60 000 "<" and a quoted-printable note of 200 000 soft line breaks', async () => {
    const lt = '<'.repeat(60_000);
    const csv = await parseContactsCsv(`email\n${lt}\n`);
    expect(csv.skipped).toEqual([{ line: 2, reason: 'invalid_email', value: expect.any(String) }]);
    const qp = `BEGIN:VCARD\nNOTE;ENCODING=QUOTED-PRINTABLE:${'=\n'.repeat(200_000)}x\nEMAIL:a@example.com\nEND:VCARD\n`;
    expect((await parseVCards(qp)).contacts.map((c) => c.email)).toEqual(['a@example.com']);
  });
});
