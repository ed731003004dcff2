import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, randomFile, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, TEST_REDIS_URL, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Guessing a password from many addresses: once the failures from everywhere reach the cap (ten times the
 * per-address attempts), every attempt is refused with 429 — the right password too — until the window ends,
 * on every instance (counts in Redis), and the owner hears of it by mail exactly once.
 */
const RIGHT = 'correct horse battery staple';
const ATTEMPTS = 2;
const CAP = ATTEMPTS * 10;

let sink: SmtpSink;
let a: TestFerry;
let b: TestFerry;
let alice: Awaited<ReturnType<typeof signedInAccount>>;

beforeAll(async () => {
  sink = await startSmtpSink();
  const env = {
    SMTP_URL: sink.url,
    MAIL_FROM: 'no-reply@ferry.example',
    MAINTENANCE_CRON: '0 0 1 1 *',
    REDIS_URL: TEST_REDIS_URL,
    PASSWORD_ATTEMPTS_PER_WINDOW: String(ATTEMPTS),
  };
  a = await startTestFerry({ env });
  b = await startTestFerry({ env, databaseUrl: a.databaseUrl });
  alice = await signedInAccount(a.baseUrl, `alice-${process.pid}@guess.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
});
afterAll(async () => {
  await b?.close();
  await a?.close();
  await sink?.close();
});

/** A POST from a given client address, on one of the two instances. */
async function post(ferry: TestFerry, url: string, json: unknown, ip: string) {
  const res = await ferry.app.inject({ method: 'POST', url, payload: json as object, remoteAddress: ip });
  return { status: res.statusCode, retryAfter: Number(res.headers['retry-after']), body: res.json() };
}

/** Mail jobs queued under keys starting with `prefix` (each is one mail, whatever its delivery). */
async function queuedMails(prefix: string): Promise<number> {
  const rows = await query<{ n: number }>(
    a,
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail.send' AND data->>'idempotencyKey' LIKE $1`,
    [`${prefix}%`],
  );
  return rows[0]!.n;
}

/** CAP wrong guesses spread over CAP / ATTEMPTS addresses (each within its own limit) and both instances. */
async function guessFromEverywhere(url: string, body: (password: string) => unknown): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < CAP; i++) {
    const ip = `198.51.100.${Math.floor(i / ATTEMPTS) + 1}`;
    statuses.push((await post(i % 2 ? b : a, url, body(`guess-${i}`), ip)).status);
  }
  return statuses;
}

describe('password guessing past the cap', () => {
  it('refuses every transfer password, the right one too, on both instances, and mails the owner once', async () => {
    const files = [{ name: 'plans.pdf', data: randomFile(100) }];
    const created = await api(a.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: alice.bearer,
      json: {
        type: 'S2',
        name: 'Quarterly plans',
        password: RIGHT,
        files: files.map((f) => ({ name: f.name, size: f.data.length })),
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const t = created.body;
    await new TusTestClient(a.baseUrl, t.uploadToken).upload(t.transferId, t.files[0].id, files[0]!.data);
    const done = await api(a.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': t.uploadToken },
      json: { files: [{ id: t.files[0].id, sha256: sha256(files[0]!.data) }] },
    });
    expect(done.status).toBe(200);

    const url = '/api/transfer/downloads/check-password';
    const body = (password: string) => ({ transferId: t.transferId, password });
    expect((await post(a, url, body(RIGHT), '203.0.113.1')).status).toBe(200);
    expect(await guessFromEverywhere(url, body)).toEqual(Array(CAP).fill(403));

    // Closed now: from fresh addresses, on either instance, the right password is refused as well.
    for (const [ferry, ip] of [
      [a, '203.0.113.7'],
      [b, '203.0.113.8'],
    ] as const) {
      const right = await post(ferry, url, body(RIGHT), ip);
      expect(right.status).toBe(429);
      expect(right.body.codes).toEqual(['RATE_LIMITED']);
      expect(right.retryAfter).toBeGreaterThan(0);
      expect(right.retryAfter).toBeLessThanOrEqual(900);
    }
    const link = await a.app.inject({
      method: 'GET',
      url: `/api/transfer/downloads/link?transferId=${t.transferId}&password=${encodeURIComponent(RIGHT)}`,
      remoteAddress: '203.0.113.9',
    });
    expect(link.statusCode).toBe(429);
    expect((await post(b, url, body('one more'), '203.0.113.10')).status).toBe(429);

    const mail = await sink.waitFor(
      (m) => m.to.includes(alice.email) && /guessing the password/.test(m.parsed.subject ?? ''),
    );
    expect(mail.parsed.subject).toContain('Quarterly plans');
    expect(mail.parsed.text).toContain(String(CAP));
    expect(await queuedMails(`pwg-${t.transferId}-`)).toBe(1);
  });

  it('does the same for a request password, with the mail in the owner’s language', async () => {
    await query(a, `UPDATE users SET locale = 'fr' WHERE id = $1`, [alice.uid]);
    const created = await api(a.baseUrl, '/api/receive/requests', {
      method: 'POST',
      headers: alice.bearer,
      json: { password: RIGHT, subject: 'Factures 2026' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const target = { kind: 'request', requestId: created.body.requestId };
    const url = '/api/receive/check-password';
    const body = (password: string) => ({ target, password });
    expect((await post(b, url, body(RIGHT), '203.0.113.1')).status).toBe(200);
    expect(await guessFromEverywhere(url, body)).toEqual(Array(CAP).fill(403));

    const right = await post(a, url, body(RIGHT), '203.0.113.20');
    expect(right.status).toBe(429);
    expect(right.retryAfter).toBeGreaterThan(0);
    const upload = await b.app.inject({
      method: 'POST',
      url: '/api/receive/uploads',
      payload: { target, password: RIGHT, files: [{ name: 'a.pdf', size: 5 }] },
      remoteAddress: '203.0.113.21',
    });
    expect(upload.statusCode).toBe(429);

    const mail = await sink.waitFor(
      (m) => m.to.includes(alice.email) && /deviner le mot de passe/.test(m.parsed.subject ?? ''),
    );
    expect(mail.parsed.subject).toContain('Factures 2026');
    expect(await queuedMails(`rpwg-r-${created.body.requestId}-`)).toBe(1);
  });
});
