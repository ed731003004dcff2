import {
  type Contact,
  type ContactGroupDetail,
  type ContactImportResult,
  type ContactListResponse,
  MAX_CONTACT_GROUPS,
  MAX_CONTACT_IMPORT_BYTES,
  MAX_CONTACTS,
} from '@ferry/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * The address book and contact groups (/api/user/contacts, /api/user/contact-groups): every action's effect and
 * its refusal for another account, search and keyset pages, CSV and vCard imports with awkward files, exports,
 * the caps, and addressBookSettings.autoSave on S1 sends. Real database, real HTTP, real SMTP sink.
 */
let sink: SmtpSink;
let ferry: TestFerry;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let ann: Account;
let eve: Account;
let n = 0;

const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@book.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  ann = await account('ann');
  eve = await account('eve');
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM contacts');
  await query(ferry, 'DELETE FROM contact_groups');
  await query(ferry, `UPDATE users SET settings = '{}'`);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

function call(who: Account | null, method: string, url: string, json?: unknown) {
  return api(ferry.baseUrl, url, { method, headers: who ? who.bearer : {}, json });
}
async function ok<T>(res: Promise<{ status: number; body: unknown }>, status = 200): Promise<T> {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body as T;
}
const addContact = (who: Account, body: Record<string, unknown>) =>
  ok<Contact>(call(who, 'POST', '/api/user/contacts', body), 201);
const addGroup = (who: Account, body: Record<string, unknown>) =>
  ok<ContactGroupDetail>(call(who, 'POST', '/api/user/contact-groups', body), 201);
const listOf = (who: Account, params: Record<string, string> = {}) =>
  ok<ContactListResponse>(call(who, 'GET', `/api/user/contacts?${new URLSearchParams(params)}`));
const emailsOf = (page: { items: Array<{ email: string }> }) => page.items.map((c) => c.email);
const importFile = (who: Account, body: Record<string, unknown>) =>
  call(who, 'POST', '/api/user/contacts/import', body);
const rawImport = (who: Account, content: string, type: string, search = '') =>
  api(ferry.baseUrl, `/api/user/contacts/import${search}`, {
    method: 'POST',
    headers: { ...who.bearer, 'content-type': type },
    body: content,
  });
/** Fills an account's book with `count` contacts straight in the database (to reach the caps quickly). */
const fill = (who: Account, count: number) =>
  query(
    ferry,
    `INSERT INTO contacts (id, user_id, email, source)
     SELECT 'c_' || lpad(i::text, 16, '0'), $1, 'filler' || i || '@fill.example', 'manual'
       FROM generate_series(1, $2::int) i`,
    [who.uid, count],
  );
const sendS1 = (who: Account | null, recipients: string[], extra: Record<string, unknown> = {}) =>
  ok(
    call(who, 'POST', '/api/transfer/transfers', {
      type: 'S1',
      recipients,
      files: [{ name: 'plan.pdf', size: 10 }],
      ...extra,
    }),
    201,
  );

