import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, fetchBytes, readZip, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * The operator console's API: only verified accounts of OPERATOR_EMAILS reach it (everyone else: 404); users are
 * found by address or name; a suspension stops sign-in, sessions, API tokens, the account's transfers and receive
 * points, and lifting it brings everything back; each change is journaled; the figures add up.
 */
let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let operator: Account;
let n = 0;
const PASSWORD = 'correct horse battery';
const OPERATOR = `op-${process.pid}@operators.example`;
const UNVERIFIED_OPERATOR = `op-pending-${process.pid}@operators.example`;

const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@console.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
const call = (who: { bearer: Record<string, string> } | null, method: string, url: string, json?: unknown) =>
  api(ferry.baseUrl, url, { method, headers: who ? who.bearer : {}, json });
const asOperator = (method: string, url: string) => call(operator, method, url);

/** A completed S2 transfer of `who` with two small files; its id and first file's id. */
async function transferOf(who: Account, files: Buffer[]) {
  const created = await call(who, 'POST', '/api/transfer/transfers', {
    files: files.map((data, i) => ({ name: `f${i}.bin`, size: data.length })),
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const t = created.body as { transferId: string; uploadToken: string; files: Array<{ id: string }> };
  const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
  for (const [i, data] of files.entries()) await tus.upload(t.transferId, t.files[i]!.id, data);
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': t.uploadToken },
    json: { files: files.map((data, i) => ({ id: t.files[i]!.id, sha256: sha256(data) })) },
  });
  expect(done.status).toBe(200);
  return { transferId: t.transferId, fileId: t.files[0]!.id };
}

async function signIn(email: string) {
  return api(ferry.baseUrl, '/api/auth/signin', { method: 'POST', json: { email, password: PASSWORD } });
}

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      OPERATOR_EMAILS: `${OPERATOR.toUpperCase()}, ${UNVERIFIED_OPERATOR}`,
    },
  });
  operator = await signedInAccount(ferry.baseUrl, OPERATOR, (to) => sink.waitFor((m) => m.to.includes(to)));
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

describe('operator console access', () => {
  it('answers 404 to anyone but a verified operator, and 200 to the operator', async () => {
    const plain = await account('plain');
    const routes = [
      '/api/operator/me',
      '/api/operator/users',
      '/api/operator/figures',
      '/api/operator/actions',
    ];
    for (const route of routes) {
      expect((await call(null, 'GET', route)).status, route).toBe(404);
      expect((await call(plain, 'GET', route)).status, route).toBe(404);
    }
    expect((await call(plain, 'POST', `/api/operator/users/${operator.uid}/suspend`)).status).toBe(404);
    expect((await call(plain, 'GET', '/api/operator/users?limit=100000')).status).toBe(404);
    expect((await call(plain, 'GET', `/api/operator/users/${'x'.repeat(300)}`)).status).toBe(404);
    // An account at a listed address whose address is not verified is no operator (its session still works)…
    await query(ferry, `UPDATE users SET email = $2, email_verified_at = NULL WHERE id = $1`, [
      plain.uid,
      UNVERIFIED_OPERATOR,
    ]);
    expect((await call(plain, 'GET', '/api/auth/me')).status).toBe(200);
    expect((await call(plain, 'GET', '/api/operator/me')).status).toBe(404);
    // … until it is verified.
    await query(ferry, `UPDATE users SET email_verified_at = now() WHERE id = $1`, [plain.uid]);
    expect((await call(plain, 'GET', '/api/operator/me')).status).toBe(200);
    await query(ferry, `UPDATE users SET email = $2 WHERE id = $1`, [plain.uid, plain.email]);
    const me = await call(operator, 'GET', '/api/operator/me');
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ operator: true, email: OPERATOR });
  });
});

