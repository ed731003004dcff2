import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Permission, TransferDetail, TransferListItem, TransferListResponse } from '@ferry/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, fetchBytes, randomFile, readZip, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { runningTotalsDrift } from '../test/running-totals.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * The dashboard's server side (/dashboard/transfers): the list (sent and received, search, filters, sorts, keyset
 * pages), a transfer's detail with each recipient's timeline, and every action with its effect, its spec §3
 * event, its e-mail, and its refusal to anyone but the owner or an authorized team manager. Real database, real
 * storage on disk, real SMTP server.
 */
let sink: SmtpSink;
let ferry: TestFerry;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let alice: Account;
let bob: Account;
let eve: Account;
let carl: Account;
let n = 0;

const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@dash.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_FROM: 'no-reply@ferry.example',
      MAIL_RETRY_DELAY_SECONDS: '1',
      DOWNLOAD_CONFIRMATION_DELAY_SECONDS: '0',
      MAINTENANCE_CRON: '0 0 1 1 *',
    },
  });
  alice = await account('alice');
  bob = await account('bob');
  eve = await account('eve');
  carl = await account('carl');
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM transfers');
  await query(
    ferry,
    `UPDATE users SET plan_type = 'NONE', manager_id = NULL, permissions = '{}', settings = '{}'`,
  );
  sink.messages.length = 0;
});
// Every change made, the running totals the triggers keep (search texts, stored and pending bytes) agree with the rows.
afterEach(async () => {
  expect(await runningTotalsDrift(ferry)).toEqual({ searchText: [], storage: [], pending: [] });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const to = (address: string) => (m: ReceivedMail) => m.to.includes(address);
const personalLink = (m: ReceivedMail) => {
  const match = /\/dl\/([A-Za-z0-9]{16})\?userSecret=([A-Za-z0-9_-]+)/.exec(m.parsed.text ?? '');
  expect(match, 'a personal link in the mail').not.toBeNull();
  return { transferId: match![1]!, userSecret: match![2]! };
};

function call(who: Account | null, method: string, url: string, json?: unknown) {
  return api(ferry.baseUrl, url, { method, headers: who ? who.bearer : {}, json });
}
const T = (id: string, rest = '') => `/api/transfer/transfers/${id}${rest}`;
const list = async (who: Account, params: Record<string, string> = {}) => {
  const res = await call(who, 'GET', `/api/transfer/transfers?${new URLSearchParams(params)}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TransferListResponse;
};
const ids = (page: { items: TransferListItem[] }) => page.items.map((i) => i.id);
const detail = async (who: Account, id: string) => {
  const res = await call(who, 'GET', T(id, '/detail'));
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TransferDetail;
};
const events = (id: string) =>
  query<{ type: string; actor: string; data: Record<string, unknown> }>(
    ferry,
    'SELECT type, actor, data FROM transfer_events WHERE transfer_id = $1 ORDER BY id',
    [id],
  );
const lastEvents = async (id: string, count: number) => (await events(id)).slice(-count);
const info = (id: string, extra: Record<string, string> = {}) =>
  api(ferry.baseUrl, `/api/transfer/downloads/info?${new URLSearchParams({ transferId: id, ...extra })}`);
const link = (id: string, extra: Record<string, string> = {}) =>
  api(ferry.baseUrl, `/api/transfer/downloads/link?${new URLSearchParams({ transferId: id, ...extra })}`);
const blobPath = (transferId: string, fileId: string) =>
  path.join(ferry.dataDir, 'files', 'uploads', `${transferId}-${fileId}`);

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A signed-in sender's transfer, uploaded and completed (unless `upload: false`). */
async function send(
  who: Account,
  files: Array<{ name: string; data: Buffer; relativePath?: string }>,
  body: Record<string, unknown> = {},
  upload = true,
) {
  const created = await call(who, 'POST', '/api/transfer/transfers', {
    files: files.map((f) => ({ name: f.name, size: f.data.length, relativePath: f.relativePath })),
    ...body,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const transferId: string = created.body.transferId;
  const fileIds: string[] = created.body.files.map((f: { id: string }) => f.id);
  if (upload) {
    const tus = new TusTestClient(ferry.baseUrl, created.body.uploadToken);
    for (const [i, f] of files.entries()) await tus.upload(transferId, fileIds[i]!, f.data);
    const done = await api(ferry.baseUrl, T(transferId, '/complete'), {
      method: 'POST',
      headers: { 'x-upload-token': created.body.uploadToken },
      json: { files: [] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  }
  return { transferId, fileIds, link: created.body.link as string };
}
const oneFile = (who: Account, body: Record<string, unknown> = {}) =>
  send(who, [{ name: 'a.txt', data: Buffer.from('hello') }], body);

describe('GET /api/transfer/transfers', () => {
  it("lists the user's sent and received transfers, searchable, filterable and sorted, with the team's storage", async () => {
    const a = await send(alice, [{ name: 'q1.pdf', data: randomFile(300) }], { name: 'Quarterly report' });
    const b = await send(
      alice,
      [
        { name: 'beach.jpg', data: randomFile(1000) },
        { name: 'notes.txt', data: Buffer.from('notes') },
      ],
      { type: 'S1', name: 'Holiday photos', recipients: [bob.email, 'carol@dash.example'] },
    );
    const c = await send(alice, [{ name: 'invoice-2024.pdf', data: randomFile(50) }], { name: 'Misc' });
    const d = await send(alice, [{ name: 'big.bin', data: randomFile(10) }], { name: 'Draft' }, false);
    await send(eve, [{ name: 'q1.pdf', data: randomFile(10) }], { name: 'Quarterly eve' });
    const f = await send(bob, [{ name: 'mine.txt', data: Buffer.from('bob') }], { name: 'Bob stuff' });
    await sink.waitFor(to(bob.email));

    const all = await list(alice);
    expect(ids(all)).toEqual([d.transferId, c.transferId, b.transferId, a.transferId]);
    expect(all).toMatchObject({ nextCursor: null, total: 4, totalIsCapped: false });
    expect(all.storage).toEqual({ used: 300 + 1005 + 50 + 10, limit: 100e9 });
    const holiday = all.items.find((i) => i.id === b.transferId)!;
    expect(holiday).toMatchObject({
      type: 'S1',
      status: 'ENABLED',
      statusLabel: 'enabled',
      name: 'Holiday photos',
      // The sender's own link: an S1 transfer opens with a secret only.
      link: b.link,
      expired: false,
      totalSize: 1005,
      fileCount: 2,
      recipientCount: 2,
      downloadCount: 0,
      passwordProtected: false,
      senderEmail: alice.email,
      direction: 'sent',
    });
    expect(holiday.files).toBeUndefined();
    expect(all.items[0]).toMatchObject({ status: 'UPLOADING', statusLabel: 'uploading' });

    // Search: name, a recipient's address, a file name; case-insensitive, and % is just a character.
    const search = async (q: string, extra: Record<string, string> = {}) =>
      ids(await list(alice, { q, ...extra }));
    expect(await search('QUARTERLY')).toEqual([a.transferId]);
    expect(await search('carol@dash')).toEqual([b.transferId]);
    expect(await search('invoice-20')).toEqual([c.transferId]);
    expect(await search('notes.txt')).toEqual([b.transferId]);
    expect(await search('%')).toEqual([]);
    expect(await search('Mi')).toEqual([c.transferId]);
    expect(await search('pdf')).toEqual([c.transferId, a.transferId]);
    expect((await list(alice, { q: 'pdf' })).total).toBe(2);
    // The search text each creation gives (sparing the triggers' rewrites) is the one the triggers would make.
    expect(
      await query(
        ferry,
        `SELECT id, search_text FROM transfers
          WHERE owner_id IS NOT NULL AND search_text IS DISTINCT FROM ferry_transfer_search_text(id, name)`,
      ),
    ).toEqual([]);
    expect(
      (await query(ferry, 'SELECT count(*)::int AS n FROM transfers WHERE search_text IS NOT NULL'))[0],
    ).toEqual({
      n: 6,
    });
    // A name, a file name and an address are each searched alone: nothing matches across two of them.
    expect(await search('photos\nbeach')).toEqual([]);
    expect(await search('photos beach')).toEqual([]);
    expect(await search('s\nb')).toEqual([]);
    // Filters.
    expect(ids(await list(alice, { type: 'S1' }))).toEqual([b.transferId]);
    expect(ids(await list(alice, { status: 'UPLOADING' }))).toEqual([d.transferId]);
    expect(ids(await list(alice, { status: 'ENABLED,DISABLED', q: 'i' }))).toEqual([
      c.transferId,
      b.transferId,
    ]);
    // Sorts.
    const names = async (sort: string, dir: string) =>
      (await list(alice, { sort, dir })).items.map((i) => i.name);
    expect(await names('name', 'asc')).toEqual(['Draft', 'Holiday photos', 'Misc', 'Quarterly report']);
    expect(await names('size', 'desc')).toEqual(['Holiday photos', 'Quarterly report', 'Misc', 'Draft']);
    expect(await names('createdAt', 'asc')).toEqual(['Quarterly report', 'Holiday photos', 'Misc', 'Draft']);

    // With files: what `ferry transfers --json` prints.
    const withFiles = await list(alice, { withFiles: 'true', type: 'S1' });
    expect(withFiles.items[0]!.files).toEqual([
      { id: b.fileIds[0], name: 'beach.jpg', size: 1000, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
      { id: b.fileIds[1], name: 'notes.txt', size: 5, sha256: sha256(Buffer.from('notes')) },
    ]);

    // Bob: his own transfer, and the one Alice sent to his address, with his personal link.
    const bobs = await list(bob);
    expect(bobs.items.map((i) => [i.id, i.direction])).toEqual([
      [f.transferId, 'sent'],
      [b.transferId, 'received'],
    ]);
    const received = bobs.items[1]!;
    expect(received).toMatchObject({
      name: 'Holiday photos',
      senderEmail: alice.email,
      recipientCount: null,
      downloadCount: null,
    });
    const secret = new URL(received.link).searchParams.get('userSecret')!;
    expect((await info(b.transferId, { userSecret: secret })).body.recipientEmail).toBe(bob.email);
    expect(ids(await list(bob, { direction: 'received' }))).toEqual([b.transferId]);
    expect(ids(await list(bob, { direction: 'sent' }))).toEqual([f.transferId]);
    expect(ids(await list(bob, { q: alice.email.slice(0, 8) }))).toEqual([b.transferId]);
    expect((await list(bob)).storage.used).toBe(3);

    // Nobody else's.
    expect(ids(await list(eve))).not.toContain(a.transferId);
    expect((await list(eve)).total).toBe(1);
    expect((await call(null, 'GET', '/api/transfer/transfers')).status).toBe(401);
    expect((await call(alice, 'GET', '/api/transfer/transfers?limit=101')).status).toBe(400);
    const bad = await call(alice, 'GET', '/api/transfer/transfers?cursor=bm90LWEtY3Vyc29y');
    expect(bad.body).toMatchObject({ status: 400, codes: ['VALIDATION_FAILED'] });
  });

  it('pages with cursors: every transfer exactly once, in order, for every sort and direction, ties included', async () => {
    // 57 transfers sharing 5 creation times, 3 sizes and 4 names (one of them none).
    await query(
      ferry,
      `INSERT INTO transfers (id, type, status, name, upload_token_hash, owner_id, total_size, file_count,
                              expires_at, created_at)
       SELECT 'pg' || lpad(i::text, 14, '0'), 'S2', 'ENABLED',
              (ARRAY['alpha', 'Beta', NULL, 'gamma'])[1 + i % 4], 'x', $1, 100 * (i % 3), 1,
              now() + make_interval(days => 1 + i % 2), now() - make_interval(mins => i % 5)
         FROM generate_series(1, 57) i`,
      [carl.uid],
    );
    for (const sort of ['createdAt', 'expiresAt', 'name', 'size'])
      for (const dir of ['asc', 'desc']) {
        const seen: string[] = [];
        let cursor: string | null = null;
        do {
          const page = await list(carl, { sort, dir, limit: '10', ...(cursor ? { cursor } : {}) });
          expect(page.total).toBe(57);
          seen.push(...ids(page));
          cursor = page.nextCursor;
        } while (cursor);
        const expr = {
          createdAt: 'created_at',
          expiresAt: 'expires_at',
          name: "coalesce(lower(name), '')",
          size: 'total_size',
        }[sort];
        const expected = await query<{ id: string }>(
          ferry,
          `SELECT id FROM transfers WHERE owner_id = $1 ORDER BY ${expr} ${dir}, id ${dir}`,
          [carl.uid],
        );
        expect([sort, dir, seen]).toEqual([sort, dir, expected.map((r) => r.id)]);
      }
    // A transfer added between two pages neither repeats nor hides an item of the next page.
    const first = await list(carl, { limit: '20' });
    await send(carl, [{ name: 'late.txt', data: Buffer.from('late') }]);
    const second = await list(carl, { limit: '50', cursor: first.nextCursor! });
    expect([...ids(first), ...ids(second)]).toHaveLength(57);
    expect(new Set([...ids(first), ...ids(second)]).size).toBe(57);
    // A cursor of another sort order is refused.
    expect(
      (await call(carl, 'GET', `/api/transfer/transfers?sort=size&cursor=${first.nextCursor}`)).status,
    ).toBe(400);
  });

  it('says when the total is capped at 10 000', async () => {
    await query(
      ferry,
      `INSERT INTO transfers (id, type, status, upload_token_hash, owner_id, total_size, file_count, expires_at)
       SELECT 'bk' || lpad(i::text, 14, '0'), 'S2', 'ENABLED', 'x', $1, 1, 1, now() + interval '1 day'
         FROM generate_series(1, 10050) i`,
      [carl.uid],
    );
    const page = await list(carl, { limit: '100' });
    expect(page.items).toHaveLength(100);
    expect(page).toMatchObject({ total: 10_000, totalIsCapped: true });
    expect(page.nextCursor).not.toBeNull();
    // A word in 2 500 file names (past what the trigram shortcut takes: the owner's transfers are walked), counted
    // up to a search's cap of 1 000; and one in a single file name (the shortcut), counted exactly.
    await query(
      ferry,
      `INSERT INTO transfer_files (transfer_id, id, position, name, size)
       SELECT 'bk' || lpad(i::text, 14, '0'), 'f00001', 0,
              CASE WHEN i = 77 THEN 'one-of-a-kind.txt' ELSE 'common-' || i || '.txt' END, 1
         FROM generate_series(1, 2500) i`,
    );
    const common = await list(carl, { q: 'COMMON-', sort: 'name', dir: 'asc' });
    expect(common).toMatchObject({ total: 1000, totalIsCapped: true });
    expect(common.items).toHaveLength(25);
    const rare = await list(carl, { q: 'of-a-kind' });
    expect(rare).toMatchObject({ total: 1, items: [{ id: `bk${'77'.padStart(14, '0')}` }] });
    expect(await list(carl, { q: 'on' })).toMatchObject({ total: 1000, totalIsCapped: true });
    expect(await list(carl, { q: 'common-78.' })).toMatchObject({ total: 1, totalIsCapped: false });
    // One or two characters found in a single file name (the short-gram shortcut), in any case.
    for (const q of ['KI', 'k', 'd.'])
      expect(await list(carl, { q }), q).toMatchObject({
        total: 1,
        items: [{ id: `bk${'77'.padStart(14, '0')}` }],
      });
  });
});

describe('GET /api/transfer/transfers/{id}/detail', () => {
  it("shows files with SHA-256, each recipient's timeline (sent, delivered, opened, downloaded with bytes) and the history", async () => {
    const data = [randomFile(2000), Buffer.from('second file')];
    const t = await send(
      alice,
      [
        { name: 'a.bin', data: data[0]! },
        { name: 'b.txt', data: data[1]! },
      ],
      { type: 'S1', name: 'For Bob', message: 'Hi', recipients: [bob.email, 'dave@dash.example'] },
    );
    const mine = personalLink(await sink.waitFor(to(bob.email)));
    await sink.waitFor(to('dave@dash.example'));
    // Delivered first, so that the timeline's order is known.
    await until(
      () => detail(alice, t.transferId),
      (d) => d.recipients.every((r) => r.delivery === 'sent'),
    );
    expect((await info(t.transferId, { userSecret: mine.userSecret })).status).toBe(200);
    const got = await link(t.transferId, { fileId: t.fileIds[0]!, userSecret: mine.userSecret });
    expect(got.status).toBe(200);
    expect(sha256((await fetchBytes(got.body.url)).data)).toBe(sha256(data[0]!));
    // A download through the sender's own link (no recipient's), as a ZIP.
    const senderSecret = new URL(t.link).searchParams.get('userSecret')!;
    expect((await link(t.transferId, { userSecret: senderSecret })).status).toBe(200);

    const shown = await detail(alice, t.transferId);
    expect(shown).toMatchObject({
      transferId: t.transferId,
      type: 'S1',
      status: 'ENABLED',
      statusLabel: 'enabled',
      ownerId: alice.uid,
      name: 'For Bob',
      message: 'Hi',
      maxDownloads: null,
      allowPreview: true,
      passwordProtected: false,
      downloadCount: 2,
      fileCount: 2,
      totalSize: 2011,
      expired: false,
      bytesDeletedAt: null,
      files: [
        { id: t.fileIds[0], name: 'a.bin', size: 2000, sha256: sha256(data[0]!) },
        { id: t.fileIds[1], name: 'b.txt', size: 11, sha256: sha256(data[1]!) },
      ],
    });
    const bobs = shown.recipients.find((r) => r.email === bob.email)!;
    expect(bobs.timeline.map((e) => e.kind)).toEqual(['sent', 'delivered', 'opened', 'downloaded']);
    expect(bobs.timeline[3]).toMatchObject({ fileIds: [t.fileIds[0]], archive: false, bytes: 2000 });
    expect(bobs.downloadedAt).not.toBeNull();
    const daves = shown.recipients.find((r) => r.email === 'dave@dash.example')!;
    expect(daves.timeline.map((e) => e.kind)).toEqual(['sent', 'delivered']);
    expect(shown.downloads).toEqual([
      expect.objectContaining({ fileIds: t.fileIds, archive: true, downloaderEmail: null }),
    ]);
    const types = shown.events.map((e) => e.type);
    expect(types[0]).toBe('CREATED');
    expect(types.slice(-2)).toEqual(['UPLOADED', 'AVAILABLE']);
    expect(types.filter((type) => type === 'RECIPIENT_ADDED')).toHaveLength(2);
    expect(shown.events[1]!.data).toEqual({ email: bob.email });
    expect(shown.events[0]!.actor).toEqual({ kind: 'user', userId: alice.uid, email: null });

    // Only the owner: not another user, not the recipient, not anonymous.
    for (const who of [eve, bob])
      expect((await call(who, 'GET', T(t.transferId, '/detail'))).body).toMatchObject({
        status: 404,
        codes: ['TRANSFER_NOT_FOUND'],
      });
    expect((await call(null, 'GET', T(t.transferId, '/detail'))).status).toBe(401);
  });
});

describe('dashboard actions', () => {
  it('renames: RENAMED {from, to} by user:<uid>', async () => {
    const t = await oneFile(alice, { name: 'Old name' });
    const res = await call(alice, 'PATCH', T(t.transferId), { name: '  New name ' });
    expect(res.status).toBe(200);
    expect(res.body.name).toBe('New name');
    expect(await lastEvents(t.transferId, 1)).toEqual([
      { type: 'RENAMED', actor: `user:${alice.uid}`, data: { from: 'Old name', to: 'New name' } },
    ]);
    expect((await info(t.transferId)).body.name).toBe('New name');
    // The search finds it by its new name only.
    expect(ids(await list(alice, { q: 'old name' }))).toEqual([]);
    expect(ids(await list(alice, { q: 'new name' }))).toEqual([t.transferId]);
    // The same name again changes nothing; an empty one removes it.
    await call(alice, 'PATCH', T(t.transferId), { name: 'New name' });
    expect((await events(t.transferId)).filter((e) => e.type === 'RENAMED')).toHaveLength(1);
    expect((await call(alice, 'PATCH', T(t.transferId), { name: '' })).body.name).toBeNull();
    expect((await call(alice, 'PATCH', T(t.transferId), { nmae: 'typo' })).status).toBe(400);
  });

  it("changes the expiry within the plan's validity counted from creation; an expired transfer stays expired", async () => {
    const t = await oneFile(alice);
    const [row] = await query<{ created_at: Date }>(ferry, 'SELECT created_at FROM transfers WHERE id = $1', [
      t.transferId,
    ]);
    const created = row!.created_at.getTime();
    const day = 86_400_000;
    const before = (await detail(alice, t.transferId)).expiresAt;
    const wanted = new Date(created + 6 * day).toISOString();
    const res = await call(alice, 'PATCH', T(t.transferId), { expiresAt: wanted });
    expect(res.body.expiresAt).toBe(wanted);
    expect(await lastEvents(t.transferId, 1)).toEqual([
      { type: 'EXPIRY_DATE_CHANGED', actor: `user:${alice.uid}`, data: { from: before, to: wanted } },
    ]);
    // NONE: 7 days from creation at most; the last allowed day, given as a day, is its last moment.
    const over = await call(alice, 'PATCH', T(t.transferId), {
      expiresAt: new Date(created + 8 * day).toISOString(),
    });
    expect(over.body).toMatchObject({
      status: 400,
      codes: ['LIMIT_EXCEEDED'],
      limitErrors: [{ limit: 'fileValidityInDays', max: 7, actual: 8 }],
    });
    const lastDay = new Date(created + 7 * day).toISOString().slice(0, 10);
    expect((await call(alice, 'PATCH', T(t.transferId), { expiresAt: lastDay })).body.expiresAt).toBe(
      new Date(created + 7 * day).toISOString(),
    );
    expect(
      (await call(alice, 'PATCH', T(t.transferId), { expiresAt: '2001-01-01T00:00:00Z' })).body.codes,
    ).toEqual(['VALIDATION_FAILED']);
    // PREMIUM allows 365 days.
    await query(ferry, `UPDATE users SET plan_type = 'PREMIUM' WHERE id = $1`, [alice.uid]);
    const far = new Date(created + 300 * day).toISOString();
    expect((await call(alice, 'PATCH', T(t.transferId), { expiresAt: far })).body.expiresAt).toBe(far);
    // Expired and swept: the bytes are gone, so it cannot come back.
    await query(ferry, `UPDATE transfers SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      t.transferId,
    ]);
    expect(await ferry.notifications.expireDue()).toBe(1);
    const revive = await call(alice, 'PATCH', T(t.transferId), { expiresAt: far });
    expect(revive.body).toMatchObject({ status: 409, codes: ['CONFLICT'] });
    expect((await detail(alice, t.transferId)).bytesDeletedAt).not.toBeNull();
  });

  it('adds S1 recipients, mailing each new one a working personal link, within the plan; later when disabled', async () => {
    const t = await oneFile(alice, { type: 'S1', recipients: [bob.email] });
    await sink.waitFor(to(bob.email));
    const erin = 'erin@dash.example';
    const res = await call(alice, 'POST', T(t.transferId, '/recipients'), {
      emails: [erin, bob.email.toUpperCase()],
    });
    expect(res.status).toBe(200);
    expect(res.body.recipients.map((r: { email: string }) => r.email)).toEqual([bob.email, erin]);
    expect(ids(await list(alice, { q: 'ERIN@' }))).toEqual([t.transferId]);
    expect(await lastEvents(t.transferId, 1)).toEqual([
      { type: 'RECIPIENT_ADDED', actor: `user:${alice.uid}`, data: { email: erin, mailed: true } },
    ]);
    const mail = await sink.waitFor(to(erin));
    const erinsLink = personalLink(mail);
    expect(erinsLink.transferId).toBe(t.transferId);
    expect((await info(t.transferId, { userSecret: erinsLink.userSecret })).body.recipientEmail).toBe(erin);
    expect(sink.messages.filter(to(bob.email))).toHaveLength(1); // not mailed again
    const delivered = await until(
      () => detail(alice, t.transferId),
      (d) => d.recipients[1]?.delivery === 'sent',
    );
    expect(delivered.recipients[1]!.timeline.map((e) => e.kind).sort()).toEqual([
      'delivered',
      'opened',
      'sent',
    ]);

    // NONE: 10 recipients at most.
    const many = Array.from({ length: 9 }, (_, i) => `r${i}@dash.example`);
    expect((await call(alice, 'POST', T(t.transferId, '/recipients'), { emails: many })).body).toMatchObject({
      status: 400,
      codes: ['LIMIT_EXCEEDED'],
      limitErrors: [{ limit: 'recipients', max: 10, actual: 11 }],
    });
    expect((await detail(alice, t.transferId)).recipients).toHaveLength(2);

    // Added while disabled: not mailed then (the link would not work), mailed once enabled again.
    expect((await call(alice, 'POST', T(t.transferId, '/disable'))).status).toBe(200);
    const frank = 'frank@dash.example';
    await call(alice, 'POST', T(t.transferId, '/recipients'), { emails: [frank] });
    expect((await lastEvents(t.transferId, 1))[0]!.data).toEqual({ email: frank, mailed: false });
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages.filter(to(frank))).toHaveLength(0);
    expect((await call(alice, 'POST', T(t.transferId, '/enable'))).status).toBe(200);
    personalLink(await sink.waitFor(to(frank)));
    await new Promise((r) => setTimeout(r, 500));
    expect(sink.messages.filter(to(erin))).toHaveLength(1);

    // S2 transfers have no recipients.
    const s2 = await oneFile(alice);
    expect(
      (await call(alice, 'POST', T(s2.transferId, '/recipients'), { emails: [erin] })).body.codes,
    ).toEqual(['VALIDATION_FAILED']);
  });

  it("removes recipients: RECIPIENT_REMOVED, and the removed one's personal link stops working", async () => {
    const carol = 'carol@dash.example';
    const t = await oneFile(alice, { type: 'S1', recipients: [bob.email, carol] });
    const bobs = personalLink(await sink.waitFor(to(bob.email)));
    const carols = personalLink(await sink.waitFor(to(carol)));
    const res = await call(
      alice,
      'DELETE',
      T(t.transferId, `/recipients/${encodeURIComponent('CAROL@dash.example')}`),
    );
    expect(res.status).toBe(200);
    expect(res.body.recipients.map((r: { email: string }) => r.email)).toEqual([bob.email]);
    // The search no longer finds the transfer by the removed address; by the other one it does.
    expect(ids(await list(alice, { q: 'carol@' }))).toEqual([]);
    expect(ids(await list(alice, { q: bob.email.slice(0, 5) }))).toEqual([t.transferId]);
    expect(await lastEvents(t.transferId, 1)).toEqual([
      { type: 'RECIPIENT_REMOVED', actor: `user:${alice.uid}`, data: { email: carol } },
    ]);
    expect((await info(t.transferId, { userSecret: carols.userSecret })).body).toMatchObject({
      status: 404,
      codes: ['TRANSFER_NOT_FOUND'],
    });
    expect((await link(t.transferId, { userSecret: carols.userSecret })).status).toBe(404);
    expect((await link(t.transferId, { userSecret: bobs.userSecret })).status).toBe(200);
    expect(
      (await call(alice, 'DELETE', T(t.transferId, `/recipients/${encodeURIComponent(carol)}`))).body.codes,
    ).toEqual(['NOT_FOUND']);
    expect(
      (await call(alice, 'DELETE', T(t.transferId, `/recipients/${encodeURIComponent(bob.email)}`))).body,
    ).toMatchObject({ status: 409, codes: ['CONFLICT'] });
  });

  it('S1 opens only with a secret or for its owner; a removal, a new password or disabling revokes URLs handed out before', async () => {
    const carol = 'carol@dash.example';
    const t = await oneFile(alice, { type: 'S1', recipients: [bob.email, carol] });
    const bobs = personalLink(await sink.waitFor(to(bob.email)));
    const carols = personalLink(await sink.waitFor(to(carol)));
    const file = { fileId: t.fileIds[0]! };
    const fetched = async (url: string) => (await fetchBytes(url)).status;

    // The bare link, without anyone's secret, opens nothing: not the page, not a file, not the ZIP.
    expect((await info(t.transferId)).body).toMatchObject({ status: 404, codes: ['TRANSFER_NOT_FOUND'] });
    expect((await link(t.transferId, file)).status).toBe(404);
    expect((await link(t.transferId)).status).toBe(404);
    expect((await call(eve, 'GET', `/api/transfer/downloads/link?transferId=${t.transferId}`)).status).toBe(
      404,
    );
    // The sender's own link (create answer, summary mail) and the signed-in owner do.
    const senderSecret = new URL(t.link).searchParams.get('userSecret')!;
    expect(senderSecret).not.toBe(bobs.userSecret);
    const summary = await sink.waitFor((m) => to(alice.email)(m) && m.parsed.text?.includes(t.link) === true);
    expect(summary).toBeDefined();
    expect((await info(t.transferId, { userSecret: senderSecret })).body).toMatchObject({
      recipientEmail: null,
      files: [{ name: 'a.txt' }],
    });
    const senderUrl = (await link(t.transferId, { ...file, userSecret: senderSecret })).body.url as string;
    expect((await fetchBytes(senderUrl)).data.toString()).toBe('hello');
    expect((await call(alice, 'GET', `/api/transfer/downloads/link?transferId=${t.transferId}`)).status).toBe(
      200,
    );

    // URLs handed out before Carol's removal stop working, hers and everyone's; new ones work.
    const carolUrl = (await link(t.transferId, { ...file, userSecret: carols.userSecret })).body
      .url as string;
    const bobUrl = (await link(t.transferId, { userSecret: bobs.userSecret })).body.url as string;
    expect(await fetched(carolUrl)).toBe(200);
    await call(alice, 'DELETE', T(t.transferId, `/recipients/${encodeURIComponent(carol)}`));
    expect([await fetched(carolUrl), await fetched(bobUrl), await fetched(senderUrl)]).toEqual([
      404, 404, 404,
    ]);
    const bobAgain = (await link(t.transferId, { ...file, userSecret: bobs.userSecret })).body.url as string;
    expect(await fetched(bobAgain)).toBe(200);

    // A new password revokes them too.
    await call(alice, 'PATCH', T(t.transferId), { password: 'new secret' });
    expect(await fetched(bobAgain)).toBe(404);
    const withPassword = { ...file, userSecret: bobs.userSecret, password: 'new secret' };
    const afterPassword = (await link(t.transferId, withPassword)).body.url as string;
    expect(await fetched(afterPassword)).toBe(200);

    // So does disabling: enabled again, the transfer serves only URLs asked for since.
    expect((await call(alice, 'POST', T(t.transferId, '/disable'))).status).toBe(200);
    expect((await call(alice, 'POST', T(t.transferId, '/enable'))).status).toBe(200);
    expect(await fetched(afterPassword)).toBe(404);
    expect(await fetched((await link(t.transferId, withPassword)).body.url)).toBe(200);
  });

  it('sets, changes and removes the password (argon2id): PASSWORD_CHANGED {removed}', async () => {
    const t = await oneFile(alice);
    const set = await call(alice, 'PATCH', T(t.transferId), { password: 'first secret' });
    expect(set.body.passwordProtected).toBe(true);
    const [row] = await query<{ password_hash: string }>(
      ferry,
      'SELECT password_hash FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect((await link(t.transferId)).body.codes).toEqual(['PASSWORD_REQUIRED']);
    expect((await link(t.transferId, { password: 'first secret' })).status).toBe(200);
    await call(alice, 'PATCH', T(t.transferId), { password: 'second secret' });
    expect((await link(t.transferId, { password: 'first secret' })).body.codes).toEqual(['WRONG_PASSWORD']);
    expect((await link(t.transferId, { password: 'second secret' })).status).toBe(200);
    const removed = await call(alice, 'PATCH', T(t.transferId), { password: null });
    expect(removed.body.passwordProtected).toBe(false);
    expect((await link(t.transferId)).status).toBe(200);
    await call(alice, 'PATCH', T(t.transferId), { password: null }); // nothing to remove: no event
    const who = `user:${alice.uid}`;
    expect((await events(t.transferId)).filter((e) => e.type === 'PASSWORD_CHANGED')).toEqual([
      { type: 'PASSWORD_CHANGED', actor: who, data: { removed: false } },
      { type: 'PASSWORD_CHANGED', actor: who, data: { removed: false } },
      { type: 'PASSWORD_CHANGED', actor: who, data: { removed: true } },
    ]);
  });

  it('turns previews off and on (PREVIEW_CHANGED) and adds, changes, removes the download limit (MAX_DOWNLOADS_*)', async () => {
    const t = await oneFile(alice);
    await call(alice, 'PATCH', T(t.transferId), { allowPreview: false });
    expect((await link(t.transferId, { preview: 'true' })).body.codes).toEqual(['FORBIDDEN']);
    await call(alice, 'PATCH', T(t.transferId), { allowPreview: true });
    // Previews exist not yet: never the file itself instead.
    expect((await link(t.transferId, { preview: 'true' })).body.codes).toEqual(['PREVIEW_NOT_AVAILABLE']);

    await call(alice, 'PATCH', T(t.transferId), { maxDownloads: 3 });
    expect((await info(t.transferId)).body.downloadsLeft).toBe(3);
    await call(alice, 'PATCH', T(t.transferId), { maxDownloads: 5 });
    const removed = await call(alice, 'PATCH', T(t.transferId), { maxDownloads: null });
    expect(removed.body.maxDownloads).toBeNull();
    expect((await info(t.transferId)).body.downloadsLeft).toBeNull();
    const who = `user:${alice.uid}`;
    expect(await lastEvents(t.transferId, 5)).toEqual([
      { type: 'PREVIEW_CHANGED', actor: who, data: { allowPreview: false } },
      { type: 'PREVIEW_CHANGED', actor: who, data: { allowPreview: true } },
      { type: 'MAX_DOWNLOADS_ADDED', actor: who, data: { to: 3 } },
      { type: 'MAX_DOWNLOADS_CHANGED', actor: who, data: { from: 3, to: 5 } },
      { type: 'MAX_DOWNLOADS_REMOVED', actor: who, data: { from: 5 } },
    ]);
  });

  it('turns the notification switches on and off with the session, each its event; a refused switch changes nothing', async () => {
    const s1 = await oneFile(alice, { type: 'S1', recipients: [bob.email] });
    const res = await call(alice, 'PATCH', T(s1.transferId), {
      downloadConfirmation: false,
      expiryReminder: false,
    });
    expect(res.body.notifications).toMatchObject({ downloadConfirmation: false, expiryReminder: false });
    expect(res.body.senderVerification).toBe('not_needed');
    expect((await lastEvents(s1.transferId, 2)).map((e) => [e.type, e.actor])).toEqual([
      ['DOWNLOAD_CONFIRMATION_DISABLED', `user:${alice.uid}`],
      ['EXPIRY_REMINDER_DISABLED', `user:${alice.uid}`],
    ]);
    const s2 = await oneFile(alice, { name: 'Link' });
    await call(alice, 'PATCH', T(s2.transferId), { forceEmailWhenDownloadS2: true });
    expect((await lastEvents(s2.transferId, 1))[0]!.type).toBe('FORCE_EMAIL_WHEN_DOWNLOAD_S2_ADDED');
    expect((await link(s2.transferId)).body.codes).toEqual(['DOWNLOADER_EMAIL_REQUIRED']);
    const refused = await call(alice, 'PATCH', T(s2.transferId), { name: 'Changed', expiryReminder: true });
    expect(refused.body.codes).toEqual(['VALIDATION_FAILED']);
    expect((await detail(alice, s2.transferId)).name).toBe('Link');
  });

  it('disables (410 TRANSFER_DISABLED for pages and links, issued ones too) and enables again', async () => {
    const t = await oneFile(alice);
    const issued = await link(t.transferId, { fileId: t.fileIds[0]! });
    const off = await call(alice, 'POST', T(t.transferId, '/disable'));
    expect(off.body).toMatchObject({ status: 'DISABLED', statusLabel: 'disabled' });
    for (const res of [await info(t.transferId), await link(t.transferId)])
      expect(res.body).toMatchObject({ status: 410, codes: ['TRANSFER_DISABLED'] });
    expect((await fetchBytes(issued.body.url)).status).toBe(410);
    expect(ids(await list(alice, { status: 'DISABLED' }))).toEqual([t.transferId]);
    await call(alice, 'POST', T(t.transferId, '/disable')); // already: no second event
    const on = await call(alice, 'POST', T(t.transferId, '/enable'));
    expect(on.body.status).toBe('ENABLED');
    expect(
      (await fetchBytes((await link(t.transferId, { fileId: t.fileIds[0]! })).body.url)).data.toString(),
    ).toBe('hello');
    expect(await lastEvents(t.transferId, 2)).toEqual([
      { type: 'DISABLED', actor: `user:${alice.uid}`, data: {} },
      { type: 'ENABLED', actor: `user:${alice.uid}`, data: {} },
    ]);
  });

  it('deletes: status DELETED, bytes removed from storage, names, hashes and history kept', async () => {
    const data = [randomFile(700), randomFile(300)];
    const t = await send(alice, [
      { name: 'one.bin', data: data[0]! },
      { name: 'two.bin', data: data[1]! },
    ]);
    const keep = await oneFile(alice);
    expect((await list(alice)).storage.used).toBe(1005);
    for (const id of t.fileIds) expect(existsSync(blobPath(t.transferId, id))).toBe(true);
    expect((await call(alice, 'DELETE', T(t.transferId))).status).toBe(204);
    for (const id of t.fileIds) expect(existsSync(blobPath(t.transferId, id))).toBe(false);
    expect((await info(t.transferId)).body.codes).toEqual(['TRANSFER_DISABLED']);
    const shown = await detail(alice, t.transferId);
    expect(shown).toMatchObject({ status: 'DELETED', statusLabel: 'deleted' });
    expect(shown.bytesDeletedAt).not.toBeNull();
    expect(shown.files.map((f) => [f.name, f.sha256])).toEqual([
      ['one.bin', sha256(data[0]!)],
      ['two.bin', sha256(data[1]!)],
    ]);
    expect(await lastEvents(t.transferId, 1)).toEqual([
      {
        type: 'EXPIRED',
        actor: `user:${alice.uid}`,
        data: { reason: 'deleted', files: 2, bytes: 1000 },
      },
    ]);
    const listed = await list(alice);
    expect(listed.items.find((i) => i.id === t.transferId)?.statusLabel).toBe('deleted');
    expect(listed.storage.used).toBe(5);
    expect((await call(alice, 'DELETE', T(t.transferId))).status).toBe(409);
    expect((await call(alice, 'PATCH', T(t.transferId), { name: 'back' })).status).toBe(409);
    expect((await info(keep.transferId)).status).toBe(200);
  });

  it('renames a file by the spec §5 rules (FILE_RENAMED), keeping its folder', async () => {
    const t = await send(alice, [
      { name: 'draft.txt', data: Buffer.from('draft') },
      { name: 'x.txt', data: Buffer.from('x'), relativePath: 'folder/x.txt' },
    ]);
    const res = await call(alice, 'PATCH', T(t.transferId, `/files/${t.fileIds[0]}`), { name: 'final.txt' });
    expect(res.body.files[0]).toMatchObject({ id: t.fileIds[0], name: 'final.txt' });
    expect(await lastEvents(t.transferId, 1)).toEqual([
      {
        type: 'FILE_RENAMED',
        actor: `user:${alice.uid}`,
        data: { fileId: t.fileIds[0], from: 'draft.txt', to: 'final.txt' },
      },
    ]);
    expect((await link(t.transferId, { fileId: t.fileIds[0]! })).body.fileName).toBe('final.txt');
    expect(ids(await list(alice, { q: 'draft.' }))).toEqual([]);
    expect(ids(await list(alice, { q: 'final.' }))).toEqual([t.transferId]);
    const moved = await call(alice, 'PATCH', T(t.transferId, `/files/${t.fileIds[1]}`), { name: 'y.txt' });
    expect(moved.body.files[1]).toMatchObject({ name: 'y.txt', relativePath: 'folder/y.txt' });
    for (const [name, key] of [
      ['setup.exe', 'uploader:notif_file_is_exe'],
      ['a/b.txt', 'uploader:notif_invalid_filename'],
      ['/root.txt', 'uploader:notif_invalid_filename'],
      [`${'é'.repeat(128)}.txt`, 'uploader:notif_filename_too_long'],
    ]) {
      const refused = await call(alice, 'PATCH', T(t.transferId, `/files/${t.fileIds[0]}`), { name });
      expect(refused.body).toMatchObject({
        status: 400,
        codes: ['INVALID_FILENAME'],
        details: { files: [{ key }] },
      });
    }
    expect(
      (await call(alice, 'PATCH', T(t.transferId, '/files/zzzzzz'), { name: 'a.txt' })).body.codes,
    ).toEqual(['FILE_NOT_FOUND']);
  });

  it('deletes a file and its bytes (FILE_DELETED); the last file cannot be deleted', async () => {
    const data = [randomFile(400), Buffer.from('stays')];
    const t = await send(alice, [
      { name: 'gone.bin', data: data[0]! },
      { name: 'stays.txt', data: data[1]! },
    ]);
    const res = await call(alice, 'DELETE', T(t.transferId, `/files/${t.fileIds[0]}`));
    expect(res.body).toMatchObject({ fileCount: 1, totalSize: 5, files: [{ name: 'stays.txt' }] });
    expect(existsSync(blobPath(t.transferId, t.fileIds[0]!))).toBe(false);
    expect(await lastEvents(t.transferId, 1)).toEqual([
      {
        type: 'FILE_DELETED',
        actor: `user:${alice.uid}`,
        data: { fileId: t.fileIds[0], name: 'gone.bin', size: 400 },
      },
    ]);
    const zip = await readZip((await fetchBytes((await link(t.transferId)).body.url)).data);
    expect([...zip.keys()]).toEqual(['stays.txt']);
    expect((await link(t.transferId, { fileId: t.fileIds[0]! })).body.codes).toEqual(['FILE_NOT_FOUND']);
    expect(ids(await list(alice, { q: 'gone' }))).toEqual([]);
    expect(ids(await list(alice, { q: 'stays' }))).toEqual([t.transferId]);
    expect((await call(alice, 'DELETE', T(t.transferId, `/files/${t.fileIds[1]}`))).body).toMatchObject({
      status: 409,
      codes: ['CONFLICT'],
    });
    expect((await list(alice)).storage.used).toBe(5);
  });

  it('refuses every action to another user (404) and to anonymous callers (401), changing nothing', async () => {
    const t = await oneFile(alice, { type: 'S1', recipients: [bob.email], name: 'Private' });
    await until(
      () => detail(alice, t.transferId),
      (d) => d.sentAt !== null,
    );
    const before = await events(t.transferId);
    const [stored] = await query(ferry, 'SELECT * FROM transfers WHERE id = $1', [t.transferId]);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', T(t.transferId, '/detail')],
      ['PATCH', T(t.transferId), { name: 'Hijacked', password: 'x', maxDownloads: 1 }],
      ['PATCH', T(t.transferId), { expiresAt: new Date(Date.now() + 86_400_000).toISOString() }],
      ['PATCH', T(t.transferId), { downloadConfirmation: false }],
      ['POST', T(t.transferId, '/recipients'), { emails: ['mallory@dash.example'] }],
      ['DELETE', T(t.transferId, `/recipients/${encodeURIComponent(bob.email)}`)],
      ['POST', T(t.transferId, '/disable')],
      ['POST', T(t.transferId, '/enable')],
      ['DELETE', T(t.transferId)],
      ['PATCH', T(t.transferId, `/files/${t.fileIds[0]}`), { name: 'pwned.txt' }],
      ['DELETE', T(t.transferId, `/files/${t.fileIds[0]}`)],
    ];
    for (const [method, url, body] of calls) {
      const other = await call(eve, method, url, body);
      expect([method, url, other.status, other.body.codes]).toEqual([
        method,
        url,
        404,
        ['TRANSFER_NOT_FOUND'],
      ]);
      expect(JSON.stringify(other.body)).not.toContain('Private');
      const anonymous = await call(null, method, url, body);
      expect([method, url, anonymous.status]).toEqual([method, url, 401]);
    }
    expect(await events(t.transferId)).toEqual(before);
    expect((await query(ferry, 'SELECT * FROM transfers WHERE id = $1', [t.transferId]))[0]).toEqual(stored);
    expect(sink.messages.filter(to('mallory@dash.example'))).toHaveLength(0);
  });
});

