import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/** Webhooks against a receiver started here: signatures, retries on a clock the test moves, replay, refusals. */
let sink: SmtpSink;
let ferry: TestFerry;
let strict: TestFerry;
let clock = new Date('2031-03-01T10:00:00Z');
const received: { path: string; headers: IncomingMessage['headers']; raw: string }[] = [];
/** The answer of the receiver per path (default 200). */
const answers = new Map<string, number>();
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  sink = await startSmtpSink();
  receiver = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, raw });
      response.statusCode = answers.get(request.url ?? '') ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const env = { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' };
  ferry = await startTestFerry({
    env: { ...env, WEBHOOK_ALLOW_PRIVATE: 'true' },
    overrides: { webhookNow: () => clock },
  });
  strict = await startTestFerry({ env, overrides: { webhookNow: () => clock } });
});
afterAll(async () => {
  await ferry?.close();
  await strict?.close();
  await sink?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

let n = 0;
const signedIn = async (on: TestFerry, label: string) =>
  signedInAccount(on.baseUrl, `${label}-${process.pid}-${++n}@people.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

/** A transfer the account sends (created, uploaded, completed) and downloads once. */
async function sendAndDownload(on: TestFerry, bearer: { authorization: string }) {
  const data = Buffer.from('webhook test bytes');
  const created = await api(on.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: bearer,
    json: { files: [{ name: 'a.txt', size: data.length }] },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const { transferId, uploadToken, files } = created.body;
  await new TusTestClient(on.baseUrl, uploadToken).upload(transferId, files[0].id, data);
  const done = await api(on.baseUrl, `/api/transfer/transfers/${transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': uploadToken },
    json: { files: [{ id: files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  const link = await api(
    on.baseUrl,
    `/api/transfer/downloads/link?transferId=${transferId}&fileId=${files[0].id}`,
  );
  expect(link.status, JSON.stringify(link.body)).toBe(200);
  const bytes = await fetch(link.body.url);
  expect(bytes.status).toBe(200);
  await bytes.arrayBuffer();
  return transferId as string;
}

const verify = (secret: string, header: string, raw: string) => {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!match) return false;
  return createHmac('sha256', secret).update(`${match[1]}.${raw}`).digest('hex') === match[2];
};

describe('webhooks', () => {
  it('delivers signed transfer events and DOWNLOADED to the owner’s webhook; the log shows them', async () => {
    const owner = await signedIn(ferry, 'hook');
    const hook = await api(ferry.baseUrl, '/api/user/webhooks', {
      method: 'POST',
      headers: owner.bearer,
      json: { url: `${receiverUrl}/ok-${n}` },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    expect(hook.body.secret).toMatch(/^whsec_/);
    const listed = await api(ferry.baseUrl, '/api/user/webhooks', { headers: owner.bearer });
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0].secret).toBeUndefined();

    const transferId = await sendAndDownload(ferry, owner.bearer);
    await ferry.webhooks.deliverDue();
    const mine = received.filter((r) => r.path === `/ok-${n}`);
    expect(mine.length).toBeGreaterThan(1);
    for (const r of mine) {
      expect(verify(hook.body.secret, String(r.headers['ferry-signature']), r.raw)).toBe(true);
      expect(verify('whsec_wrong', String(r.headers['ferry-signature']), r.raw)).toBe(false);
      expect(Number(/t=(\d+)/.exec(String(r.headers['ferry-signature']))![1])).toBe(clock.getTime() / 1000);
    }
    const bodies = mine.map((r) => JSON.parse(r.raw));
    expect(bodies.map((b) => b.event)).toContain('DOWNLOADED');
    for (const b of bodies) {
      expect(Object.keys(b).sort()).toEqual(['createdAt', 'data', 'event', 'id', 'transfer']);
      expect(b.transfer.id).toBe(transferId);
    }
    const log = await api(ferry.baseUrl, `/api/user/webhooks/${hook.body.id}/deliveries`, {
      headers: owner.bearer,
    });
    expect(log.body.map((d: { status: string }) => d.status)).toEqual(mine.map(() => 'delivered'));
    expect(
      log.body.every(
        (d: { responseCode: number; attempts: number }) => d.responseCode === 200 && d.attempts === 1,
      ),
    ).toBe(true);
  });

  it('retries after 1 min, 5 min, 30 min, 2 h, 6 h and 12 h, then fails; replay sends it again', async () => {
    const owner = await signedIn(ferry, 'retry');
    const path = `/down-${n}`;
    answers.set(path, 503);
    const hook = await api(ferry.baseUrl, '/api/user/webhooks', {
      method: 'POST',
      headers: owner.bearer,
      json: { url: `${receiverUrl}${path}`, events: ['DOWNLOADED'] },
    });
    await sendAndDownload(ferry, owner.bearer);
    const tries = () => received.filter((r) => r.path === path).length;
    const delivery = async () =>
      (await api(ferry.baseUrl, `/api/user/webhooks/${hook.body.id}/deliveries`, { headers: owner.bearer }))
        .body;
    await ferry.webhooks.deliverDue();
    expect(tries()).toBe(1);
    expect(await delivery()).toHaveLength(1);
    for (const [i, minutes] of [1, 5, 30, 120, 360, 720].entries()) {
      const [d] = await delivery();
      expect(d).toMatchObject({ status: 'pending', attempts: i + 1, responseCode: 503 });
      expect(new Date(d.nextAttemptAt).getTime() - clock.getTime()).toBe(minutes * 60_000);
      clock = new Date(clock.getTime() + minutes * 60_000 - 1000);
      await ferry.webhooks.deliverDue();
      expect(tries()).toBe(i + 1); // not yet
      clock = new Date(clock.getTime() + 1000);
      await ferry.webhooks.deliverDue();
      expect(tries()).toBe(i + 2);
    }
    const [failed] = await delivery();
    expect(failed).toMatchObject({ status: 'failed', attempts: 7, nextAttemptAt: null });
    clock = new Date(clock.getTime() + 24 * 3600_000);
    await ferry.webhooks.deliverDue();
    expect(tries()).toBe(7);

    answers.set(path, 204);
    const replayed = await api(ferry.baseUrl, `/api/user/webhooks/deliveries/${failed.id}/replay`, {
      method: 'POST',
      headers: owner.bearer,
    });
    expect(replayed.status).toBe(200);
    await ferry.webhooks.deliverDue();
    expect(tries()).toBe(8);
    expect((await delivery())[0]).toMatchObject({ status: 'delivered', attempts: 1, responseCode: 204 });
    const sent = received.filter((r) => r.path === path);
    expect(JSON.parse(sent[7]!.raw)).toEqual(JSON.parse(sent[0]!.raw)); // the same event, same id
    // Someone else's delivery is not theirs to replay.
    const other = await signedIn(ferry, 'other');
    expect(
      (
        await api(ferry.baseUrl, `/api/user/webhooks/deliveries/${failed.id}/replay`, {
          method: 'POST',
          headers: other.bearer,
        })
      ).status,
    ).toBe(404);
  });

  it('refuses loopback, private and link-local addresses, and a host resolving to one, unless WEBHOOK_ALLOW_PRIVATE', async () => {
    const owner = await signedIn(strict, 'strict');
    for (const url of [
      'https://127.0.0.1/hook',
      'https://10.1.2.3/hook',
      'https://[::1]/hook',
      'https://169.254.169.254/latest',
      'https://[::ffff:127.0.0.1]/hook',
      'https://localhost/hook',
      `${receiverUrl}/plain-http`,
    ]) {
      const res = await api(strict.baseUrl, '/api/user/webhooks', {
        method: 'POST',
        headers: owner.bearer,
        json: { url },
      });
      expect([url, res.status, res.body?.details?.reason]).toEqual([url, 400, 'WEBHOOK_URL_REFUSED']);
    }
    // Checked again when delivering: a webhook whose address is (now) private is never called.
    const path = `/rebound-${n}`;
    await query(
      strict,
      `INSERT INTO webhooks (id, owner_id, url, events, secret) VALUES ($1, $2, $3, $4, 'whsec_x')`,
      [`wh_rebound${n}`, owner.uid, `${receiverUrl}${path}`, ['DOWNLOADED']],
    );
    await sendAndDownload(strict, owner.bearer);
    await strict.webhooks.deliverDue();
    expect(received.filter((r) => r.path === path)).toEqual([]);
    const [row] = await query<{ status: string; last_error: string; attempts: number }>(
      strict,
      'SELECT status, last_error, attempts FROM webhook_deliveries WHERE webhook_id = $1',
      [`wh_rebound${n}`],
    );
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.last_error).toMatch(/https|loopback/);
    // With WEBHOOK_ALLOW_PRIVATE=true the same addresses are accepted.
    const allowed = await signedIn(ferry, 'allowed');
    const ok = await api(ferry.baseUrl, '/api/user/webhooks', {
      method: 'POST',
      headers: allowed.bearer,
      json: { url: 'http://localhost:9/hook' },
    });
    expect(ok.status).toBe(201);
  });

  it('is managed with a session or an admin-scoped token only', async () => {
    const owner = await signedIn(ferry, 'scoped');
    const token = async (scopes: string[]) =>
      (
        await api(ferry.baseUrl, '/api/auth/tokens', {
          method: 'POST',
          headers: owner.bearer,
          json: { name: scopes.join(), scopes },
        })
      ).body.token as string;
    const narrow = await token(['transfers:read', 'transfers:write', 'receive']);
    const admin = await token(['admin']);
    const refused = await api(ferry.baseUrl, '/api/user/webhooks', {
      headers: { authorization: `Bearer ${narrow}` },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.details).toMatchObject({ reason: 'API_TOKEN_SCOPE', scope: 'admin' });
    const made = await api(ferry.baseUrl, '/api/user/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}` },
      json: { url: `${receiverUrl}/admin`, events: ['CREATED'] },
    });
    expect(made.status).toBe(201);
    expect(made.body.events).toEqual(['CREATED']);
    expect(
      (
        await api(ferry.baseUrl, `/api/user/webhooks/${made.body.id}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${admin}` },
        })
      ).status,
    ).toBe(204);
    expect((await api(ferry.baseUrl, '/api/user/webhooks', { headers: owner.bearer })).body).toEqual([]);
    // Both changes are in the owner's security log, with the token that made them.
    const logged = await query<{ action: string; target: string; token_id: string | null }>(
      ferry,
      `SELECT action, target, token_id FROM security_log
        WHERE team_id = $1 AND action LIKE 'webhook-%' ORDER BY id`,
      [owner.uid],
    );
    expect(logged.map((r) => [r.action, r.target])).toEqual([
      ['webhook-created', `${receiverUrl}/admin`],
      ['webhook-removed', `${receiverUrl}/admin`],
    ]);
    expect(logged.every((r) => r.token_id !== null)).toBe(true);
    expect((await api(ferry.baseUrl, '/api/user/webhooks')).status).toBe(401);
    // At most 20 per account.
    const add = () =>
      api(ferry.baseUrl, '/api/user/webhooks', {
        method: 'POST',
        headers: owner.bearer,
        json: { url: `${receiverUrl}/many` },
      });
    for (let i = 0; i < 20; i++) expect((await add()).status).toBe(201);
    const over = await add();
    expect(over.status).toBe(409);
    expect(over.body.codes).toEqual(['CONFLICT']);
  });
});