describe('operator users', () => {
  it('finds accounts by address or first name, in any case, page by page', async () => {
    const tag = `Zeph${process.pid}`;
    const a = await account(`${tag.toLowerCase()}-a`);
    const b = await account(`${tag.toLowerCase()}-b`);
    const c = await account('named');
    await query(ferry, 'UPDATE users SET firstname = $2 WHERE id = $1', [c.uid, `${tag} Person`]);
    const found = await asOperator('GET', `/api/operator/users?search=${tag.toUpperCase()}`);
    expect(found.status).toBe(200);
    expect(found.body.users.map((u: { uid: string }) => u.uid).sort()).toEqual([a.uid, b.uid, c.uid].sort());
    expect(found.body.users.find((u: { uid: string }) => u.uid === a.uid)).toMatchObject({
      email: a.email,
      planType: 'NONE',
      planCode: null,
      planEndsAt: null,
      storageUsed: 0,
      emailVerified: true,
      suspended: false,
    });
    expect(found.body.users[0].lastLoginAt).not.toBeNull();
    const first = await asOperator('GET', `/api/operator/users?search=${tag}&limit=2`);
    expect(first.body.users).toHaveLength(2);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await asOperator(
      'GET',
      `/api/operator/users?search=${tag}&limit=2&cursor=${first.body.nextCursor}`,
    );
    expect(second.body.users).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const all = [...first.body.users, ...second.body.users].map((u: { uid: string }) => u.uid);
    expect(new Set(all).size).toBe(3);
    // A literal % matches nothing but itself.
    expect((await asOperator('GET', '/api/operator/users?search=%25')).body.users).toEqual([]);
    expect((await asOperator('GET', '/api/operator/users/nope')).status).toBe(404);
  });

  it('suspends an account: no sign-in, no session, no API token, no downloads, no uploads to it; unsuspends it all back', async () => {
    const sam = await account('sam');
    const token = await call(sam, 'POST', '/api/auth/tokens', { name: 'cli' });
    expect(token.status).toBe(201);
    const apiToken = { bearer: { authorization: `Bearer ${token.body.token}` } };
    const files = [Buffer.from('first file bytes'), Buffer.from('second')];
    const t = await transferOf(sam, files);
    const inbox = await call(sam, 'POST', '/api/receive/inboxes', {
      slug: `sam-${process.pid}`,
      title: 'Drop',
    });
    expect(inbox.status, JSON.stringify(inbox.body)).toBe(201);
    const widget = await call(sam, 'POST', `/api/receive/inboxes/${inbox.body.inboxId}/widgets`, {
      name: 'Site',
    });
    expect(widget.status).toBe(201);
    const request = await call(sam, 'POST', '/api/receive/requests', { subject: 'Forms' });
    expect(request.status).toBe(201);
    const points = [
      `/api/receive/points/inbox/${inbox.body.slug}`,
      `/api/receive/points/widget/${widget.body.widgetId}`,
      `/api/receive/points/request/${request.body.requestId}`,
    ];
    const link = `/api/transfer/downloads/link?transferId=${t.transferId}`;
    const issued = await call(null, 'GET', `${link}&fileId=${t.fileId}`);
    expect(issued.status).toBe(200);
    const before = await fetchBytes(issued.body.url);
    expect(before.data.equals(files[0]!)).toBe(true);

    const earlierIdToken = (await signIn(sam.email)).body.idToken as string;
    const suspended = await asOperator('POST', `/api/operator/users/${sam.uid}/suspend`);
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ uid: sam.uid, suspended: true, suspendedAt: expect.any(String) });

    const codeOf = (res: { body: { codes?: string[] } }) => res.body.codes;
    const refusedSignIn = await signIn(sam.email);
    expect(refusedSignIn.status).toBe(403);
    expect(codeOf(refusedSignIn)).toContain('ACCOUNT_SUSPENDED');
    // An id token from before makes no session.
    const exchanged = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
      headers: { 'id-token': earlierIdToken },
    });
    expect(exchanged.status).toBe(400);
    // The session it had is over; its API token is refused while suspended.
    expect((await call(sam, 'GET', '/api/auth/me')).status).toBe(401);
    const byToken = await call(apiToken, 'GET', '/api/auth/me');
    expect(byToken.status).toBe(403);
    expect(codeOf(byToken)).toContain('ACCOUNT_SUSPENDED');
    for (const url of [
      `/api/transfer/downloads/info?transferId=${t.transferId}`,
      link,
      `${link}&fileId=${t.fileId}`,
    ]) {
      const res = await call(null, 'GET', url);
      expect(res.status, url).toBe(403);
      expect(codeOf(res)).toContain('ACCOUNT_SUSPENDED');
    }
    // A URL issued before the suspension stops too.
    const blob = await fetchBytes(issued.body.url);
    expect(blob.status).toBe(403);
    for (const point of points) {
      const page = await call(null, 'GET', point);
      expect(page.status, point).toBe(403);
      expect(codeOf(page)).toContain('ACCOUNT_SUSPENDED');
    }
    // Nothing is deleted.
    expect(await query(ferry, `SELECT status FROM transfers WHERE id = $1`, [t.transferId])).toEqual([
      { status: 'ENABLED' },
    ]);
    // Suspending twice changes nothing and journals nothing more.
    expect((await asOperator('POST', `/api/operator/users/${sam.uid}/suspend`)).status).toBe(200);

    const lifted = await asOperator('POST', `/api/operator/users/${sam.uid}/unsuspend`);
    expect(lifted.status).toBe(200);
    expect(lifted.body).toMatchObject({ suspended: false, suspendedAt: null });
    const idToken = await signIn(sam.email);
    expect(idToken.status).toBe(200);
    const session = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
      headers: { 'id-token': idToken.body.idToken },
    });
    expect(session.status).toBe(200);
    expect((await call(apiToken, 'GET', '/api/auth/me')).body.user.uid).toBe(sam.uid);
    expect((await fetchBytes(issued.body.url)).data.equals(files[0]!)).toBe(true);
    const zip = await call(null, 'GET', link);
    expect(zip.status).toBe(200);
    const entries = await readZip((await fetchBytes(zip.body.url)).data);
    expect(entries.get('f1.bin')?.equals(files[1]!)).toBe(true);
    for (const point of points) expect((await call(null, 'GET', point)).status, point).toBe(200);

    const journal = await asOperator('GET', '/api/operator/actions');
    const mine = journal.body.actions.filter((a: { target: string }) => a.target === sam.email);
    expect(mine).toMatchObject([
      { action: 'unsuspend', operator: OPERATOR, target: sam.email, at: expect.any(String) },
      { action: 'suspend', operator: OPERATOR, target: sam.email, details: { sessionsEnded: 1 } },
    ]);
    expect(Date.now() - Date.parse(mine[1].at)).toBeLessThan(10 * 60_000);
  });

  it('refuses an operator suspending their own account', async () => {
    const res = await asOperator('POST', `/api/operator/users/${operator.uid}/suspend`);
    expect(res.status).toBe(403);
    expect((await asOperator('GET', '/api/operator/me')).status).toBe(200);
  });
});