describe('contacts', () => {
  it('adds, reads, edits and deletes a contact; an address is only once in a book, whatever its case', async () => {
    const created = await addContact(ann, { email: 'Bob@Example.com', name: ' Bob Stone ', company: 'Acme' });
    expect(created).toMatchObject({
      email: 'Bob@Example.com',
      name: 'Bob Stone',
      company: 'Acme',
      notes: null,
      source: 'manual',
      groupIds: [],
      useCount: 0,
      lastUsedAt: null,
    });
    const again = await call(ann, 'POST', '/api/user/contacts', { email: 'bob@example.COM' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ codes: ['CONFLICT'], details: { contactId: created.id } });

    expect(await ok(call(ann, 'GET', `/api/user/contacts/${created.id}`))).toEqual(created);
    const edited = await ok<Contact>(
      call(ann, 'PATCH', `/api/user/contacts/${created.id}`, { name: 'Robert', company: '', notes: 'CTO' }),
    );
    expect(edited).toMatchObject({ email: 'Bob@Example.com', name: 'Robert', company: null, notes: 'CTO' });

    const carl = await addContact(ann, { email: 'carl@example.com' });
    const clash = await call(ann, 'PATCH', `/api/user/contacts/${carl.id}`, { email: 'BOB@example.com' });
    expect(clash.status).toBe(409);
    expect((await call(ann, 'PATCH', `/api/user/contacts/${carl.id}`, { unknown: 1 })).status).toBe(400);

    expect((await call(ann, 'DELETE', `/api/user/contacts/${created.id}`)).status).toBe(204);
    expect((await call(ann, 'GET', `/api/user/contacts/${created.id}`)).status).toBe(404);
    expect(emailsOf(await listOf(ann))).toEqual(['carl@example.com']);
  });

  it("refuses every action on another account's contact as not found, and leaves it as it was", async () => {
    const mine = await addContact(ann, { email: 'bob@example.com', name: 'Bob' });
    const asEve = (method: string, body?: unknown) =>
      call(eve, method, `/api/user/contacts/${mine.id}`, body);
    expect((await asEve('GET')).status).toBe(404);
    expect((await asEve('PATCH', { name: 'Eve was here' })).status).toBe(404);
    expect((await asEve('DELETE')).status).toBe(404);
    // Eve may have the same address in her own book: books are separate.
    await addContact(eve, { email: 'bob@example.com' });
    expect(emailsOf(await listOf(eve))).toEqual(['bob@example.com']);
    expect((await listOf(eve)).items[0]!.id).not.toBe(mine.id);
    expect(await ok(call(ann, 'GET', `/api/user/contacts/${mine.id}`))).toEqual(mine);
    for (const [method, url] of [
      ['GET', '/api/user/contacts'],
      ['POST', '/api/user/contacts'],
      ['GET', `/api/user/contacts/${mine.id}`],
    ] as const)
      expect(
        (await call(null, method, url, method === 'POST' ? { email: 'x@example.com' } : undefined)).status,
      ).toBe(401);
  });

  it('searches address, name and company case-insensitively, and pages through every contact once', async () => {
    for (const [email, name, company] of [
      ['ann.lee@alpha.example', 'Ann Lee', null],
      ['bob@beta.example', 'Bob', 'Lee & Co'],
      ['carl@gamma.example', null, null],
      ['dora_100@delta.example', 'Dora', '100% Ltd'],
      ['eva@epsilon.example', 'Éva', null],
    ])
      await addContact(ann, { email, name, company });
    expect(emailsOf(await listOf(ann, { q: 'LEE' }))).toEqual(['ann.lee@alpha.example', 'bob@beta.example']);
    // % and _ are plain characters, not wildcards.
    expect(emailsOf(await listOf(ann, { q: '%' }))).toEqual(['dora_100@delta.example']);
    expect(emailsOf(await listOf(ann, { q: '_' }))).toEqual(['dora_100@delta.example']);
    const filtered = await listOf(ann, { q: 'example' });
    expect([filtered.total, filtered.count, filtered.max]).toEqual([5, 5, MAX_CONTACTS]);

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ContactListResponse = await listOf(ann, { limit: '2', ...(cursor ? { cursor } : {}) });
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...emailsOf(page));
      cursor = page.nextCursor;
    } while (cursor);
    // By name, else by address.
    expect(seen).toEqual([
      'ann.lee@alpha.example',
      'bob@beta.example',
      'carl@gamma.example',
      'dora_100@delta.example',
      'eva@epsilon.example',
    ]);
    const bad = await call(ann, 'GET', '/api/user/contacts?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    const first = await listOf(ann, { limit: '2' });
    const otherSort = await call(ann, 'GET', `/api/user/contacts?sort=recent&cursor=${first.nextCursor}`);
    expect(otherSort.status).toBe(400);
  });
});

