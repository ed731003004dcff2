import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * The team security log (issue 20 item 4): one entry per action, written where the action happens; the list,
 * its filters and search, the CSV and JSON export, and the retention with its purge.
 */
let sink: SmtpSink;
let ferry: TestFerry;
/** The clock of the retention purge; tests move it. */
let clockOffsetMs = 0;

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
    now: () => new Date(Date.now() + clockOffsetMs),
  });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

type Account = Awaited<ReturnType<typeof signedInAccount>>;
const PASSWORD = 'correct horse battery';
let n = 0;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@seclog.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

interface Row {
  id: string;
  team_id: string;
  actor_user_id: string | null;
  actor_label: string | null;
  action: string;
  ip: string | null;
  user_agent: string | null;
  target: string | null;
  details: Record<string, unknown>;
}
const entries = (teamId: string, action?: string) =>
  query<Row>(
    ferry,
    `SELECT * FROM security_log WHERE team_id = $1 AND ($2::text IS NULL OR action = $2) ORDER BY id`,
    [teamId, action ?? null],
  );
const total = async () =>
  Number((await query<{ n: string }>(ferry, 'SELECT count(*) AS n FROM security_log'))[0]!.n);

const signIn = (email: string, password: string, totp?: string) =>
  api(ferry.baseUrl, '/api/auth/signin', {
    method: 'POST',
    headers: { 'user-agent': 'SecLogTest/1.0' },
    json: { email, password, totp },
  });

