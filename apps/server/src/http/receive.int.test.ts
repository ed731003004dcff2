import type {
  InboxView,
  ReceivePointPublic,
  ReceiveReceipt,
  ReceiveRequestView,
  ReceiveUploadCreate,
  ReceiveUploadCreateResponse,
  TransferListResponse,
} from '@ferry/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, fetchBytes, randomFile, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Receiving files (S3): requests by link and by e-mail, uploads into them, the requester's notification and
 * their received transfer (downloadable by them only); extension and password rules; inboxes on and off; push by
 * e-mail. Real database, storage on disk, real SMTP server, real HTTP.
 */
let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let alice: Account;
let bob: Account;
let n = 0;

const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@receive.example`, (to) =>
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
      PASSWORD_ATTEMPTS_PER_WINDOW: '3',
    },
  });
  alice = await account('alice');
  bob = await account('bob');
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM transfers');
  await query(ferry, 'DELETE FROM receive_requests');
  await query(ferry, 'DELETE FROM inboxes');
  await query(
    ferry,
    `UPDATE users SET plan_type = 'NONE', manager_id = NULL, settings = '{}', firstname = NULL`,
  );
  sink.messages.length = 0;
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const to = (address: string) => (m: ReceivedMail) => m.to.includes(address);
const call = (who: Account | null, method: string, url: string, json?: unknown) =>
  api(ferry.baseUrl, url, { method, headers: who ? who.bearer : {}, json });
const DAY = 86_400_000;

async function createRequest(who: Account, body: Record<string, unknown>): Promise<ReceiveRequestView> {
  const res = await call(who, 'POST', '/api/receive/requests', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as ReceiveRequestView;
}

async function createInbox(who: Account, body: Record<string, unknown>): Promise<InboxView> {
  const res = await call(who, 'POST', '/api/receive/inboxes', body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as InboxView;
}

/** Starts an upload, sends each file with tus and completes it; returns the receipt. */
async function upload(
  request: Omit<ReceiveUploadCreate, 'files'>,
  files: Array<{ name: string; data: Buffer }>,
): Promise<{ created: ReceiveUploadCreateResponse; receipt: ReceiveReceipt }> {
  const res = await call(null, 'POST', '/api/receive/uploads', {
    ...request,
    files: files.map((f) => ({ name: f.name, size: f.data.length })),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const created = res.body as ReceiveUploadCreateResponse;
  const tus = new TusTestClient(ferry.baseUrl, created.uploadToken);
  for (const [i, f] of files.entries()) await tus.upload(created.transferId, created.files[i]!.id, f.data);
  const done = await api(ferry.baseUrl, `/api/receive/uploads/${created.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { files: files.map((f, i) => ({ id: created.files[i]!.id, sha256: sha256(f.data) })) },
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  return { created, receipt: done.body as ReceiveReceipt };
}

const startUpload = (body: Record<string, unknown>) =>
  call(null, 'POST', '/api/receive/uploads', { files: [{ name: 'a.pdf', size: 3 }], ...body });