describe('contact groups', () => {
  it('creates, renames, fills, empties and deletes a group; its contacts stay in the book', async () => {
    const bob = await addContact(ann, { email: 'bob@example.com', name: 'Bob' });
    const carl = await addContact(ann, { email: 'carl@example.com', name: 'Carl' });
    const team = await addGroup(ann, { name: 'Team', contactIds: [bob.id] });
    expect(team).toMatchObject({ name: 'Team', memberCount: 1 });
    expect(team.members.map((m) => m.email)).toEqual(['bob@example.com']);
    expect((await call(ann, 'POST', '/api/user/contact-groups', { name: ' team ' })).status).toBe(409);

    const renamed = await ok<ContactGroupDetail>(
      call(ann, 'PATCH', `/api/user/contact-groups/${team.id}`, { name: 'Core team' }),
    );
    expect(renamed.name).toBe('Core team');

    const grown = await ok<ContactGroupDetail>(
      call(ann, 'POST', `/api/user/contact-groups/${team.id}/members`, {
        contactIds: [carl.id, bob.id],
        emails: ['dora@example.com', 'CARL@example.com'],
      }),
    );
    expect(grown.members.map((m) => m.email)).toEqual([
      'bob@example.com',
      'carl@example.com',
      'dora@example.com',
    ]);
    expect(grown.memberCount).toBe(3);
    const dora = grown.members.find((m) => m.email === 'dora@example.com')!;
    expect(dora.source).toBe('manual');
    expect(dora.groupIds).toEqual([team.id]);
    expect(emailsOf(await listOf(ann, { groupId: team.id }))).toEqual([
      'bob@example.com',
      'carl@example.com',
      'dora@example.com',
    ]);

    const shrunk = await ok<ContactGroupDetail>(
      call(ann, 'DELETE', `/api/user/contact-groups/${team.id}/members/${bob.id}`),
    );
    expect(shrunk.members.map((m) => m.email)).toEqual(['carl@example.com', 'dora@example.com']);
    expect((await call(ann, 'DELETE', `/api/user/contact-groups/${team.id}/members/${bob.id}`)).status).toBe(
      404,
    );

    // A contact's groups can be set from the contact.
    const friends = await addGroup(ann, { name: 'Friends' });
    const moved = await ok<Contact>(
      call(ann, 'PATCH', `/api/user/contacts/${carl.id}`, { groupIds: [friends.id] }),
    );
    expect(moved.groupIds).toEqual([friends.id]);
    const groups = await ok<{ items: Array<{ name: string; memberCount: number }> }>(
      call(ann, 'GET', '/api/user/contact-groups'),
    );
    expect(groups.items.map((g) => [g.name, g.memberCount])).toEqual([
      ['Core team', 1],
      ['Friends', 1],
    ]);
    expect(
      (await ok<{ items: unknown[] }>(call(ann, 'GET', '/api/user/contact-groups?q=FRI'))).items,
    ).toHaveLength(1);

    expect((await call(ann, 'DELETE', `/api/user/contact-groups/${team.id}`)).status).toBe(204);
    expect((await call(ann, 'GET', `/api/user/contact-groups/${team.id}`)).status).toBe(404);
    expect((await listOf(ann)).count).toBe(3);
  });

  it("refuses every action on another account's group, and never lets a group hold another account's contact", async () => {
    const bob = await addContact(ann, { email: 'bob@example.com' });
    const team = await addGroup(ann, { name: 'Team', contactIds: [bob.id] });
    const evesOwn = await addContact(eve, { email: 'eve-friend@example.com' });
    const evesGroup = await addGroup(eve, { name: 'Mine' });
    const G = (rest = '') => `/api/user/contact-groups/${team.id}${rest}`;
    expect((await call(eve, 'GET', G())).status).toBe(404);
    expect((await call(eve, 'PATCH', G(), { name: 'Taken over' })).status).toBe(404);
    expect((await call(eve, 'POST', G('/members'), { contactIds: [evesOwn.id] })).status).toBe(404);
    expect((await call(eve, 'POST', G('/members'), { emails: ['spy@example.com'] })).status).toBe(404);
    expect((await call(eve, 'DELETE', G(`/members/${bob.id}`))).status).toBe(404);
    expect((await call(eve, 'DELETE', G())).status).toBe(404);
    // Ann's contact cannot go into Eve's group, nor Eve's contact into Ann's.
    const mixed = await call(eve, 'POST', `/api/user/contact-groups/${evesGroup.id}/members`, {
      contactIds: [bob.id],
    });
    expect(mixed.status).toBe(404);
    expect((await call(ann, 'POST', G('/members'), { contactIds: [evesOwn.id] })).status).toBe(404);
    expect(
      (await call(eve, 'POST', '/api/user/contact-groups', { name: 'X', contactIds: [bob.id] })).status,
    ).toBe(404);
    expect(
      (await call(eve, 'PATCH', `/api/user/contacts/${evesOwn.id}`, { groupIds: [team.id] })).status,
    ).toBe(404);
    expect((await call(eve, 'GET', `/api/user/contacts?groupId=${team.id}`)).status).toBe(404);
    expect((await call(eve, 'GET', `/api/user/contacts/export?groupId=${team.id}`)).status).toBe(404);
    const kept = await ok<ContactGroupDetail>(call(ann, 'GET', G()));
    expect([kept.name, kept.members.map((m) => m.email)]).toEqual(['Team', ['bob@example.com']]);
    expect(
      (await ok<{ items: Array<{ name: string }> }>(call(eve, 'GET', '/api/user/contact-groups'))).items.map(
        (g) => g.name,
      ),
    ).toEqual(['Mine']);
  });
});

