import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { TransferDetail, TransferFilesAddResponse } from '@ferry/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SWEEP_UNFINISHED } from '../main.js';
import { api, fetchBytes, randomFile, readZip, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { runningTotalsDrift } from '../test/running-totals.js';
import { startTestS3, type TestS3 } from '../test/s3rver.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * The dashboard's clone and "add files" (/dashboard/transfers/:id): each with its effect, its spec §3 events, its
 * e-mails, its limits and its refusal to anyone but the owner or an authorized team manager. Real database, real
 * storage on disk (and S3 through s3rver for the server-side copy), real SMTP server.
 */
let sink: SmtpSink;
let ferry: TestFerry;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let alice: Account;
let bob: Account;
let eve: Account;
let n = 0;

const accountOn = (server: TestFerry, label: string) =>
  signedInAccount(server.baseUrl, `${label}-${process.pid}-${++n}@clone.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_FROM: 'no-reply@ferry.example',
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
    },
  });
  alice = await accountOn(ferry, 'alice');
  bob = await accountOn(ferry, 'bob');
  eve = await accountOn(ferry, 'eve');
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM transfers');
  await query(ferry, `UPDATE users SET plan_type = 'NONE', manager_id = NULL, permissions = '{}'`);
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
const T = (id: string, rest = '') => `/api/transfer/transfers/${id}${rest}`;

function call(who: Account | null, method: string, url: string, json?: unknown, on: TestFerry = ferry) {
  return api(on.baseUrl, url, { method, headers: who ? who.bearer : {}, json });
}
const detail = async (who: Account, id: string, on: TestFerry = ferry) => {
  const res = await call(who, 'GET', T(id, '/detail'), undefined, on);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TransferDetail;
};
const eventsOf = (id: string, on: TestFerry = ferry) =>
  query<{ type: string; actor: string; data: Record<string, unknown> }>(
    on,
    'SELECT type, actor, data FROM transfer_events WHERE transfer_id = $1 ORDER BY id',
    [id],
  );
const info = (id: string, extra: Record<string, string> = {}) =>
  api(ferry.baseUrl, `/api/transfer/downloads/info?${new URLSearchParams({ transferId: id, ...extra })}`);
const link = (id: string, extra: Record<string, string> = {}, on: TestFerry = ferry) =>
  api(on.baseUrl, `/api/transfer/downloads/link?${new URLSearchParams({ transferId: id, ...extra })}`);
const blobPath = (transferId: string, fileId: string) =>
  path.join(ferry.dataDir, 'files', 'uploads', `${transferId}-${fileId}`);

async function until<V>(what: () => Promise<V>, ok: (value: V) => boolean, timeoutMs = 15_000): Promise<V> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const ready = (who: Account, id: string, on: TestFerry = ferry) =>
  until(
    () => detail(who, id, on),
    (d) => d.status !== 'CLONING',
  );

type Files = Array<{ name: string; data: Buffer; relativePath?: string }>;

/** A signed-in sender's transfer, uploaded and completed (unless `upload: false`). */
async function send(
  who: Account,
  files: Files,
  body: Record<string, unknown> = {},
  upload = true,
  on = ferry,
) {
  const created = await call(
    who,
    'POST',
    '/api/transfer/transfers',
    {
      files: files.map((f) => ({ name: f.name, size: f.data.length, relativePath: f.relativePath })),
      ...body,
    },
    on,
  );
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const transferId: string = created.body.transferId;
  const fileIds: string[] = created.body.files.map((f: { id: string }) => f.id);
  if (upload) {
    const tus = new TusTestClient(on.baseUrl, created.body.uploadToken);
    for (const [i, f] of files.entries()) await tus.upload(transferId, fileIds[i]!, f.data);
    const done = await api(on.baseUrl, T(transferId, '/complete'), {
      method: 'POST',
      headers: { 'x-upload-token': created.body.uploadToken },
      json: { files: [] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
  }
  return { transferId, fileIds };
}

/** Clones and waits for the copy job; returns the clone's detail once it is ready. */
async function cloneOf(who: Account, id: string, body: Record<string, unknown> = {}, on = ferry) {
  const res = await call(who, 'POST', T(id, '/clone'), body, on);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect(['CLONING', 'ENABLED']).toContain(res.body.status);
  expect(res.body.transferId).not.toBe(id);
  return ready(who, res.body.transferId, on);
}

describe('POST /api/transfer/transfers/{id}/clone', () => {
  it('makes a new transfer of the same files without a second copy on disk, sends it, and records CLONED on both', async () => {
    const data = [randomFile(3000), Buffer.from('notes')];
    const source = await send(
      alice,
      [
        { name: 'report.pdf', data: data[0]! },
        { name: 'notes.txt', data: data[1]!, relativePath: 'docs/notes.txt' },
      ],
      { type: 'S1', name: 'Report', message: 'Have a look', recipients: [bob.email], password: 'secret' },
    );
    await sink.waitFor(to(bob.email));
    sink.messages.length = 0;

    const clone = await cloneOf(alice, source.transferId, {
      name: 'Report again',
      recipients: ['carol@clone.example'],
    });
    expect(clone).toMatchObject({
      type: 'S1',
      status: 'ENABLED',
      name: 'Report again',
      message: 'Have a look',
      ownerId: alice.uid,
      clonedFrom: source.transferId,
      passwordProtected: true,
      fileCount: 2,
      totalSize: 3005,
      senderEmail: alice.email,
      additions: [],
    });
    // Same ids, names, folders, sizes, and the SHA-256s carried over.
    const sourceDetail = await detail(alice, source.transferId);
    expect(clone.files).toEqual(sourceDetail.files);
    expect(clone.files.map((f) => f.sha256)).toEqual(data.map(sha256));
    // One file on disk with two names (a hard link), not a copy.
    for (const id of source.fileIds) {
      const [a, b] = await Promise.all([
        fs.stat(blobPath(source.transferId, id)),
        fs.stat(blobPath(clone.transferId, id)),
      ]);
      expect([b.ino, b.nlink]).toEqual([a.ino, 2]);
    }
    // CLONED on both; the clone's history as a new transfer's, made available by the copy job.
    expect((await eventsOf(source.transferId)).at(-1)).toEqual({
      type: 'CLONED',
      actor: `user:${alice.uid}`,
      data: { cloneId: clone.transferId },
    });
    const history = await eventsOf(clone.transferId);
    expect(history.map((e) => e.type)).toEqual([
      'CREATED',
      'CLONED',
      'RECIPIENT_ADDED',
      'DOWNLOAD_CONFIRMATION_ENABLED',
      'EXPIRY_REMINDER_ENABLED',
      'AVAILABLE',
    ]);
    expect(history[1]).toEqual({
      type: 'CLONED',
      actor: `user:${alice.uid}`,
      data: { sourceId: source.transferId },
    });
    expect(history.at(-1)).toMatchObject({ actor: 'system', data: { expiresAt: clone.expiresAt } });

    // Sent as a new transfer: the new recipient gets a personal link to the clone; the source's does not.
    const mail = await sink.waitFor(to('carol@clone.example'));
    expect(mail.parsed.subject).toContain('Report again');
    const carol = personalLink(mail);
    expect(carol.transferId).toBe(clone.transferId);
    await until(
      () => detail(alice, clone.transferId),
      (d) => d.sentAt !== null,
    );
    expect(sink.messages.filter(to(bob.email))).toHaveLength(0);
    // The source's password was kept; the files download whole, alone and as a ZIP (S1: through Carol's link).
    const carols = { userSecret: carol.userSecret };
    expect((await link(clone.transferId, carols)).body.codes).toEqual(['PASSWORD_REQUIRED']);
    const one = await link(clone.transferId, { ...carols, fileId: source.fileIds[0]!, password: 'secret' });
    expect(one.body).toMatchObject({ fileName: 'report.pdf', sha256: sha256(data[0]!) });
    expect((await fetchBytes(one.body.url)).data.equals(data[0]!)).toBe(true);
    const zip = await readZip(
      (await fetchBytes((await link(clone.transferId, { ...carols, password: 'secret' })).body.url)).data,
    );
    expect([...zip.keys()]).toEqual(['report.pdf', 'docs/notes.txt']);
    expect(zip.get('docs/notes.txt')!.equals(data[1]!)).toBe(true);

    // The storage counts the clone as a transfer of its own; deleting the source leaves the clone whole.
    const listed = await call(alice, 'GET', '/api/transfer/transfers');
    expect(listed.body.storage.used).toBe(2 * 3005);
    expect((await call(alice, 'DELETE', T(source.transferId))).status).toBe(204);
    expect(existsSync(blobPath(source.transferId, source.fileIds[0]!))).toBe(false);
    expect((await fs.stat(blobPath(clone.transferId, source.fileIds[0]!))).nlink).toBe(1);
    const after = await link(clone.transferId, { ...carols, fileId: source.fileIds[0]!, password: 'secret' });
    expect((await fetchBytes(after.body.url)).data.equals(data[0]!)).toBe(true);
  });

  it('takes overrides (type, expiry, password, download limit, preview) and holds the clone to the plan', async () => {
    const source = await send(alice, [{ name: 'a.txt', data: Buffer.from('hello') }], {
      name: 'Link',
      password: 'old secret',
      maxDownloads: 5,
    });
    const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
    const clone = await cloneOf(alice, source.transferId, {
      name: null,
      expiresAt: day,
      password: null,
      maxDownloads: null,
      allowPreview: false,
    });
    expect(clone).toMatchObject({
      type: 'S2',
      name: null,
      expiresAt: `${day}T23:59:59.999Z`,
      passwordProtected: false,
      maxDownloads: null,
      allowPreview: false,
    });
    expect((await link(clone.transferId)).status).toBe(200);
    const newPassword = await cloneOf(alice, source.transferId, {
      password: 'new secret',
      type: 'S1',
      recipients: [bob.email],
    });
    expect(newPassword).toMatchObject({ type: 'S1', passwordProtected: true, maxDownloads: 5 });
    // S1 now: its owner downloads it signed in.
    const asAlice = (password: string) =>
      call(
        alice,
        'GET',
        `/api/transfer/downloads/link?transferId=${newPassword.transferId}&password=${password}`,
      );
    expect((await asAlice('old%20secret')).body.codes).toEqual(['WRONG_PASSWORD']);
    expect((await asAlice('new%20secret')).status).toBe(200);

    const refused = async (body: Record<string, unknown>, id = source.transferId) => {
      const res = await call(alice, 'POST', T(id, '/clone'), body);
      return [res.status, res.body.codes?.[0], res.body.limitErrors?.[0]?.limit ?? res.body.details?.field];
    };
    // NONE keeps a transfer 7 days at most, counted from the clone's creation.
    const far = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    expect(await refused({ expiresAt: far })).toEqual([400, 'LIMIT_EXCEEDED', 'fileValidityInDays']);
    expect(await refused({ expiresAt: '2000-01-01' })).toEqual([400, 'VALIDATION_FAILED', 'expiresAt']);
    expect(await refused({ type: 'S1' })).toEqual([400, 'VALIDATION_FAILED', 'recipients']);
    expect(await refused({ recipients: [bob.email] })).toEqual([400, 'VALIDATION_FAILED', 'recipients']);
    expect((await refused({ unknown: 1 })).slice(0, 2)).toEqual([400, 'VALIDATION_FAILED']);
    // The plan's per-transfer size and the team's storage, as for a new transfer.
    await query(ferry, 'UPDATE transfer_files SET size = 6000000000 WHERE transfer_id = $1', [
      source.transferId,
    ]);
    expect(await refused({})).toEqual([400, 'LIMIT_EXCEEDED', 'uploadSize']);
    await query(ferry, 'UPDATE transfer_files SET size = 5 WHERE transfer_id = $1', [source.transferId]);
    await query(ferry, 'UPDATE transfers SET total_size = 99999999999 WHERE id = $1', [clone.transferId]);
    expect(await refused({})).toEqual([400, 'LIMIT_EXCEEDED', 'storage']);
    await query(ferry, 'UPDATE transfers SET total_size = 5 WHERE id = $1', [clone.transferId]);

    // Not while uploading, nor once deleted or expired: nothing is made.
    const uploading = await send(alice, [{ name: 'b.txt', data: Buffer.from('b') }], {}, false);
    expect(await refused({}, uploading.transferId)).toEqual([409, 'CONFLICT', undefined]);
    const expired = await send(alice, [{ name: 'c.txt', data: Buffer.from('c') }]);
    await query(ferry, `UPDATE transfers SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      expired.transferId,
    ]);
    expect(await refused({}, expired.transferId)).toEqual([409, 'CONFLICT', undefined]);
    const deleted = await send(alice, [{ name: 'd.txt', data: Buffer.from('d') }]);
    await call(alice, 'DELETE', T(deleted.transferId));
    expect(await refused({}, deleted.transferId)).toEqual([409, 'CONFLICT', undefined]);
    const count = await query(
      ferry,
      'SELECT count(*)::int AS n FROM transfers WHERE cloned_from IS NOT NULL',
    );
    expect(count[0]!.n).toBe(2);
  });

  it('resumes a clone whose copy was interrupted, and leaves out a file whose source is gone', async () => {
    const data = [Buffer.from('first'), Buffer.from('second'), Buffer.from('third')];
    const source = await send(alice, [
      { name: 'one.txt', data: data[0]! },
      { name: 'two.txt', data: data[1]! },
      { name: 'three.txt', data: data[2]! },
    ]);
    const clone = await cloneOf(alice, source.transferId);
    const [one, two, three] = source.fileIds as [string, string, string];
    // As a crash mid-copy leaves it: still CLONING, one file copied, two not (their job lost), and the source of
    // one of those deleted meanwhile.
    await query(
      ferry,
      `UPDATE transfers SET status = 'CLONING', updated_at = now() - interval '1 hour' WHERE id = $1`,
      [clone.transferId],
    );
    await query(
      ferry,
      `UPDATE transfer_files SET uploaded_at = NULL, blob_key = NULL WHERE transfer_id = $1 AND id <> $2`,
      [clone.transferId, one],
    );
    await fs.rm(blobPath(clone.transferId, two));
    await fs.rm(blobPath(clone.transferId, three));
    expect((await call(alice, 'DELETE', T(source.transferId, `/files/${three}`))).status).toBe(200);
    expect((await detail(alice, clone.transferId)).statusLabel).toBe('cloning');
    expect((await info(clone.transferId)).body.codes).toEqual(['TRANSFER_NOT_FOUND']);

    // The hourly sweep queues the lost job again; the copy picks up where it stopped.
    await ferry.jobs.send(SWEEP_UNFINISHED, {});
    const resumed = await ready(alice, clone.transferId);
    expect(resumed).toMatchObject({ status: 'ENABLED', fileCount: 2, totalSize: 11 });
    expect(resumed.files.map((f) => f.name)).toEqual(['one.txt', 'two.txt']);
    const [a, b] = await Promise.all([
      fs.stat(blobPath(source.transferId, two)),
      fs.stat(blobPath(clone.transferId, two)),
    ]);
    expect(b.ino).toBe(a.ino);
    expect((await eventsOf(clone.transferId)).at(-1)).toMatchObject({
      type: 'AVAILABLE',
      data: { missing: ['three.txt'] },
    });
    const zip = await readZip((await fetchBytes((await link(clone.transferId)).body.url)).data);
    expect([...zip.values()].map((v) => v.toString())).toEqual(['first', 'second']);
  });

  it('is refused to another user and to anonymous callers; a team manager clones a member’s transfer as their own', async () => {
    const source = await send(bob, [{ name: 'private.txt', data: Buffer.from('private') }], {
      name: 'Bob only',
    });
    const other = await call(eve, 'POST', T(source.transferId, '/clone'), {});
    expect([other.status, other.body.codes]).toEqual([404, ['TRANSFER_NOT_FOUND']]);
    expect(JSON.stringify(other.body)).not.toContain('Bob only');
    expect((await call(null, 'POST', T(source.transferId, '/clone'), {})).status).toBe(401);
    expect(await query(ferry, 'SELECT id FROM transfers WHERE cloned_from IS NOT NULL')).toEqual([]);
    expect((await eventsOf(source.transferId)).map((e) => e.type)).not.toContain('CLONED');

    await query(ferry, 'UPDATE users SET manager_id = $2 WHERE id = $1', [bob.uid, alice.uid]);
    const clone = await cloneOf(alice, source.transferId);
    expect(clone).toMatchObject({ ownerId: alice.uid, senderEmail: alice.email, name: 'Bob only' });
  });
});

