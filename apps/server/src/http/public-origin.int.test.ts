import http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

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
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
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

  it('stores the public origin with a transfer, for the links its mails will carry', async () => {
    const created = await forged('POST', '/api/transfer/transfers', { files: [{ name: 'a.txt', size: 1 }] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.link).toBe(`${local}/dl/${created.body.transferId}`);
    const [row] = await query<{ origin: string }>(ferry, 'SELECT origin FROM transfers WHERE id = $1', [
      created.body.transferId,
    ]);
    expect(row!.origin).toBe(local);
  });
});