describe('import', () => {
  it('keeps answering other requests while it reads a hostile CSV, and still reads it right', async () => {
    // 400 000 lines of bare separators between two real ones: seconds of parsing, done in slices.
    const csv = `name,email\nAnn,ann@example.com\n${',\n'.repeat(400_000)}Bob,bob@example.com\n`;
    expect(Buffer.byteLength(csv)).toBeLessThanOrEqual(MAX_CONTACT_IMPORT_BYTES);
    let done = false;
    const importing = rawImport(ann, csv, 'text/csv').finally(() => {
      done = true;
    });
    // Health checks one after another for as long as the import runs: each is answered in between.
    let answered = 0;
    while (!done) {
      expect((await api(ferry.baseUrl, '/api/health')).status).toBe(200);
      if (!done) answered++;
    }
    const result = (await importing).body as ContactImportResult;
    expect(result).toMatchObject({ format: 'csv', added: 2, skipped: 0, skippedLines: [] });
    expect(emailsOf(await listOf(ann))).toEqual(['ann@example.com', 'bob@example.com']);
    // Blocked, the loop would answer none during the parse, only the few during the database work after it.
    expect(answered).toBeGreaterThanOrEqual(25);
  });

  it('reads an awkward CSV: byte-order mark, semicolons, quotes, line breaks, bad and repeated lines', async () => {
    await addContact(ann, { email: 'known@example.com', name: 'Kept Name' });
    await addContact(ann, { email: 'nameless@example.com' });
    const csv = [
      '\uFEFFNom;Prénom;E-mail;Notes',
      'Lee;Ann;ann@example.com;"likes ""quotes""; and semicolons"',
      'Stone;Bob;"bob@example.com";"two',
      'lines"',
      'Nobody;;not-an-address;',
      'Again;Ann;ANN@example.com;',
      'Other;Name;known@example.com;',
      'Named;Now;nameless@example.com;',
      ';;;just a note',
    ].join('\r\n');
    const result = await ok<ContactImportResult>(importFile(ann, { content: csv }));
    expect(result).toEqual({
      format: 'csv',
      added: 2,
      updated: 1,
      unchanged: 1,
      skipped: 3,
      skippedLines: [
        { line: 5, reason: 'invalid_email', value: 'not-an-address' },
        { line: 6, reason: 'duplicate', value: 'ANN@example.com' },
        { line: 9, reason: 'missing_email', value: 'just a note' },
      ],
      groupId: null,
    });
    const book = await listOf(ann);
    const byEmail = new Map(book.items.map((c) => [c.email, c]));
    expect(byEmail.get('ann@example.com')).toMatchObject({
      name: 'Ann Lee',
      notes: 'likes "quotes"; and semicolons',
      source: 'import',
    });
    expect(byEmail.get('bob@example.com')?.notes).toBe('two\nlines');
    // What was there is never overwritten; what was missing is filled in.
    expect(byEmail.get('known@example.com')).toMatchObject({ name: 'Kept Name', source: 'manual' });
    expect(byEmail.get('nameless@example.com')?.name).toBe('Now Named');
    expect(book.count).toBe(4);
  });

  it('reads vCard files sent as they are (text/vcard), folded lines and several addresses per card', async () => {
    const group = await addGroup(ann, { name: 'Imported' });
    const vcf = [
      'BEGIN:VCARD',
      'VERSION:4.0',
      'FN:Zoë',
      '  Martin',
      'EMAIL;TYPE=work:zoe@work.example',
      'EMAIL;TYPE=home:zoe@home.',
      ' example',
      'ORG:Acme\\, Inc.',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'FN:No Address',
      'END:VCARD',
      'BEGIN:VCARD',
      'VERSION:3.0',
      'N:Invalid;Ivy;;;',
      'EMAIL:ivy@',
      'END:VCARD',
      '',
    ].join('\r\n');
    const res = await rawImport(ann, vcf, 'text/vcard', `?groupId=${group.id}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({
      format: 'vcard',
      added: 2,
      updated: 0,
      unchanged: 0,
      skipped: 2,
      skippedLines: [
        { line: 10, reason: 'missing_email', value: 'No Address' },
        { line: 14, reason: 'invalid_email', value: 'ivy@' },
      ],
      groupId: group.id,
    });
    const members = await ok<ContactGroupDetail>(call(ann, 'GET', `/api/user/contact-groups/${group.id}`));
    expect(members.members.map((m) => [m.email, m.name, m.company]).sort()).toEqual([
      ['zoe@home.example', 'Zoë Martin', 'Acme, Inc.'],
      ['zoe@work.example', 'Zoë Martin', 'Acme, Inc.'],
    ]);
    // A CSV body (text/csv) works the same way.
    const csv = await rawImport(ann, 'email,name\ncsv@example.com,From CSV\n', 'text/csv');
    expect([csv.status, csv.body.added]).toEqual([200, 1]);
  });

  it("stores nothing when the file is unusable, into another account's group, too large or past the cap", async () => {
    const empty = await ok<ContactImportResult>(importFile(ann, { content: 'hello\nworld\n' }));
    expect([empty.added, empty.skipped]).toEqual([0, 2]);
    const notVcard = await ok<ContactImportResult>(importFile(ann, { content: 'hello', format: 'vcard' }));
    expect(notVcard.skippedLines).toEqual([{ line: 1, reason: 'unreadable', value: 'hello' }]);

    const evesGroup = await addGroup(eve, { name: 'Eve' });
    const intoEve = await importFile(ann, { content: 'email\na@example.com\n', groupId: evesGroup.id });
    expect(intoEve.status).toBe(404);
    expect((await listOf(ann)).count).toBe(0);

    const big = await importFile(ann, { content: `email\n${'x'.repeat(MAX_CONTACT_IMPORT_BYTES)}` });
    expect(big.status).toBe(413);
    expect(big.body.codes).toEqual(['PAYLOAD_TOO_LARGE']);
    const tooBigRaw = await rawImport(ann, 'a'.repeat(9 * 1024 * 1024), 'text/csv');
    expect([tooBigRaw.status, tooBigRaw.body.codes]).toEqual([413, ['PAYLOAD_TOO_LARGE']]);

    await fill(ann, MAX_CONTACTS - 1);
    const past = await importFile(ann, { content: 'email\nnew1@example.com\nnew2@example.com\n' });
    expect(past.status).toBe(400);
    expect(past.body).toMatchObject({
      codes: ['LIMIT_EXCEEDED'],
      details: { limit: 'contacts', max: MAX_CONTACTS },
    });
    expect((await listOf(ann)).count).toBe(MAX_CONTACTS - 1);
    // Known addresses do not count against the cap.
    const known = await ok<ContactImportResult>(
      importFile(ann, { content: 'email,name\nfiller1@fill.example,Filled\nnew1@example.com,New\n' }),
    );
    expect([known.added, known.updated]).toEqual([1, 1]);
  });
});

describe('caps', () => {
  it(`holds at most ${MAX_CONTACTS} contacts and ${MAX_CONTACT_GROUPS} groups per account`, async () => {
    await fill(ann, MAX_CONTACTS - 1);
    await addContact(ann, { email: 'last@example.com' });
    const over = await call(ann, 'POST', '/api/user/contacts', { email: 'one-more@example.com' });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({
      codes: ['LIMIT_EXCEEDED'],
      details: { limit: 'contacts', max: MAX_CONTACTS },
    });
    expect(over.body.message).toContain(String(MAX_CONTACTS));
    // Another account is not affected.
    await addContact(eve, { email: 'one-more@example.com' });

    await query(
      ferry,
      `INSERT INTO contact_groups (id, user_id, name)
       SELECT 'g_' || lpad(i::text, 16, '0'), $1, 'Group ' || i FROM generate_series(1, $2::int) i`,
      [ann.uid, MAX_CONTACT_GROUPS],
    );
    const tooMany = await call(ann, 'POST', '/api/user/contact-groups', { name: 'One more' });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toMatchObject({ codes: ['LIMIT_EXCEEDED'], details: { limit: 'contactGroups' } });
    const all = await ok<{ items: unknown[]; count: number }>(
      call(ann, 'GET', `/api/user/contact-groups?limit=${MAX_CONTACT_GROUPS}`),
    );
    expect([all.items.length, all.count]).toEqual([MAX_CONTACT_GROUPS, MAX_CONTACT_GROUPS]);
  });
});

describe('export', () => {
  it('gives the book (or a group) as CSV and vCard that import back the same', async () => {
    await addContact(ann, { email: 'bob@example.com', name: '=Bob, "the" builder', notes: 'line1\nline2' });
    const zoe = await addContact(ann, {
      email: 'zoe@example.com',
      name: 'Zoë Martin',
      company: 'Acme; Inc.',
    });
    const group = await addGroup(ann, { name: 'Z', contactIds: [zoe.id] });

    const csv = await fetch(`${ferry.baseUrl}/api/user/contacts/export?format=csv`, { headers: ann.bearer });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('contacts.csv');
    const csvText = await csv.text();
    // A name that a spreadsheet would run as a formula is written as text.
    expect(csvText).toContain(`"'=Bob, ""the"" builder"`);

    const vcf = await fetch(`${ferry.baseUrl}/api/user/contacts/export?format=vcard&groupId=${group.id}`, {
      headers: ann.bearer,
    });
    expect(vcf.headers.get('content-type')).toContain('text/vcard');
    const vcfText = await vcf.text();
    expect(vcfText).toContain('FN:Zoë Martin');
    expect(vcfText).not.toContain('bob@example.com');

    const back = await ok<ContactImportResult>(importFile(eve, { content: vcfText }));
    expect(back.added).toBe(1);
    const fromCsv = await ok<ContactImportResult>(importFile(eve, { content: csvText }));
    expect([fromCsv.added, fromCsv.updated, fromCsv.unchanged]).toEqual([1, 0, 1]);
    const eves = new Map((await listOf(eve)).items.map((c) => [c.email, c]));
    expect(eves.get('bob@example.com')).toMatchObject({
      name: `'=Bob, "the" builder`,
      notes: 'line1\nline2',
    });
    expect(eves.get('zoe@example.com')).toMatchObject({ name: 'Zoë Martin', company: 'Acme; Inc.' });
    expect((await call(null, 'GET', '/api/user/contacts/export')).status).toBe(401);
  });
});