/** Announces files to add; returns the answer (status 201 checked). */
async function announce(
  who: Account,
  id: string,
  files: Array<{ name: string; size: number; relativePath?: string }>,
) {
  const res = await call(who, 'POST', T(id, '/files'), { files });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as TransferFilesAddResponse;
}
/** The ids the dashboard's list gives for the search `q`. */
async function searched(who: Account, q: string): Promise<string[]> {
  const res = await call(who, 'GET', `/api/transfer/transfers?${new URLSearchParams({ q })}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.items.map((i: { id: string }) => i.id);
}
const completeAddition = (who: Account | null, id: string, additionId: string, body: unknown) =>
  call(who, 'POST', T(id, `/additions/${additionId}/complete`), body);

describe('POST /api/transfer/transfers/{id}/files', () => {
  it('adds files with resumable tus uploads, unseen until completed, then FILES_ADDED, the e-mail, and downloads', async () => {
    const first = Buffer.from('first file');
    const source = await send(alice, [{ name: 'a.txt', data: first }], {
      type: 'S1',
      name: 'Photos',
      recipients: [bob.email],
    });
    const original = personalLink(await sink.waitFor(to(bob.email)));
    sink.messages.length = 0;

    const big = randomFile(200_000);
    const small = Buffer.from('added later');
    const added = await announce(alice, source.transferId, [
      { name: 'b.bin', size: big.length },
      { name: 'c.txt', size: small.length, relativePath: 'docs/c.txt' },
    ]);
    expect(added).toMatchObject({ transferId: source.transferId, uploadEndpoint: '/api/transfer/uploads' });
    const [b, c] = added.files;
    expect([b!.uploaded, c!.relativePath]).toEqual([false, 'docs/c.txt']);
    expect((await detail(alice, source.transferId)).additions).toEqual([
      { additionId: added.additionId, createdAt: expect.any(String), files: added.files },
    ]);

    // Resumable: half sent, the offset asked again, the rest sent.
    const tus = new TusTestClient(ferry.baseUrl, added.uploadToken);
    const created = await tus.create(source.transferId, b!.id, big.length);
    expect(created.status).toBe(201);
    expect((await tus.patch(created.location!, 0, big.subarray(0, 80_000))).status).toBe(204);
    expect(await tus.offset(created.location!)).toBe(80_000);
    // Not yet complete: nothing can be completed, and downloaders see the transfer as it was.
    expect((await completeAddition(alice, source.transferId, added.additionId, {})).body).toMatchObject({
      status: 409,
      codes: ['UPLOAD_INCOMPLETE'],
      details: { files: [b!.id, c!.id] },
    });
    const done = await tus.patch(created.location!, 80_000, big.subarray(80_000));
    expect([done.status, done.sha256]).toEqual([204, sha256(big)]);
    await tus.upload(source.transferId, c!.id, small);
    const bobs = { userSecret: original.userSecret };
    const seen = await info(source.transferId, bobs);
    expect(seen.body).toMatchObject({ fileCount: 1, totalSize: first.length });
    expect(seen.body.files.map((f: { name: string }) => f.name)).toEqual(['a.txt']);
    expect((await link(source.transferId, { ...bobs, fileId: b!.id })).body.codes).toEqual([
      'FILE_NOT_FOUND',
    ]);
    const zipBefore = await readZip((await fetchBytes((await link(source.transferId, bobs)).body.url)).data);
    expect([...zipBefore.keys()]).toEqual(['a.txt']);
    // Nor does the dashboard's search, until the files join.
    expect(await searched(alice, 'c.txt')).toEqual([]);

    const completed = await completeAddition(alice, source.transferId, added.additionId, {
      files: [
        { id: b!.id, sha256: sha256(big) },
        { id: c!.id, sha256: sha256(small) },
      ],
      notifyRecipients: true,
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    expect(completed.body).toMatchObject({
      fileCount: 3,
      totalSize: first.length + big.length + small.length,
      additions: [],
    });
    expect(completed.body.files.map((f: { name: string; sha256: string }) => [f.name, f.sha256])).toEqual([
      ['a.txt', sha256(first)],
      ['b.bin', sha256(big)],
      ['c.txt', sha256(small)],
    ]);
    expect((await eventsOf(source.transferId)).at(-1)).toEqual({
      type: 'FILES_ADDED',
      actor: `user:${alice.uid}`,
      data: {
        files: [
          { id: b!.id, name: 'b.bin', size: big.length },
          { id: c!.id, name: 'docs/c.txt', size: small.length },
        ],
        notifyRecipients: true,
      },
    });
    // Completing again (a retried request) answers the same.
    expect(
      (await completeAddition(alice, source.transferId, added.additionId, { files: [{ id: b!.id }] })).status,
    ).toBe(200);
    // The search finds the transfer by an added file's name, with three characters or fewer too.
    expect(await searched(alice, 'c.txt')).toEqual([source.transferId]);
    expect(await searched(alice, 'B.B')).toEqual([source.transferId]);
    expect(await searched(alice, 'c.')).toEqual([source.transferId]);

    // The recipient is told, with their own personal link, about the new files only.
    const mail = await sink.waitFor(to(bob.email));
    expect(mail.parsed.subject).toBe(`${alice.email} added files to “Photos”`);
    expect(mail.parsed.text).toContain('b.bin');
    expect(mail.parsed.text).toContain('docs/c.txt');
    expect(mail.parsed.text).not.toContain('a.txt');
    expect(personalLink(mail)).toEqual(original);
    // Downloadable alone and in the ZIP, through the recipient's link too.
    const alone = await link(source.transferId, { fileId: b!.id, userSecret: original.userSecret });
    expect((await fetchBytes(alone.body.url)).data.equals(big)).toBe(true);
    const zip = await readZip((await fetchBytes((await link(source.transferId, bobs)).body.url)).data);
    expect([...zip.keys()]).toEqual(['a.txt', 'b.bin', 'docs/c.txt']);
    expect(zip.get('docs/c.txt')!.equals(small)).toBe(true);
    expect((await info(source.transferId, bobs)).body).toMatchObject({ fileCount: 3 });
    // Without notifyRecipients nobody is mailed.
    sink.messages.length = 0;
    const quiet = await announce(alice, source.transferId, [{ name: 'd.txt', size: 1 }]);
    await new TusTestClient(ferry.baseUrl, quiet.uploadToken).upload(
      source.transferId,
      quiet.files[0]!.id,
      Buffer.from('d'),
    );
    const q = await completeAddition(alice, source.transferId, quiet.additionId, {});
    expect(q.body.fileCount).toBe(4);
    expect((await eventsOf(source.transferId)).at(-1)?.data.notifyRecipients).toBe(false);
    expect(sink.messages.filter(to(bob.email))).toHaveLength(0);
  });

  it('checks names and the plan over the whole transfer; a wrong checksum is sent again; cancelled and abandoned additions are deleted', async () => {
    const t = await send(alice, [{ name: 'a.txt', data: Buffer.from('hello') }]);
    const refused = async (files: unknown[], id = t.transferId) => {
      const res = await call(alice, 'POST', T(id, '/files'), { files });
      return [
        res.status,
        res.body.codes?.[0],
        res.body.limitErrors?.[0] ?? res.body.details?.files?.[0]?.key,
      ];
    };
    expect(await refused([{ name: 'setup.exe', size: 1 }])).toEqual([
      400,
      'INVALID_FILENAME',
      'uploader:notif_file_is_exe',
    ]);
    expect(await refused([{ name: 'page.html', size: 1 }])).toEqual([
      400,
      'INVALID_FILENAME',
      'uploader:notif_file_is_htm',
    ]);
    expect(await refused([{ name: 'x.txt', size: 1, relativePath: '../x.txt' }])).toEqual([
      400,
      'INVALID_FILENAME',
      'uploader:notif_invalid_filename',
    ]);
    // NONE: 250 files and 5 GB per transfer, counting what it holds and what is being added.
    const many = Array.from({ length: 250 }, (_, i) => ({ name: `f${i}.txt`, size: 1 }));
    expect(await refused(many)).toEqual([400, 'LIMIT_EXCEEDED', { limit: 'files', max: 250, actual: 251 }]);
    const pending = await announce(alice, t.transferId, [{ name: 'big.bin', size: 3_000_000_000 }]);
    expect(await refused([{ name: 'big2.bin', size: 2_000_000_000 }])).toEqual([
      400,
      'LIMIT_EXCEEDED',
      { limit: 'uploadSize', max: 5e9, actual: 5 + 5e9 },
    ]);
    await call(alice, 'DELETE', T(t.transferId, `/additions/${pending.additionId}`));
    await query(ferry, `UPDATE users SET plan_type = 'PREMIUM' WHERE id = $1`, [alice.uid]);
    await query(ferry, 'UPDATE transfers SET total_size = 999999999990 WHERE id = $1', [t.transferId]);
    expect(await refused([{ name: 'more.bin', size: 100 }])).toMatchObject([
      400,
      'LIMIT_EXCEEDED',
      { limit: 'uploadSize' },
    ]);
    await query(ferry, 'UPDATE transfers SET total_size = 5 WHERE id = $1', [t.transferId]);
    const other = await send(alice, [{ name: 'o.txt', data: Buffer.from('o') }]);
    await query(ferry, 'UPDATE transfers SET total_size = 999999999990 WHERE id = $1', [other.transferId]);
    expect(await refused([{ name: 'more.bin', size: 100 }])).toMatchObject([
      400,
      'LIMIT_EXCEEDED',
      { limit: 'storage' },
    ]);
    await query(ferry, 'UPDATE transfers SET total_size = 1 WHERE id = $1', [other.transferId]);

    // A checksum that differs: the file is reset (its bytes deleted) and sent again.
    const data = Buffer.from('the right bytes');
    const added = await announce(alice, t.transferId, [{ name: 'b.txt', size: data.length }]);
    const fileId = added.files[0]!.id;
    const tus = new TusTestClient(ferry.baseUrl, added.uploadToken);
    await tus.upload(t.transferId, fileId, data);
    const mismatch = await completeAddition(alice, t.transferId, added.additionId, {
      files: [{ id: fileId, sha256: 'f'.repeat(64) }],
    });
    expect(mismatch.body).toMatchObject({
      status: 422,
      codes: ['CHECKSUM_MISMATCH'],
      details: { files: [{ id: fileId }] },
    });
    expect(existsSync(blobPath(t.transferId, fileId))).toBe(false);
    expect((await detail(alice, t.transferId)).additions[0]!.files[0]!.uploaded).toBe(false);
    await tus.upload(t.transferId, fileId, data);
    const ok = await completeAddition(alice, t.transferId, added.additionId, {
      files: [{ id: fileId, sha256: sha256(data) }],
    });
    expect(ok.body.fileCount).toBe(2);

    // Cancelled: the addition and its bytes are gone, the transfer as it was.
    const cancelled = await announce(alice, t.transferId, [{ name: 'c.txt', size: 3 }]);
    await new TusTestClient(ferry.baseUrl, cancelled.uploadToken).upload(
      t.transferId,
      cancelled.files[0]!.id,
      Buffer.from('ccc'),
    );
    const after = await call(alice, 'DELETE', T(t.transferId, `/additions/${cancelled.additionId}`));
    expect(after.body).toMatchObject({ fileCount: 2, additions: [] });
    expect(existsSync(blobPath(t.transferId, cancelled.files[0]!.id))).toBe(false);
    expect((await completeAddition(alice, t.transferId, cancelled.additionId, {})).body.codes).toEqual([
      'NOT_FOUND',
    ]);
    // Abandoned (older than UNFINISHED_UPLOAD_TTL_HOURS): the hourly sweep deletes it.
    const abandoned = await announce(alice, t.transferId, [{ name: 'd.txt', size: 3 }]);
    await new TusTestClient(ferry.baseUrl, abandoned.uploadToken).upload(
      t.transferId,
      abandoned.files[0]!.id,
      Buffer.from('ddd'),
    );
    await query(ferry, `UPDATE transfer_additions SET created_at = now() - interval '4 days' WHERE id = $1`, [
      abandoned.additionId,
    ]);
    await ferry.jobs.send(SWEEP_UNFINISHED, {});
    await until(
      () => detail(alice, t.transferId),
      (d) => d.additions.length === 0,
    );
    await until(
      async () => existsSync(blobPath(t.transferId, abandoned.files[0]!.id)),
      (exists) => !exists,
    );

    // Not to a transfer still uploading, expired, or deleted.
    const uploading = await send(alice, [{ name: 'u.txt', data: Buffer.from('u') }], {}, false);
    expect(await refused([{ name: 'x.txt', size: 1 }], uploading.transferId)).toEqual([
      409,
      'CONFLICT',
      undefined,
    ]);
    await query(ferry, `UPDATE transfers SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      other.transferId,
    ]);
    expect(await refused([{ name: 'x.txt', size: 1 }], other.transferId)).toEqual([
      409,
      'CONFLICT',
      undefined,
    ]);
    const gone = await announce(alice, t.transferId, [{ name: 'e.txt', size: 3 }]);
    await new TusTestClient(ferry.baseUrl, gone.uploadToken).upload(
      t.transferId,
      gone.files[0]!.id,
      Buffer.from('eee'),
    );
    expect((await call(alice, 'DELETE', T(t.transferId))).status).toBe(204);
    expect(await refused([{ name: 'x.txt', size: 1 }])).toEqual([409, 'CONFLICT', undefined]);
    // Deleting the transfer deleted the files being added too.
    expect(existsSync(blobPath(t.transferId, gone.files[0]!.id))).toBe(false);
    expect(
      await query(ferry, 'SELECT id FROM transfer_additions WHERE transfer_id = $1', [t.transferId]),
    ).toEqual([]);
  });

  it('is refused to another user and to anonymous callers; an addition’s token uploads its own files only', async () => {
    const t = await send(alice, [{ name: 'a.txt', data: Buffer.from('hello') }], { name: 'Alice only' });
    const added = await announce(alice, t.transferId, [{ name: 'b.txt', size: 3 }]);
    const fileId = added.files[0]!.id;
    const calls: Array<[string, string, unknown?]> = [
      ['POST', T(t.transferId, '/files'), { files: [{ name: 'x.txt', size: 1 }] }],
      ['POST', T(t.transferId, `/additions/${added.additionId}/complete`), {}],
      ['DELETE', T(t.transferId, `/additions/${added.additionId}`)],
    ];
    for (const [method, url, body] of calls) {
      const other = await call(eve, method, url, body);
      expect([method, url, other.status, other.body.codes]).toEqual([
        method,
        url,
        404,
        ['TRANSFER_NOT_FOUND'],
      ]);
      expect(JSON.stringify(other.body)).not.toContain('Alice only');
      expect((await call(null, method, url, body)).status).toBe(401);
    }
    // Eve's own addition token does not open Alice's files, nor does it reach the transfer's own files.
    const mine = await send(eve, [{ name: 'e.txt', data: Buffer.from('eve') }]);
    const eves = await announce(eve, mine.transferId, [{ name: 'f.txt', size: 3 }]);
    const eveTus = new TusTestClient(ferry.baseUrl, eves.uploadToken);
    expect((await eveTus.create(t.transferId, fileId, 3)).status).toBe(404);
    const aliceTus = new TusTestClient(ferry.baseUrl, added.uploadToken);
    expect((await aliceTus.create(t.transferId, t.fileIds[0]!, 5)).status).toBe(404);
    expect((await aliceTus.create(t.transferId, fileId, 4)).status).toBe(400);
    expect((await aliceTus.create(t.transferId, fileId, 3)).status).toBe(201);
    // Nothing changed for Alice: her addition still waits, her transfer has one file.
    const d = await detail(alice, t.transferId);
    expect([d.fileCount, d.additions.length]).toEqual([1, 1]);
    expect((await eventsOf(t.transferId)).map((e) => e.type)).not.toContain('FILES_ADDED');
    // Eve's team manager may add files to her transfer, as to their own.
    await query(ferry, 'UPDATE users SET manager_id = $2 WHERE id = $1', [eve.uid, alice.uid]);
    const byManager = await announce(alice, mine.transferId, [{ name: 'g.txt', size: 1 }]);
    await new TusTestClient(ferry.baseUrl, byManager.uploadToken).upload(
      mine.transferId,
      byManager.files[0]!.id,
      Buffer.from('g'),
    );
    const done = await completeAddition(alice, mine.transferId, byManager.additionId, {});
    expect([done.status, done.body.fileCount]).toEqual([200, 2]);
    expect((await eventsOf(mine.transferId)).at(-1)).toMatchObject({
      type: 'FILES_ADDED',
      actor: `user:${alice.uid}`,
    });
  });
});

