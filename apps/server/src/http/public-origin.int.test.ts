import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, fetchBytes, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Links Ferry stores or sends to someone else start with PUBLIC_URL, else http://localhost:PORT — never with the
 * Host (or X-Forwarded-Host) a request names: a forgot-password call must not mail the real token to a link on
 * the caller's domain.
 */
let sink: SmtpSink;
let ferry: TestFerry;
let local: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      DOWNLOAD_CONFIRMATION_DELAY_SECONDS: '0',
    },
  });
  local = `http://localhost:${new URL(ferry.baseUrl).port}`;
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});
beforeEach(() => {
  sink.messages.length = 0;
});

const EVIL = { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'https' };

/** A JSON call with headers fetch would not let a test set (Host). */
function forged(
  method: string,
  path: string,
  json: unknown,
  headers: Record<string, string> = {},
  // biome-ignore lint/suspicious/noExplicitAny: a test helper; each test reads the fields it expects of the body
): Promise<{ status: number; body: any }> {
  const url = new URL(path, ferry.baseUrl);
  const body = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      {
        method,
        headers: {
          ...EVIL,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode!, body: text ? JSON.parse(text) : null }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const waitForMail = (to: string) => sink.waitFor((m) => m.to.includes(to));

describe('links for someone other than the caller', () => {
  it('mails a password reset link on http://localhost:PORT whatever Host the request names', async () => {
    const { email } = await signedInAccount(
      ferry.baseUrl,
      `reset-${process.pid}@people.example`,
      waitForMail,
    );
    sink.messages.length = 0;
    expect((await forged('POST', '/api/auth/password/forgot', { email })).status).toBe(202);
    const mail = await sink.waitFor(
      (m) => m.to.includes(email) && /reset-password/.test(m.parsed.text || ''),
    );
    const text = `${mail.parsed.text || ''}\n${mail.parsed.html || ''}`;
    expect(text).not.toContain('evil.example');
    expect(text).toContain(`${local}/reset-password?token=`);
  });

  it('gives a widget snippet and an inbox link on the public origin', async () => {
    const owner = await signedInAccount(ferry.baseUrl, `widgets-${process.pid}@people.example`, waitForMail);
    const inbox = await forged(
      'POST',
      '/api/receive/inboxes',
      { slug: `site-${process.pid}`, title: 'Site uploads' },
      owner.bearer,
    );
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(201);
    expect(inbox.body.link).toBe(`${local}/i/site-${process.pid}`);
    const widget = await forged(
      'POST',
      `/api/receive/inboxes/${inbox.body.inboxId}/widgets`,
      { name: 'Contact page' },
      owner.bearer,
    );
    expect(widget.status, JSON.stringify(widget.body)).toBe(201);
    expect(widget.body.snippet).toBe(
      `<script src="${local}/widget.js" data-ferry-widget="${widget.body.widgetId}" async></script>`,
    );
    expect(widget.body.url).toBe(`${local}/widgets/${widget.body.widgetId}`);
  });

  it('stores the public origin with a transfer (for information: its mails use the public origin of the day)', async () => {
    const created = await forged('POST', '/api/transfer/transfers', { files: [{ name: 'a.txt', size: 1 }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.link).toBe(`${local}/dl/${created.body.transferId}`);
    const [row] = await query<{ origin: string }>(ferry, 'SELECT origin FROM transfers WHERE id = $1', [
      created.body.transferId,
    ]);
    expect(row!.origin).toBe(local);
  });
});

/**
 * Rows made before links stopped following the request's Host kept the origin they were created at, maybe a
 * forged one. Mails about them are written later (dispatch, confirmations, reminders, added recipients): their
 * links must start with the public origin of the day they are sent, never with the stored one.
 */
describe('mails about a row whose stored origin is forged', () => {
  const EVIL_ORIGIN = 'http://evil.example';
  const textOf = (m: ReceivedMail) => `${m.parsed.text || ''}\n${m.parsed.html || ''}`;
  const expectPublicLinks = (m: ReceivedMail, path: string) => {
    const text = textOf(m);
    expect(text).not.toContain('evil.example');
    expect(text).toContain(`${local}${path}`);
    const list = m.parsed.headers.get('list') as { unsubscribe?: { url?: string } } | undefined;
    if (list?.unsubscribe?.url) expect(list.unsubscribe.url.startsWith(`${local}/api/`)).toBe(true);
  };

  it('a transfer: mails to recipients, summary, download confirmation, reminder and an added recipient', async () => {
    const owner = await signedInAccount(ferry.baseUrl, `stored-${process.pid}@people.example`, waitForMail);
    sink.messages.length = 0;
    const bob = `bob-${process.pid}@recipients.example`;
    const carol = `carol-${process.pid}@recipients.example`;
    const dave = `dave-${process.pid}@recipients.example`;
    const data = Buffer.from('hello, stored origin');
    const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: owner.bearer,
      json: {
        type: 'S1',
        senderEmail: owner.email,
        recipients: [bob, carol],
        downloadConfirmation: true,
        expiryReminder: true,
        summary: true,
        expiresInDays: 7,
        files: [{ name: 'a.txt', size: data.length }],
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { transferId, uploadToken, files } = created.body;
    await query(ferry, 'UPDATE transfers SET origin = $2 WHERE id = $1', [transferId, EVIL_ORIGIN]);
    await new TusTestClient(ferry.baseUrl, uploadToken).upload(transferId, files[0].id, data);
    const done = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': uploadToken },
      json: { files: [{ id: files[0].id, sha256: sha256(data) }] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);

    const bobMail = await waitForMail(bob);
    expectPublicLinks(bobMail, `/dl/${transferId}?userSecret=`);
    expectPublicLinks(await waitForMail(carol), `/dl/${transferId}?userSecret=`);
    expectPublicLinks(await waitForMail(owner.email), `/dl/${transferId}`);

    // Bob downloads: the confirmation to the sender.
    const secret = /\/dl\/[A-Za-z0-9]+\?userSecret=([A-Za-z0-9_-]+)/.exec(bobMail.parsed.text || '')![1]!;
    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?${new URLSearchParams({ transferId, fileId: files[0].id, userSecret: secret, browserCode: 'stored-origin' })}`,
    );
    expect(link.status, JSON.stringify(link.body)).toBe(200);
    expect((await fetchBytes(link.body.url)).data.equals(data)).toBe(true);
    const confirmation = await sink.waitFor(
      (m) => m.to.includes(owner.email) && (m.parsed.subject ?? '').includes(bob),
    );
    expectPublicLinks(confirmation, `/dl/${transferId}`);

    // Two days before expiry Carol (who has not downloaded) is reminded.
    await query(
      ferry,
      "UPDATE transfers SET expires_at = now() + interval '47 hours', sent_at = now() - interval '5 days' WHERE id = $1",
      [transferId],
    );
    expect(await ferry.notifications.remindDue()).toBeGreaterThanOrEqual(1);
    const reminder = await sink.waitFor(
      (m) => m.to.includes(carol) && m !== sink.messages.find((x) => x.to.includes(carol)),
    );
    expectPublicLinks(reminder, `/dl/${transferId}?userSecret=`);

    // The owner adds a recipient from the dashboard: the new personal link too.
    const added = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/recipients`, {
      method: 'POST',
      headers: owner.bearer,
      json: { emails: [dave] },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expectPublicLinks(await waitForMail(dave), `/dl/${transferId}?userSecret=`);
  });

  it('a file request: its link, the mails to the people asked, their reminder and the upload notification', async () => {
    const owner = await signedInAccount(ferry.baseUrl, `req-${process.pid}@people.example`, waitForMail);
    const erin = `erin-${process.pid}@clients.example`;
    const created = await api(ferry.baseUrl, '/api/receive/requests', {
      method: 'POST',
      headers: owner.bearer,
      json: { linkMode: 'S1', recipients: [erin], expiryReminder: true, expiresInDays: 7 },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { requestId } = created.body;
    const first = await waitForMail(erin);
    expectPublicLinks(first, `/r/${requestId}?userSecret=`);
    await query(ferry, 'UPDATE receive_requests SET origin = $2 WHERE id = $1', [requestId, EVIL_ORIGIN]);

    const view = await api(ferry.baseUrl, `/api/receive/requests/${requestId}`, { headers: owner.bearer });
    expect(view.body.link).toBe(`${local}/r/${requestId}`);
    await query(
      ferry,
      "UPDATE receive_requests SET expires_at = now() + interval '47 hours', created_at = now() - interval '5 days' WHERE id = $1",
      [requestId],
    );
    expect((await ferry.notifications.tick()).requestsReminded).toBe(1);
    const reminder = await sink.waitFor((m) => m.to.includes(erin) && m !== first);
    expectPublicLinks(reminder, `/r/${requestId}?userSecret=`);

    // Erin uploads: the requester's mail links to the received transfer, stored with a forged origin too.
    sink.messages.length = 0;
    const data = Buffer.from('the files asked for');
    const started = await api(ferry.baseUrl, '/api/receive/uploads', {
      method: 'POST',
      json: {
        target: {
          kind: 'request',
          requestId,
          userSecret: /\?userSecret=([A-Za-z0-9_-]+)/.exec(first.parsed.text || '')![1]!,
        },
        uploaderEmail: erin,
        files: [{ name: 'asked.pdf', size: data.length }],
      },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    const upload = started.body;
    await query(ferry, 'UPDATE transfers SET origin = $2 WHERE id = $1', [upload.transferId, EVIL_ORIGIN]);
    await new TusTestClient(ferry.baseUrl, upload.uploadToken).upload(
      upload.transferId,
      upload.files[0].id,
      data,
    );
    const done = await api(ferry.baseUrl, `/api/receive/uploads/${upload.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': upload.uploadToken },
      json: { files: [{ id: upload.files[0].id, sha256: sha256(data) }] },
    });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expectPublicLinks(await waitForMail(owner.email), `/dl/${upload.transferId}`);
  });
});