describe('auto-save of S1 recipients (addressBookSettings.autoSave)', () => {
  it('saves a signed-in sender’s recipients, marks known ones used, and stops when switched off', async () => {
    const known = await addContact(ann, { email: 'known@example.com', name: 'Known' });
    await sendS1(ann, ['new@example.com', 'Known@Example.com']);
    let book = new Map((await listOf(ann)).items.map((c) => [c.email.toLowerCase(), c]));
    expect(book.get('new@example.com')).toMatchObject({ source: 'auto', useCount: 1, name: null });
    expect(book.get('new@example.com')?.lastUsedAt).not.toBeNull();
    expect(book.get('known@example.com')).toMatchObject({ id: known.id, source: 'manual', useCount: 1 });

    await sendS1(ann, ['new@example.com']);
    const recent = await listOf(ann, { sort: 'recent' });
    expect(recent.items[0]).toMatchObject({ email: 'new@example.com', useCount: 2 });
    // Last used first, never used last; pages of one give the same order.
    await addContact(ann, { email: 'never@example.com' });
    const paged: string[] = [];
    let cursor: string | null = null;
    do {
      const page: ContactListResponse = await listOf(ann, {
        sort: 'recent',
        limit: '1',
        ...(cursor ? { cursor } : {}),
      });
      paged.push(...emailsOf(page));
      cursor = page.nextCursor;
    } while (cursor);
    expect(paged).toEqual(['new@example.com', 'known@example.com', 'never@example.com']);
    // An S2 transfer has no recipients; Eve's book stays empty.
    expect((await listOf(eve)).count).toBe(0);

    const off = await ok<{ addressBookSettings: { autoSave: boolean } }>(
      call(ann, 'PATCH', `/api/user/users/${ann.uid}`, { addressBookSettings: { autoSave: false } }),
    );
    expect(off.addressBookSettings.autoSave).toBe(false);
    await sendS1(ann, ['unsaved@example.com', 'new@example.com']);
    book = new Map((await listOf(ann)).items.map((c) => [c.email.toLowerCase(), c]));
    expect(book.has('unsaved@example.com')).toBe(false);
    expect(book.get('new@example.com')?.useCount).toBe(2);

    // Anonymous senders have no book.
    await sendS1(null, ['anon-recipient@example.com'], { senderEmail: 'anon@example.com' });
    expect(await query(ferry, `SELECT 1 FROM contacts WHERE email = 'anon-recipient@example.com'`)).toEqual(
      [],
    );
  });

  it('never fails a send when the book is full', async () => {
    await fill(ann, MAX_CONTACTS);
    await sendS1(ann, ['overflow@example.com', 'filler7@fill.example']);
    const [row] = await query<{ n: number; used: number }>(
      ferry,
      `SELECT count(*)::int AS n, (SELECT use_count FROM contacts WHERE email = 'filler7@fill.example') AS used
         FROM contacts WHERE user_id = $1`,
      [ann.uid],
    );
    expect(row).toEqual({ n: MAX_CONTACTS, used: 1 });
  });
});