describe('operator figures', () => {
  it('counts accounts, paying and suspended ones, stored transfers and bytes, and bytes served over 7 days', async () => {
    const before = (await asOperator('GET', '/api/operator/figures')).body;
    const payer = await account('payer');
    await query(ferry, `UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE id = $1`, [
      payer.uid,
    ]);
    const idle = await account('idle');
    expect((await asOperator('POST', `/api/operator/users/${idle.uid}/suspend`)).status).toBe(200);
    const data = Buffer.alloc(1000, 7);
    const t = await transferOf(payer, [data, Buffer.alloc(24, 1)]);
    const issued = await call(
      null,
      'GET',
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.fileId}`,
    );
    expect((await fetchBytes(issued.body.url)).data.length).toBe(1000);
    // An old download is outside the 7 days.
    await query(
      ferry,
      `INSERT INTO downloads (transfer_id, kind, bytes, created_at) VALUES ($1, 'zip', 5000, now() - interval '8 days')`,
      [t.transferId],
    );
    const after = (await asOperator('GET', '/api/operator/figures')).body;
    expect(after).toEqual({
      accounts: before.accounts + 2,
      payingAccounts: before.payingAccounts + 1,
      suspendedAccounts: before.suspendedAccounts + 1,
      transfers: before.transfers + 1,
      bytesStored: before.bytesStored + 1024,
      bytesServed7Days: before.bytesServed7Days + 1000,
    });
    const listed = await asOperator('GET', `/api/operator/users/${payer.uid}`);
    expect(listed.body).toMatchObject({ planType: 'PREMIUM', planCode: 'PREMIUM', storageUsed: 1024 });
  });
});