describe('cloning on S3 storage', () => {
  let s3: TestS3;
  let onS3: TestFerry;
  beforeAll(async () => {
    s3 = await startTestS3();
    onS3 = await startTestFerry({
      env: {
        STORAGE: 's3',
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: s3.bucket,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
        S3_PART_SIZE_MB: '5',
        SINGLE_INSTANCE: 'true',
        SMTP_URL: sink.url,
        MAINTENANCE_CRON: '0 0 1 1 *',
      },
    });
  });
  afterAll(async () => {
    await onS3?.close();
    await s3?.close();
  });

  const metric = async (name: string) => {
    const text = await onS3.metrics.registry.metrics();
    return Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1] ?? 0);
  };

  it('copies the files inside the bucket: the objects exist, and no byte went through Ferry', async () => {
    const owner = await accountOn(onS3, 'owner');
    const data = [randomFile(7_000_000), Buffer.from('small')];
    const source = await send(
      owner,
      [
        { name: 'video.mp4', data: data[0]! },
        { name: 'small.txt', data: data[1]! },
      ],
      // Without previews: rendering reads each file once after its upload, which would blur what this counts.
      { allowPreview: false },
      true,
      onS3,
    );
    const [uploaded, downloaded] = [
      await metric('ferry_upload_bytes_total'),
      await metric('ferry_download_bytes_total'),
    ];
    expect(uploaded).toBe(data[0]!.length + data[1]!.length);
    const before = s3.requests.length;
    const clone = await cloneOf(owner, source.transferId, {}, onS3);
    expect(clone).toMatchObject({ status: 'ENABLED', clonedFrom: source.transferId, fileCount: 2 });

    const during = s3.requests.slice(before);
    const copies = during.filter((r) => r.copySource !== null);
    expect(copies.map((r) => [r.method, r.path, r.copySource]).sort()).toEqual(
      source.fileIds
        .map((id) => [
          'PUT',
          `/${s3.bucket}/${clone.transferId}-${id}`,
          `${s3.bucket}/${source.transferId}-${id}`,
        ])
        .sort(),
    );
    // No object was read (GET) while cloning: the store copied, Ferry only asked.
    expect(
      during.filter((r) => r.method === 'GET' && r.path.startsWith(`/${s3.bucket}/${source.transferId}`)),
    ).toEqual([]);
    expect(await metric('ferry_upload_bytes_total')).toBe(uploaded);
    expect(await metric('ferry_download_bytes_total')).toBe(downloaded);

    // The clone's objects are there, and serve the same bytes.
    const res = await link(clone.transferId, { fileId: source.fileIds[0]! }, onS3);
    expect(res.body).toMatchObject({ size: data[0]!.length, sha256: sha256(data[0]!) });
    expect(sha256((await fetchBytes(res.body.url)).data)).toBe(sha256(data[0]!));
  });
});