describe('team managers (spec §6)', () => {
  it("lets the manager and TRANSFER_MANAGER members act on the team's transfers, and nobody else", async () => {
    const manager = alice;
    const [tm, um, all] = [bob, carl, eve];
    const join = (member: Account, permissions: Permission[]) =>
      query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
        member.uid,
        manager.uid,
        permissions,
      ]);
    await join(tm, ['TRANSFER_MANAGER']);
    await join(um, ['USER_MANAGER']);
    await join(all, []); // none stored: all three
    const outsider = await account('outsider');
    const ofUm = await oneFile(um, { name: "um's" });
    const ofTm = await oneFile(tm, { name: "tm's" });
    const ofManager = await oneFile(manager, { name: "manager's" });

    const rename = (who: Account, id: string, name: string) => call(who, 'PATCH', T(id), { name });
    expect((await rename(manager, ofUm.transferId, 'by manager')).status).toBe(200);
    expect((await rename(tm, ofUm.transferId, 'by tm')).status).toBe(200);
    expect((await rename(all, ofUm.transferId, 'by all')).status).toBe(200);
    expect((await rename(tm, ofManager.transferId, 'by tm')).status).toBe(200);
    expect((await call(manager, 'POST', T(ofTm.transferId, '/disable'))).body.ownerId).toBe(tm.uid);
    expect((await lastEvents(ofUm.transferId, 3)).map((e) => e.actor)).toEqual([
      `user:${manager.uid}`,
      `user:${tm.uid}`,
      `user:${all.uid}`,
    ]);
    // Without TRANSFER_MANAGER a member manages their own transfers only; outsiders nothing.
    for (const [who, id] of [
      [um, ofTm.transferId],
      [um, ofManager.transferId],
      [outsider, ofUm.transferId],
    ] as const) {
      expect((await rename(who, id, 'nope')).body.codes).toEqual(['TRANSFER_NOT_FOUND']);
      expect((await call(who, 'GET', T(id, '/detail'))).status).toBe(404);
    }
    expect((await rename(um, ofUm.transferId, 'my own')).status).toBe(200);
    // The list stays each user's own.
    expect(ids(await list(manager))).toEqual([ofManager.transferId]);
    // A member who leaves the team loses the access at once.
    await query(ferry, 'UPDATE users SET manager_id = NULL WHERE id = $1', [tm.uid]);
    expect((await rename(tm, ofUm.transferId, 'after leaving')).status).toBe(404);
  });

  it("holds a member's changes to the manager's uploader settings", async () => {
    const manager = alice;
    await query(ferry, 'UPDATE users SET manager_id = $2 WHERE id = $1', [bob.uid, manager.uid]);
    const put = await call(manager, 'PUT', `/api/user/users/${manager.uid}/uploader-settings`, {
      ...(await call(manager, 'GET', `/api/user/users/${manager.uid}`)).body.uploaderSettings,
      requirePassword: true,
      downloadLimitOpt: false,
      sendAllowedExtensions: ['pdf'],
    });
    expect(put.status).toBe(200);
    const t = await send(bob, [{ name: 'a.pdf', data: Buffer.from('pdf') }], { password: 'team secret' });
    const refusal = async (url: string, body: unknown) => {
      const res = await call(bob, 'PATCH', url, body);
      return [
        res.status,
        res.body.codes?.[0],
        res.body.details?.setting ?? res.body.details?.files?.[0]?.key,
      ];
    };
    expect(await refusal(T(t.transferId), { password: null })).toEqual([
      400,
      'VALIDATION_FAILED',
      'requirePassword',
    ]);
    expect(await refusal(T(t.transferId), { maxDownloads: 2 })).toEqual([
      403,
      'FORBIDDEN',
      'downloadLimitOpt',
    ]);
    expect(await refusal(T(t.transferId, `/files/${t.fileIds[0]}`), { name: 'a.txt' })).toEqual([
      400,
      'INVALID_FILENAME',
      'uploader:notif_extension_authorized',
    ]);
    expect((await call(bob, 'PATCH', T(t.transferId), { password: 'another secret' })).status).toBe(200);
  });
});