describe('a request by link (S2)', () => {
  it('takes an anonymous upload that only the requester can download, and tells them', async () => {
    const request = await createRequest(alice, {
      subject: 'Tax documents',
      message: 'Your 2024 forms, please.',
    });
    expect(request).toMatchObject({
      linkMode: 'S2',
      state: 'open',
      passwordProtected: false,
      uploadCount: 0,
    });
    expect(request.link).toBe(`${ferry.publicOrigin}/r/${request.requestId}`);
    // Spec §5: 7 days for a free account.
    expect(Math.round((Date.parse(request.expiresAt) - Date.now()) / DAY)).toBe(7);

    const page = await call(null, 'GET', `/api/receive/points/request/${request.requestId}`);
    expect(page.status).toBe(200);
    expect(page.body as ReceivePointPublic).toMatchObject({
      kind: 'request',
      id: request.requestId,
      title: 'Tax documents',
      message: 'Your 2024 forms, please.',
      passwordProtected: false,
      theme: { backgroundColor: '#4052B5', actionColor: '#3F51B5', startbtnColor: '#FF6208' },
    });

    const data = randomFile(70_000);
    const { created, receipt } = await upload(
      {
        target: { kind: 'request', requestId: request.requestId },
        uploaderName: 'Carol Client',
        uploaderEmail: 'carol@client.example',
        message: 'Here they are.',
      },
      [{ name: 'forms.pdf', data }],
    );
    expect(receipt).toMatchObject({ status: 'ENABLED', title: 'Tax documents', totalSize: data.length });
    expect(receipt.files[0]).toMatchObject({ name: 'forms.pdf', sha256: sha256(data), uploaded: true });
    expect(receipt.receivedAt).not.toBeNull();
    expect(JSON.stringify(receipt)).not.toContain('/dl/');

    const mail = await sink.waitFor(to(alice.email));
    expect(mail.parsed.subject).toContain('Carol Client');
    expect(mail.parsed.subject).toContain('Tax documents');
    // The address was typed on the page, never checked: the requester is not told it as fact.
    expect(mail.parsed.text).toContain(
      'Carol Client (carol@client.example, address not verified) uploaded 1 file for you',
    );
    expect(mail.parsed.text).toContain('forms.pdf');
    expect(mail.parsed.text).toContain('Here they are.');
    expect(mail.parsed.text).toContain(`/dl/${created.transferId}`);
    expect(mail.parsed.replyTo?.text).toContain('carol@client.example');

    // Received, in the requester's dashboard.
    const list = await call(alice, 'GET', '/api/transfer/transfers?direction=received');
    const items = (list.body as TransferListResponse).items;
    expect(items.map((i) => [i.id, i.type, i.direction])).toEqual([[created.transferId, 'S3', 'received']]);
    expect(items[0]!.link).toBe(`${ferry.publicOrigin}/dl/${created.transferId}`);
    expect(items[0]).toMatchObject({ senderEmail: 'carol@client.example', senderEmailVerified: false });
    const sent = await call(alice, 'GET', '/api/transfer/transfers?direction=sent');
    expect((sent.body as TransferListResponse).items).toEqual([]);
    const events = await call(alice, 'GET', `/api/transfer/transfers/${created.transferId}/events`);
    expect(events.body.events.map((e: { type: string }) => e.type)).toEqual([
      'CREATED',
      'UPLOADED',
      'AVAILABLE',
    ]);
    // The history names one uploader throughout ("Created" and "Upload finished"), as unverified.
    const uploader = { kind: 'uploader', userId: null, email: 'carol@client.example' };
    expect(events.body.events[0].actor).toEqual(uploader);
    expect(events.body.events[1].actor).toEqual(uploader);

    // Downloadable by the requester…
    const q = `transferId=${created.transferId}&fileId=${created.files[0]!.id}`;
    const link = await call(alice, 'GET', `/api/transfer/downloads/link?${q}`);
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    const bytes = await fetchBytes(link.body.url);
    expect(sha256(bytes.data)).toBe(sha256(data));
    // …and by nobody else: not anonymously, not by another account, not even by the uploader's token.
    for (const who of [null, bob]) {
      expect((await call(who, 'GET', `/api/transfer/downloads/link?${q}`)).status).toBe(404);
      expect(
        (await call(who, 'GET', `/api/transfer/downloads/info?transferId=${created.transferId}`)).status,
      ).toBe(404);
    }
    const received = await call(alice, 'GET', `/api/receive/received/${created.transferId}`);
    expect(received.body).toMatchObject({
      point: { kind: 'request', id: request.requestId, title: 'Tax documents', viaPush: false },
      uploader: {
        name: 'Carol Client',
        email: 'carol@client.example',
        emailVerified: false,
        message: 'Here they are.',
      },
    });
    expect((await call(bob, 'GET', `/api/receive/received/${created.transferId}`)).status).toBe(404);
    expect((await call(alice, 'GET', `/api/receive/requests/${request.requestId}`)).body.uploadCount).toBe(1);
  });

  it('lasts 21 days for a paying account, at most its plan, and needs sign-in', async () => {
    await query(ferry, `UPDATE users SET plan_type = 'PREMIUM' WHERE id = $1`, [alice.uid]);
    const request = await createRequest(alice, {});
    expect(Math.round((Date.parse(request.expiresAt) - Date.now()) / DAY)).toBe(21);
    await query(ferry, `UPDATE users SET plan_type = 'NONE' WHERE id = $1`, [alice.uid]);
    const long = await call(alice, 'POST', '/api/receive/requests', { expiresInDays: 30 });
    expect(long.status).toBe(400);
    expect(long.body.limitErrors).toEqual([{ limit: 'fileValidityInDays', max: 7, actual: 30 }]);
    const anonymous = await call(null, 'POST', '/api/receive/requests', {});
    expect(anonymous.status).toBe(401);
  });

  it('counts uploads against the requester’s plan, stops when closed, and refuses S3 on the transfer API', async () => {
    const request = await createRequest(alice, {});
    const target = { kind: 'request', requestId: request.requestId };
    const tooMany = await call(null, 'POST', '/api/receive/uploads', {
      target,
      files: Array.from({ length: 251 }, (_, i) => ({ name: `f${i}.txt`, size: 1 })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.limitErrors).toEqual([{ limit: 'files', max: 250, actual: 251 }]);
    const tooBig = await startUpload({ target, files: [{ name: 'big.bin', size: 5e9 + 1 }] });
    expect(tooBig.body.limitErrors).toEqual([{ limit: 'uploadSize', max: 5e9, actual: 5e9 + 1 }]);

    const closed = await call(alice, 'POST', `/api/receive/requests/${request.requestId}/close`);
    expect(closed.body.state).toBe('closed');
    expect((await startUpload({ target })).body).toMatchObject({ status: 410, codes: ['RECEIVE_CLOSED'] });

    const other = await createRequest(alice, {});
    await query(ferry, `UPDATE receive_requests SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      other.requestId,
    ]);
    const expired = await call(null, 'GET', `/api/receive/points/request/${other.requestId}`);
    expect(expired.body).toMatchObject({ status: 410, codes: ['RECEIVE_EXPIRED'] });

    const direct = await call(alice, 'POST', '/api/transfer/transfers', {
      type: 'S3',
      files: [{ name: 'a.txt', size: 1 }],
    });
    expect(direct.status).toBe(400);
    expect((await call(bob, 'GET', `/api/receive/requests/${request.requestId}`)).status).toBe(404);
  });

  it('gives a custom address once', async () => {
    const request = await createRequest(alice, { customId: 'Quarterly-Reports' });
    expect(request.link).toBe(`${ferry.publicOrigin}/r/quarterly-reports`);
    const again = await call(bob, 'POST', '/api/receive/requests', { customId: 'quarterly-reports' });
    expect(again.status).toBe(409);
  });

  it('keeps the app’s own words out of custom addresses and inbox slugs', async () => {
    for (const word of ['signin', 'Admin', 'api', 'dashboard', 'request-files', 'widgets', 'privacy-gdpr']) {
      const refused = await call(alice, 'POST', '/api/receive/requests', { customId: word });
      expect(refused.status, word).toBe(409);
      expect(refused.body.details).toMatchObject({ field: 'customId', reason: 'reserved' });
    }
    const slug = await call(alice, 'POST', '/api/receive/inboxes', { slug: 'dashboard', title: 'Mine' });
    expect(slug.status).toBe(409);
    expect(slug.body.details).toMatchObject({ field: 'slug', reason: 'reserved' });
    const inbox = await createInbox(alice, { slug: `alice-words-${process.pid}`, title: 'Mine' });
    const renamed = await call(alice, 'PATCH', `/api/receive/inboxes/${inbox.inboxId}`, { slug: 'signin' });
    expect(renamed.status).toBe(409);
    expect((await createRequest(alice, { customId: 'signin-help-desk' })).link).toMatch(
      /\/r\/signin-help-desk$/,
    );
    expect(
      await query(ferry, `SELECT id FROM receive_requests WHERE id IN ('signin', 'admin', 'api')`),
    ).toEqual([]);
  });
});

describe('a request by e-mail (S1)', () => {
  it('mails each person a personal link, knows who uploaded, and reminds the others', async () => {
    const carol = `carol-${process.pid}@client.example`;
    const dave = `dave-${process.pid}@client.example`;
    const request = await createRequest(alice, {
      linkMode: 'S1',
      recipients: [carol, dave, carol.toUpperCase()],
      subject: 'Signed contract',
      senderName: 'Alice Agent',
    });
    expect(request.recipients.map((r) => r.email)).toEqual([carol, dave]);
    const linkOf = async (address: string) => {
      const mail = await sink.waitFor(to(address));
      expect(mail.parsed.subject).toContain('Alice Agent');
      expect(mail.parsed.subject).toContain('Signed contract');
      expect(mail.parsed.replyTo?.text).toContain(alice.email);
      const match = /\/r\/([A-Za-z0-9]{16})\?userSecret=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '');
      expect(match, 'a personal upload link').not.toBeNull();
      expect(match![1]).toBe(request.requestId);
      return match![2]!;
    };
    const carolSecret = await linkOf(carol);
    const daveSecret = await linkOf(dave);
    expect(carolSecret).not.toBe(daveSecret);

    const page = await call(
      null,
      'GET',
      `/api/receive/points/request/${request.requestId}?userSecret=${carolSecret}`,
    );
    expect(page.body).toMatchObject({ linkMode: 'S1', recipientEmail: carol, fields: { email: 'hidden' } });
    const wrong = await call(null, 'GET', `/api/receive/points/request/${request.requestId}?userSecret=nope`);
    expect(wrong.status).toBe(404);

    const { created } = await upload(
      { target: { kind: 'request', requestId: request.requestId, userSecret: carolSecret } },
      [{ name: 'contract.pdf', data: randomFile(1000) }],
    );
    const notified = await sink.waitFor(to(alice.email));
    expect(notified.parsed.text).toContain(carol);
    // A personal link was mailed to Carol: her address is hers, said without a warning, in every view.
    expect(notified.parsed.text).not.toContain('not verified');
    const history = await call(alice, 'GET', `/api/transfer/transfers/${created.transferId}/events`);
    expect(history.body.events.slice(0, 2).map((e: { actor: unknown }) => e.actor)).toEqual([
      { kind: 'recipient', userId: null, email: carol },
      { kind: 'recipient', userId: null, email: carol },
    ]);
    const view = await call(alice, 'GET', `/api/receive/requests/${request.requestId}`);
    const byEmail = Object.fromEntries((view.body as ReceiveRequestView).recipients.map((r) => [r.email, r]));
    expect(byEmail[carol]!.uploadedAt).not.toBeNull();
    expect(byEmail[dave]!.uploadedAt).toBeNull();
    expect(byEmail[carol]!.delivery).toBe('sent');
    expect(
      (await call(alice, 'GET', `/api/receive/received/${created.transferId}`)).body.uploader,
    ).toMatchObject({ email: carol, emailVerified: true });
    const listed = await call(alice, 'GET', '/api/transfer/transfers?direction=received');
    expect((listed.body as TransferListResponse).items[0]).toMatchObject({
      senderEmail: carol,
      senderEmailVerified: true,
    });

    // Without a personal link, an S1 request takes nothing, whatever address is given, and shows no page.
    const anonymous = await startUpload({
      target: { kind: 'request', requestId: request.requestId },
      uploaderEmail: carol,
    });
    expect(anonymous.body).toMatchObject({ status: 404, codes: ['NOT_FOUND'] });
    expect((await call(null, 'GET', `/api/receive/points/request/${request.requestId}`)).status).toBe(404);

    // Reminders: only Dave, who has not uploaded, and only once.
    sink.messages.length = 0;
    await query(
      ferry,
      `UPDATE receive_requests SET created_at = now() - interval '6 days', expires_at = now() + interval '2 hours'
        WHERE id = $1`,
      [request.requestId],
    );
    expect((await ferry.notifications.tick()).requestsReminded).toBe(1);
    const reminder = await sink.waitFor(to(dave));
    expect(reminder.parsed.subject).toContain('Alice Agent');
    expect(reminder.parsed.text).toContain(`userSecret=${daveSecret}`);
    expect((await ferry.notifications.tick()).requestsReminded).toBe(0);
    expect(sink.messages.filter(to(carol))).toEqual([]);
  });

  it('follows allowInboxS1 and the plan’s recipient limit', async () => {
    await query(ferry, `UPDATE users SET settings = $2 WHERE id = $1`, [
      alice.uid,
      JSON.stringify({ uploaderSettings: { allowInboxS1: false } }),
    ]);
    const refused = await call(alice, 'POST', '/api/receive/requests', {
      linkMode: 'S1',
      recipients: ['x@client.example'],
    });
    expect(refused.status).toBe(403);
    expect(refused.body.details.setting).toBe('allowInboxS1');
    await query(ferry, `UPDATE users SET settings = '{}' WHERE id = $1`, [alice.uid]);
    const many = await call(alice, 'POST', '/api/receive/requests', {
      linkMode: 'S1',
      recipients: Array.from({ length: 11 }, (_, i) => `p${i}@client.example`),
    });
    expect(many.body.limitErrors).toEqual([{ limit: 'recipients', max: 10, actual: 11 }]);
  });
});

describe('extensions and passwords', () => {
  it('accepts only the allowed extensions, case-insensitively, before any byte is stored', async () => {
    const request = await createRequest(alice, { allowedExtensions: ['.PDF', 'docx'] });
    expect(request.allowedExtensions).toEqual(['pdf', 'docx']);
    const target = { kind: 'request', requestId: request.requestId };
    const refused = await startUpload({
      target,
      files: [
        { name: 'notes.txt', size: 3 },
        { name: 'b.pdf', size: 1 },
      ],
    });
    expect(refused.status).toBe(400);
    expect(refused.body.codes).toEqual(['EXTENSION_NOT_AUTHORIZED']);
    expect(refused.body.details.allowedExtensions).toEqual(['pdf', 'docx']);
    expect(refused.body.details.files).toEqual([
      { name: 'notes.txt', key: 'uploader:notif_extension_authorized', extensions: ['pdf', 'docx'] },
    ]);
    expect(await query(ferry, 'SELECT id FROM transfers')).toEqual([]);
    const { receipt } = await upload({ target: target as ReceiveUploadCreate['target'] }, [
      { name: 'SCAN.Pdf', data: randomFile(10) },
    ]);
    expect(receipt.files[0]!.name).toBe('SCAN.Pdf');
    // Spec §5 bans still apply.
    const exe = await startUpload({ target, files: [{ name: 'setup.exe', size: 1 }] });
    expect(exe.body.codes).toEqual(['INVALID_FILENAME']);
  });

  it('holds points to the owner’s receiveAllowedExtensions', async () => {
    await query(ferry, `UPDATE users SET settings = $2 WHERE id = $1`, [
      alice.uid,
      JSON.stringify({ uploaderSettings: { receiveAllowedExtensions: ['jpg', 'png'] } }),
    ]);
    const outside = await call(alice, 'POST', '/api/receive/requests', { allowedExtensions: ['pdf'] });
    expect(outside.status).toBe(400);
    expect(outside.body.details.setting).toBe('receiveAllowedExtensions');
    const request = await createRequest(alice, {});
    expect(request.allowedExtensions).toEqual(['jpg', 'png']);
    const refused = await startUpload({ target: { kind: 'request', requestId: request.requestId } });
    expect(refused.body.codes).toEqual(['EXTENSION_NOT_AUTHORIZED']);
  });

  it('asks for the password and stops guessing with 429', async () => {
    const request = await createRequest(alice, { password: 'open sesame' });
    const target = { kind: 'request', requestId: request.requestId };
    expect(
      (await call(null, 'GET', `/api/receive/points/request/${request.requestId}`)).body.passwordProtected,
    ).toBe(true);
    expect((await startUpload({ target })).body.codes).toEqual(['PASSWORD_REQUIRED']);
    const ok = await call(null, 'POST', '/api/receive/check-password', { target, password: 'open sesame' });
    expect(ok.body).toEqual({ ok: true });
    const { receipt } = await upload(
      { target: target as ReceiveUploadCreate['target'], password: 'open sesame' },
      [{ name: 'x.pdf', data: randomFile(5) }],
    );
    expect(receipt.status).toBe('ENABLED');
    for (let i = 0; i < 3; i++) {
      const wrong = await startUpload({ target, password: `guess ${i}` });
      expect(wrong.status).toBe(403);
      expect(wrong.body.codes).toEqual(['WRONG_PASSWORD']);
    }
    const limited = await call(null, 'POST', '/api/receive/check-password', {
      target,
      password: 'open sesame',
    });
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});

describe('inboxes', () => {
  it('have their own address, switch on and off, and keep their slug unique', async () => {
    const inbox = await createInbox(alice, {
      slug: `Alice-Inbox-${process.pid}`,
      title: 'Alice’s inbox',
      fields: { name: 'required', questions: [{ id: 'order', label: 'Order number', required: true }] },
    });
    expect(inbox).toMatchObject({ enabled: true, isDefault: true, linkMode: 'S2' });
    expect(inbox.link).toBe(`${ferry.publicOrigin}/i/alice-inbox-${process.pid}`);
    const slug = inbox.slug;
    expect((await call(bob, 'POST', '/api/receive/inboxes', { slug, title: 'Mine' })).status).toBe(409);

    const page = await call(null, 'GET', `/api/receive/points/inbox/${slug}`);
    expect(page.body).toMatchObject({ kind: 'inbox', id: slug, title: 'Alice’s inbox', expiresAt: null });
    const target = { kind: 'inbox' as const, slug };
    const noName = await startUpload({ target, answers: [{ questionId: 'order', answer: '42' }] });
    expect(noName.body.details.field).toBe('uploader.name');
    const noAnswer = await startUpload({ target, uploaderName: 'Eve' });
    expect(noAnswer.body.details.field).toBe('answers.order');
    const { created } = await upload(
      { target, uploaderName: 'Eve', answers: [{ questionId: 'order', answer: 'A-42' }] },
      [{ name: 'photo.jpg', data: randomFile(100) }],
    );
    // This upload's notification: the one of the previous test's upload may still be on its way.
    const mail = await sink.waitFor((m) => to(alice.email)(m) && (m.parsed.text ?? '').includes('photo.jpg'));
    expect(mail.parsed.text).toContain('A-42');
    expect(
      (await call(alice, 'GET', `/api/receive/received/${created.transferId}`)).body.uploader.answers,
    ).toEqual([{ questionId: 'order', label: 'Order number', answer: 'A-42' }]);

    const off = await call(alice, 'PATCH', `/api/receive/inboxes/${inbox.inboxId}`, { enabled: false });
    expect(off.body).toMatchObject({ enabled: false, uploadCount: 1 });
    expect((await call(null, 'GET', `/api/receive/points/inbox/${slug}`)).body).toMatchObject({
      status: 410,
      codes: ['RECEIVE_CLOSED'],
    });
    expect((await startUpload({ target, uploaderName: 'Eve' })).body.codes).toEqual(['RECEIVE_CLOSED']);
    await call(alice, 'PATCH', `/api/receive/inboxes/${inbox.inboxId}`, { enabled: true });
    expect((await call(null, 'GET', `/api/receive/points/inbox/${slug}`)).status).toBe(200);

    // Owner only.
    expect(
      (await call(bob, 'PATCH', `/api/receive/inboxes/${inbox.inboxId}`, { enabled: false })).status,
    ).toBe(404);
    expect((await call(bob, 'GET', '/api/receive/inboxes')).body.items).toEqual([]);
    const listed = await call(alice, 'GET', '/api/receive/inboxes');
    expect(listed.body.inboxUpload).toMatchObject({ allowed: true, allowInboxS1: true, allowInboxS2: true });
    expect(listed.body.items.map((i: InboxView) => i.inboxId)).toEqual([inbox.inboxId]);
  });

  it('follow allowInboxS1/S2, and an S1 inbox needs and answers the uploader’s e-mail', async () => {
    const s1 = await createInbox(alice, { slug: `s1-${process.pid}`, title: 'Identified', linkMode: 'S1' });
    expect(s1.fields.email).toBe('required');
    const target = { kind: 'inbox' as const, slug: s1.slug };
    expect((await startUpload({ target })).body.details.field).toBe('uploader.email');
    const uploader = `frank-${process.pid}@client.example`;
    const data = randomFile(321);
    const { receipt } = await upload({ target, uploaderEmail: uploader, locale: 'fr' }, [
      { name: 'f.pdf', data },
    ]);
    expect(receipt.receiptSentTo).toBe(uploader);
    const mail = await sink.waitFor(to(uploader));
    expect(mail.parsed.text).toContain(sha256(data));
    expect(mail.parsed.text).not.toContain('/dl/');
    expect(mail.parsed.subject).toContain('remis');

    await query(ferry, `UPDATE users SET settings = $2 WHERE id = $1`, [
      alice.uid,
      JSON.stringify({ uploaderSettings: { allowInboxS1: false } }),
    ]);
    // Turned off: existing S1 inboxes close, new ones are refused; S2 still works.
    expect((await call(null, 'GET', `/api/receive/points/inbox/${s1.slug}`)).body.codes).toEqual([
      'RECEIVE_CLOSED',
    ]);
    const refused = await call(alice, 'POST', '/api/receive/inboxes', {
      slug: `s1b-${process.pid}`,
      title: 'x',
      linkMode: 'S1',
    });
    expect(refused.body.details.setting).toBe('allowInboxS1');
    await createInbox(alice, { slug: `s2-${process.pid}`, title: 'Link', linkMode: 'S2' });
    expect((await call(alice, 'GET', '/api/receive/inboxes')).body.inboxUpload).toMatchObject({
      allowed: true,
      allowInboxS1: false,
    });
  });

  it('cap uploads at their own size, within the plan', async () => {
    const tooMuch = await call(alice, 'POST', '/api/receive/inboxes', {
      slug: `big-${process.pid}`,
      title: 'x',
      maxUploadBytes: 6e9,
    });
    expect(tooMuch.body.limitErrors).toEqual([{ limit: 'uploadSize', max: 5e9, actual: 6e9 }]);
    const inbox = await createInbox(alice, { slug: `small-${process.pid}`, title: 'x', maxUploadBytes: 100 });
    const refused = await startUpload({
      target: { kind: 'inbox', slug: inbox.slug },
      files: [{ name: 'a.pdf', size: 101 }],
    });
    expect(refused.body.limitErrors).toEqual([{ limit: 'uploadSize', max: 100, actual: 101 }]);
  });
});

describe('push', () => {
  it('delivers into an account’s default inbox by its e-mail, without telling who has an account', async () => {
    const inbox = await createInbox(alice, { slug: `push-${process.pid}`, title: 'Pushed to Alice' });
    const page = await call(
      null,
      'GET',
      `/api/receive/push?to=${encodeURIComponent(alice.email.toUpperCase())}`,
    );
    expect(page.body).toMatchObject({ kind: 'inbox', id: inbox.slug });
    const { created } = await upload({ target: { kind: 'push', to: alice.email } }, [
      { name: 'pushed.bin', data: randomFile(64) },
    ]);
    const owned = await query<{ owner_id: string; type: string }>(
      ferry,
      'SELECT owner_id, type FROM transfers WHERE id = $1',
      [created.transferId],
    );
    expect(owned).toEqual([{ owner_id: alice.uid, type: 'S3' }]);
    expect(
      (await call(alice, 'GET', `/api/receive/received/${created.transferId}`)).body.point,
    ).toMatchObject({
      kind: 'inbox',
      id: inbox.inboxId,
      viaPush: true,
    });

    const nobody = await call(null, 'GET', '/api/receive/push?to=nobody%40nowhere.example');
    const noInbox = await call(null, 'GET', `/api/receive/push?to=${encodeURIComponent(bob.email)}`);
    expect(nobody.status).toBe(404);
    expect(noInbox.status).toBe(404);
    expect({ ...noInbox.body }).toEqual({ ...nobody.body });
    const pushed = await startUpload({ target: { kind: 'push', to: bob.email } });
    expect(pushed.status).toBe(404);
    // By inbox name too.
    expect((await call(null, 'GET', `/api/receive/push?to=${inbox.slug}`)).status).toBe(200);
  });
});

describe('widgets', () => {
  it('give a snippet, a themed public page that other sites may frame, and upload into their inbox', async () => {
    const inbox = await createInbox(alice, { slug: `widget-${process.pid}`, title: 'Site uploads' });
    const res = await call(alice, 'POST', `/api/receive/inboxes/${inbox.inboxId}/widgets`, {
      name: 'Contact page',
      theme: { actionColor: '#112233' },
      fields: { email: 'required', questions: [{ id: 'topic', label: 'Topic' }] },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const widget = res.body;
    expect(widget.snippet).toBe(
      `<script src="${ferry.publicOrigin}/widget.js" data-ferry-widget="${widget.widgetId}" async></script>`,
    );
    expect(widget.url).toBe(`${ferry.publicOrigin}/widgets/${widget.widgetId}`);
    expect((await call(bob, 'GET', `/api/receive/widgets/${widget.widgetId}`)).status).toBe(404);

    const page = await call(null, 'GET', `/api/receive/points/widget/${widget.widgetId}`);
    expect(page.body).toMatchObject({
      widgetId: widget.widgetId,
      theme: { backgroundColor: '#4052B5', actionColor: '#112233', startbtnColor: '#FF6208' },
      fields: { email: 'required' },
    });
    const { created } = await upload(
      {
        target: { kind: 'widget', widgetId: widget.widgetId },
        uploaderEmail: 'site-visitor@client.example',
        answers: [{ questionId: 'topic', answer: 'Invoice' }],
      },
      [{ name: 'invoice.pdf', data: randomFile(10) }],
    );
    expect((await call(alice, 'GET', `/api/receive/received/${created.transferId}`)).body).toMatchObject({
      point: { kind: 'inbox', id: inbox.inboxId, widgetId: widget.widgetId },
      uploader: { answers: [{ questionId: 'topic', label: 'Topic', answer: 'Invoice' }] },
    });

    const script = await fetch(`${ferry.baseUrl}/widget.js`);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect(script.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    expect(await script.text()).toContain('/widgets/');
    const framed = await fetch(`${ferry.baseUrl}/widgets/${widget.widgetId}`);
    expect(framed.headers.get('x-frame-options')).toBeNull();
    expect(framed.headers.get('content-security-policy')).toContain('frame-ancestors *');
    const other = await fetch(`${ferry.baseUrl}/r/anything`);
    expect(other.headers.get('x-frame-options')).toBe('DENY');
    expect(other.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

    const removed = await call(alice, 'DELETE', `/api/receive/widgets/${widget.widgetId}`);
    expect(removed.status).toBe(204);
    expect((await call(null, 'GET', `/api/receive/points/widget/${widget.widgetId}`)).status).toBe(404);
  });
});