/** A signed-in sender's transfer of one small file, uploaded and completed. */
async function send(who: Account): Promise<string> {
  const data = Buffer.from('security log test file');
  const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: who.bearer,
    json: { files: [{ name: 'a.txt', size: data.length }], expiresInDays: 1 },
  });
  expect(created.status).toBe(201);
  const tus = new TusTestClient(ferry.baseUrl, created.body.uploadToken);
  await tus.upload(created.body.transferId, created.body.files[0].id, data);
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.body.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.body.uploadToken },
    json: { files: [{ id: created.body.files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  return created.body.transferId;
}

describe('one entry per action', () => {
  it('a sign-in: IP, device and method', async () => {
    const who = await account('signin');
    const [first] = await entries(who.uid, 'sign-in');
    expect(await entries(who.uid, 'sign-in')).toHaveLength(1);
    expect(first).toMatchObject({
      actor_user_id: who.uid,
      actor_label: who.email,
      details: { method: 'password' },
    });
    expect(first!.ip).toMatch(/127\.0\.0\.1/);

    const idToken = (await signIn(who.email, PASSWORD)).body.idToken;
    const session = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
      headers: { 'id-token': idToken, 'user-agent': 'SecLogTest/1.0' },
    });
    expect(session.status).toBe(200);
    const after = await entries(who.uid, 'sign-in');
    expect(after).toHaveLength(2);
    expect(after[1]!.user_agent).toBe('SecLogTest/1.0');
  });

  it('a failed sign-in of an existing account, and none for an unknown address', async () => {
    const who = await account('failed');
    expect((await signIn(who.email, 'not the password')).status).toBe(401);
    const failed = await entries(who.uid, 'sign-in-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      actor_label: who.email,
      user_agent: 'SecLogTest/1.0',
      details: { method: 'password', reason: 'password' },
    });
    const before = await total();
    expect((await signIn(`nobody-${n}@seclog.example`, 'whatever it is')).status).toBe(401);
    expect(await total()).toBe(before);
  });

  it('the second factor: enabled, a wrong code, disabled', async () => {
    const who = await account('totp');
    const setup = await api(ferry.baseUrl, '/api/auth/totp/setup', { method: 'POST', headers: who.bearer });
    const totp = new TOTP({ secret: Secret.fromBase32(setup.body.secret), digits: 6, period: 30 });
    const enabled = await api(ferry.baseUrl, '/api/auth/totp/enable', {
      method: 'POST',
      headers: who.bearer,
      json: { code: totp.generate() },
    });
    expect(enabled.status).toBe(200);
    const on = await entries(who.uid, 'second-factor-enabled');
    expect(on).toHaveLength(1);
    expect(on[0]!.ip).toMatch(/127\.0\.0\.1/);

    expect((await signIn(who.email, PASSWORD, 'not-a-recovery-code')).status).toBe(401);
    const failed = await entries(who.uid, 'sign-in-failed');
    expect(failed).toHaveLength(1);
    expect(failed[0]!.details).toMatchObject({ reason: 'second-factor' });

    const disabled = await api(ferry.baseUrl, '/api/auth/totp/disable', {
      method: 'POST',
      headers: who.bearer,
      json: { password: PASSWORD },
    });
    expect(disabled.status).toBeLessThan(300);
    expect(await entries(who.uid, 'second-factor-disabled')).toHaveLength(1);
  });

  it('a password change and a password reset', async () => {
    const who = await account('password');
    const changed = await api(ferry.baseUrl, '/api/auth/password/change', {
      method: 'POST',
      headers: who.bearer,
      json: { currentPassword: PASSWORD, newPassword: 'another long passphrase' },
    });
    expect(changed.status).toBe(200);
    expect(await entries(who.uid, 'password-changed')).toHaveLength(1);

    await api(ferry.baseUrl, '/api/auth/password/forgot', { method: 'POST', json: { email: who.email } });
    const mail = await sink.waitFor(
      (m) => m.to.includes(who.email) && /reset-password/.test(m.parsed.text || ''),
    );
    const token = /\/reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text || '')?.[1];
    const reset = await api(ferry.baseUrl, '/api/auth/password/reset', {
      method: 'POST',
      json: { token, password: 'a third long passphrase' },
    });
    expect(reset.status).toBe(200);
    expect(await entries(who.uid, 'password-reset')).toHaveLength(1);
    expect(await entries(who.uid, 'password-changed')).toHaveLength(1);
  });

  it('sessions revoked: one from the list, then everywhere', async () => {
    const who = await account('sessions');
    const idToken = (await signIn(who.email, PASSWORD)).body.idToken;
    const other = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
      headers: { 'id-token': idToken },
    });
    expect(other.status).toBe(200);
    const list = await api(ferry.baseUrl, '/api/auth/sessions', { headers: who.bearer });
    const notCurrent = list.body.find((s: { current: boolean }) => !s.current);
    const revoked = await api(ferry.baseUrl, `/api/auth/sessions/${notCurrent.id}`, {
      method: 'DELETE',
      headers: who.bearer,
    });
    expect(revoked.status).toBeLessThan(300);
    let rows = await entries(who.uid, 'sessions-revoked');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ target: notCurrent.id, details: { scope: 'one' } });

    const out = await api(ferry.baseUrl, '/api/auth/auth/sign-out?revokeAllSessions=true', {
      headers: who.bearer,
    });
    expect(out.status).toBe(200);
    rows = await entries(who.uid, 'sessions-revoked');
    expect(rows).toHaveLength(2);
    expect(rows[1]!.details).toMatchObject({ scope: 'all' });
  });

  it("a transfer created, downloaded, disabled and deleted, in the owner's team", async () => {
    const manager = await account('owner-manager');
    const member = await account('owner-member');
    await query(ferry, 'UPDATE users SET manager_id = $2 WHERE id = $1', [member.uid, manager.uid]);
    const transferId = await send(member);
    const created = await entries(manager.uid, 'transfer-created');
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      actor_user_id: member.uid,
      actor_label: member.email,
      target: transferId,
    });

    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${transferId}&downloaderEmail=reader@elsewhere.example`,
    );
    expect(link.status).toBe(200);
    const downloaded = await entries(manager.uid, 'transfer-downloaded');
    expect(downloaded).toHaveLength(1);
    expect(downloaded[0]).toMatchObject({
      actor_user_id: null,
      actor_label: 'reader@elsewhere.example',
      target: transferId,
    });

    const disabled = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/disable`, {
      method: 'POST',
      headers: manager.bearer,
    });
    expect(disabled.status).toBe(200);
    const off = await entries(manager.uid, 'transfer-disabled');
    expect(off).toHaveLength(1);
    expect(off[0]).toMatchObject({ actor_user_id: manager.uid, target: transferId });

    const deleted = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}`, {
      method: 'DELETE',
      headers: member.bearer,
    });
    expect(deleted.status).toBe(204);
    expect(await entries(manager.uid, 'transfer-deleted')).toHaveLength(1);
  });
});

/** RFC 4180 read back: quoted cells, doubled quotes, CRLF line ends. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describe('reading the log', () => {
  let manager: Account;
  let userManager: Account;
  let plain: Account;
  let outsider: Account;
  const path = (suffix = '') => `/api/team/${manager.uid}/security-logs${suffix}`;
  const get = (who: Account | null, p: string) => api(ferry.baseUrl, p, { headers: who ? who.bearer : {} });

  beforeAll(async () => {
    manager = await account('reader-manager');
    userManager = await account('reader-um');
    plain = await account('reader-plain');
    outsider = await account('reader-outsider');
    await query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
      userManager.uid,
      manager.uid,
      ['USER_MANAGER'],
    ]);
    await query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
      plain.uid,
      manager.uid,
      ['TRANSFER_MANAGER'],
    ]);
    await query(
      ferry,
      `INSERT INTO security_log (team_id, at, actor_user_id, actor_label, action, ip, target, details) VALUES
       ($1, '2026-01-10T12:00:00Z', $2, $3, 'transfer-created', '10.0.0.7', 'T-january', '{}'),
       ($1, '2026-02-10T12:00:00Z', NULL, '=HYPERLINK("http://evil.example")', 'transfer-downloaded', '10.0.0.8',
            'T-february, "quoted"', '{"kind":"zip"}'),
       ($1, '2026-03-10T12:00:00Z', NULL, 'x@elsewhere.example', 'sign-in-failed', '192.168.1.9', '+cmd|line', '{}')`,
      [manager.uid, plain.uid, plain.email],
    );
  });

  it('is for the manager and USER_MANAGER members; others learn nothing', async () => {
    expect((await get(manager, path())).status).toBe(200);
    expect((await get(userManager, path())).status).toBe(200);
    expect((await get(plain, path())).status).toBe(404);
    expect((await get(outsider, path())).status).toBe(404);
    expect((await get(null, path())).status).toBe(401);
    for (const who of [plain, outsider]) {
      expect((await get(who, path('/export?format=csv'))).status).toBe(404);
      expect((await get(who, `/api/team/${manager.uid}/security-log-settings`)).status).toBe(404);
    }
  });

  it('filters by member, action and dates, searches actor, target and IP, and pages', async () => {
    const all = (await get(manager, path())).body.entries;
    expect(all.length).toBeGreaterThanOrEqual(4); // the three above and the manager's sign-in
    expect(
      (await get(manager, path(`?member=${plain.uid}`))).body.entries.map(
        (e: { target: string }) => e.target,
      ),
    ).toEqual(['T-january']);
    const failed = (await get(manager, path('?action=sign-in-failed'))).body.entries;
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ actor: 'x@elsewhere.example', ip: '192.168.1.9' });
    const february = (await get(manager, path('?from=2026-02-01&to=2026-02-10'))).body.entries;
    expect(february.map((e: { action: string }) => e.action)).toEqual(['transfer-downloaded']);
    expect((await get(manager, path('?q=192.168'))).body.entries).toHaveLength(1);
    expect((await get(manager, path('?q=t-JANUARY'))).body.entries).toHaveLength(1);
    expect((await get(manager, path('?q=hyperlink'))).body.entries).toHaveLength(1);
    expect((await get(manager, path('?q=%25'))).body.entries).toHaveLength(0);
    expect((await get(manager, path('?action=no-such-action'))).status).toBe(400);

    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { entries: Array<{ id: number }>; nextCursor: string | null } } = await get(
        manager,
        path(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`),
      );
      expect(page.body.entries.length).toBeLessThanOrEqual(1);
      seen.push(...page.body.entries.map((e) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.map((e: { id: number }) => e.id));
  });

  it('exports CSV (RFC 4180, no formulas) and JSON, with the same filters', async () => {
    const csv = await fetch(`${ferry.baseUrl}${path('/export?format=csv&from=2026-01-01&to=2026-03-31')}`, {
      headers: manager.bearer,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(csv.headers.get('content-disposition')).toMatch(/^attachment;.*security-log-.*\.csv/);
    const rows = parseCsv(await csv.text());
    expect(rows[0]).toEqual(['at', 'actor', 'action', 'ip', 'userAgent', 'target', 'details']);
    expect(rows).toHaveLength(4);
    const byAction = new Map(rows.slice(1).map((r) => [r[2], r]));
    expect(byAction.get('transfer-downloaded')![1]).toBe(`'=HYPERLINK("http://evil.example")`);
    expect(byAction.get('transfer-downloaded')![5]).toBe('T-february, "quoted"');
    expect(byAction.get('transfer-downloaded')![6]).toBe('{"kind":"zip"}');
    expect(byAction.get('sign-in-failed')![5]).toBe(`'+cmd|line`);
    expect(byAction.get('transfer-created')![1]).toBe(plain.email);

    const json = await get(manager, path('/export?format=json&action=transfer-created&from=2026-01-01'));
    expect(json.status).toBe(200);
    expect(json.headers.get('content-disposition')).toMatch(/\.json/);
    expect(json.body).toHaveLength(1);
    expect(json.body[0]).toMatchObject({
      action: 'transfer-created',
      actor: plain.email,
      target: 'T-january',
    });
  });

  it('keeps entries for the retention the team chose, then the purge deletes them', async () => {
    const settings = `/api/team/${manager.uid}/security-log-settings`;
    expect((await get(userManager, settings)).body).toEqual({ retentionDays: 365 });
    const put = (days: number) =>
      api(ferry.baseUrl, settings, { method: 'PUT', headers: manager.bearer, json: { retentionDays: days } });
    expect((await put(29)).status).toBe(400);
    expect((await put(3651)).status).toBe(400);
    expect((await put(30)).body).toEqual({ retentionDays: 30 });
    expect(await entries(manager.uid, 'policy-changed')).toHaveLength(1);

    const otherTeam = await account('retention-other');
    const mine = (await entries(manager.uid)).length;
    expect(mine).toBeGreaterThan(3);
    clockOffsetMs = 31 * 86_400_000; // a month on: the entries written today are past 30 days
    try {
      const purged = await ferry.securityLogs.purge();
      expect(purged).toBeGreaterThanOrEqual(mine);
    } finally {
      clockOffsetMs = 0;
    }
    expect(await entries(manager.uid)).toHaveLength(0);
    // Another team keeps its default 365 days.
    expect(await entries(otherTeam.uid, 'sign-in')).toHaveLength(1);
  });
});