describe('cloning with encryption at rest (STORAGE_ENCRYPTION_KEY_FILE)', () => {
  it('clones an encrypted file as a hard link that decrypts under the clone’s name, also once the source is gone', async () => {
    const keyDir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-key-'));
    await fs.writeFile(path.join(keyDir, 'storage.key'), randomBytes(32).toString('base64'));
    const enc = await startTestFerry({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAINTENANCE_CRON: '0 0 1 1 *',
        STORAGE_ENCRYPTION_KEY_FILE: path.join(keyDir, 'storage.key'),
      },
    });
    try {
      const carol = await accountOn(enc, 'carol');
      const data = randomFile(150_000);
      const source = await send(carol, [{ name: 'a.bin', data }], {}, true, enc);
      const clone = await cloneOf(carol, source.transferId, {}, enc);
      const fileId = source.fileIds[0]!;
      const stored = (id: string) => path.join(enc.dataDir, 'files', 'uploads', `${id}-${fileId}`);
      const [a, b] = await Promise.all([
        fs.stat(stored(source.transferId)),
        fs.stat(stored(clone.transferId)),
      ]);
      expect([b.ino, b.nlink]).toEqual([a.ino, 2]);
      expect((await fs.readFile(stored(clone.transferId))).subarray(0, 8).toString('latin1')).toBe(
        'FERRYENC',
      );
      expect((await call(carol, 'DELETE', T(source.transferId), undefined, enc)).status).toBe(204);
      expect(existsSync(stored(source.transferId))).toBe(false);
      const res = await link(clone.transferId, { fileId }, enc);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const got = await fetchBytes(res.body.url, { range: 'bytes=65530-140000' });
      expect(got.data.equals(data.subarray(65_530, 140_001))).toBe(true);
      expect(sha256((await fetchBytes(res.body.url)).data)).toBe(sha256(data));
    } finally {
      await enc.close();
      await fs.rm(keyDir, { recursive: true, force: true });
    }
  });
});
