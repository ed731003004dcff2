import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * Team tokens (/dashboard/admin/api): made and revoked by the team's manager in the browser, acting as the team
 * within their scopes, named in the security log by their own name, and kept apart from personal tokens.
 */
let sink: SmtpSink;
let ferry: TestFerry;
let manager: Account;
let userManager: Account;
let member: Account;
let outsider: Account;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let n = 0;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@tokens.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  manager = await account('manager');
  userManager = await account('usermanager');
  member = await account('member');
  outsider = await account('outsider');
});
beforeEach(async () => {
  await query(ferry, 'UPDATE api_tokens SET revoked_at = now() WHERE revoked_at IS NULL');
  await query(ferry, 'DELETE FROM team_invitations');
  await query(ferry, 'DELETE FROM security_log');
  await query(
    ferry,
    `UPDATE users SET manager_id = NULL, permissions = '{}', plan_type = 'NONE', plan_code = NULL`,
  );
  await query(ferry, `UPDATE users SET plan_type = 'TEAM', plan_code = 'TEAM10' WHERE id = $1`, [
    manager.uid,
  ]);
  await query(ferry, `UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1`, [
    userManager.uid,
    manager.uid,
    ['USER_MANAGER'],
  ]);
  await query(ferry, `UPDATE users SET manager_id = $2 WHERE id = $1`, [member.uid, manager.uid]);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const call = (headers: Record<string, string>, method: string, path: string, json?: unknown) =>
  api(ferry.baseUrl, path, { method, headers, ...(json !== undefined ? { json } : {}) });
const tokensOf = (team: Account) => `/api/team/${team.uid}/tokens`;
const newTeamToken = async (name: string, scopes?: string[]) => {
  const res = await call(manager.bearer, 'POST', tokensOf(manager), scopes ? { name, scopes } : { name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; token: string; name: string; scopes: string[]; prefix: string };
};

describe('team tokens', () => {
  it('the manager makes one, shown once, listed with the team and not with their personal tokens', async () => {
    const created = await newTeamToken('nightly export', ['transfers:read', 'admin']);
    expect(created.token).toMatch(/^fry_/);
    expect(created.token.startsWith(created.prefix)).toBe(true);
    expect(created.scopes).toEqual(['transfers:read', 'admin']);
    const listed = await call(manager.bearer, 'GET', tokensOf(manager));
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      expect.objectContaining({ id: created.id, name: 'nightly export', lastUsedAt: null }),
    ]);
    expect(JSON.stringify(listed.body)).not.toContain(created.token);
    const personal = await call(manager.bearer, 'GET', '/api/auth/tokens');
    expect(personal.body).toEqual([]);
    // Stored hashed: the secret is nowhere in the table.
    const stored = await query<{ token_hash: string; team: boolean; created_by: string }>(
      ferry,
      'SELECT token_hash, team, created_by FROM api_tokens WHERE id = $1',
      [created.id],
    );
    expect(stored[0]).toMatchObject({ team: true, created_by: manager.uid });
    expect(stored[0]!.token_hash).not.toContain(created.token.slice(4));
  });

  it('acts as the team within its scopes, and the security log names the token', async () => {
    const created = await newTeamToken('provisioning', ['transfers:read', 'transfers:write', 'admin']);
    const members = await call(bearer(created.token), 'GET', `/api/user/teams/${manager.uid}/members`);
    expect(members.status, JSON.stringify(members.body)).toBe(200);
    const invited = await call(bearer(created.token), 'POST', `/api/user/teams/${manager.uid}/invitations`, {
      emails: [`new-${process.pid}@tokens.example`],
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(200);
    const transfer = await call(bearer(created.token), 'POST', '/api/transfer/transfers', {
      type: 'S2',
      files: [{ name: 'report.csv', size: 10 }],
      expiresInDays: 1,
    });
    expect(transfer.status, JSON.stringify(transfer.body)).toBe(201);
    const owner = await query<{ owner_id: string }>(ferry, 'SELECT owner_id FROM transfers WHERE id = $1', [
      transfer.body.transferId,
    ]);
    expect(owner[0]!.owner_id).toBe(manager.uid);
    const rows = await query<{ action: string; actor_label: string; token_id: string | null }>(
      ferry,
      `SELECT action, actor_label, token_id FROM security_log WHERE team_id = $1 ORDER BY id`,
      [manager.uid],
    );
    const byAction = new Map(rows.map((r) => [r.action, r]));
    expect(byAction.get('api-key-created')!.actor_label).toBe(manager.email);
    expect(byAction.get('api-key-used')).toMatchObject({ actor_label: 'provisioning', token_id: created.id });
    expect(byAction.get('transfer-created')).toMatchObject({
      actor_label: 'provisioning',
      token_id: created.id,
    });
    // The CLI's log view shows the same actor.
    const logs = await call(
      manager.bearer,
      'GET',
      `/api/team/${manager.uid}/security-logs?action=transfer-created`,
    );
    expect(logs.status, JSON.stringify(logs.body)).toBe(200);
    expect(JSON.stringify(logs.body)).toContain('"provisioning"');
  });

  it('a read-only team token cannot change the team', async () => {
    const created = await newTeamToken('reader', ['transfers:read']);
    const invited = await call(bearer(created.token), 'POST', `/api/user/teams/${manager.uid}/invitations`, {
      emails: [`x-${process.pid}@tokens.example`],
    });
    expect(invited.status).toBe(403);
    expect(invited.body.details).toMatchObject({ reason: 'API_TOKEN_SCOPE', scope: 'admin' });
  });

  it('no token makes, lists or revokes team tokens', async () => {
    const team = await newTeamToken('admin bot', ['admin', 'transfers:read', 'transfers:write', 'receive']);
    const personal = await call(manager.bearer, 'POST', '/api/auth/tokens', {
      name: 'mine',
      scopes: ['admin'],
    });
    expect(personal.status).toBe(201);
    for (const token of [team.token, personal.body.token as string]) {
      for (const [method, path, json] of [
        ['POST', tokensOf(manager), { name: 'child' }],
        ['GET', tokensOf(manager), undefined],
        ['DELETE', `${tokensOf(manager)}/${team.id}`, undefined],
      ] as const) {
        const res = await call(bearer(token), method, path, json);
        expect(res.status, `${method} ${path}`).toBe(403);
        expect(res.body.details.reason).toBe('API_TOKEN_NOT_ALLOWED');
      }
    }
  });

  it('members, other accounts and free managers are refused', async () => {
    for (const who of [userManager, member]) {
      expect((await call(who.bearer, 'GET', tokensOf(manager))).status).toBe(403);
      expect((await call(who.bearer, 'POST', tokensOf(manager), { name: 'x' })).status).toBe(403);
    }
    expect((await call(outsider.bearer, 'GET', tokensOf(manager))).status).toBe(404);
    expect((await call(outsider.bearer, 'POST', tokensOf(manager), { name: 'x' })).status).toBe(404);
    expect((await call({}, 'GET', tokensOf(manager))).status).toBe(401);
    // An account without a team plan has no team to make tokens for.
    expect((await call(outsider.bearer, 'POST', tokensOf(outsider), { name: 'x' })).status).toBe(404);
    expect((await call(manager.bearer, 'POST', tokensOf(manager), { name: '' })).status).toBe(400);
  });

  it('revoking ends the token at once, is logged, and is not possible as a personal token', async () => {
    const created = await newTeamToken('temporary');
    expect((await call(bearer(created.token), 'GET', '/api/auth/me')).status).toBe(200);
    expect((await call(manager.bearer, 'DELETE', `/api/auth/tokens/${created.id}`)).status).toBe(404);
    expect((await call(bearer(created.token), 'GET', '/api/auth/me')).status).toBe(200);
    expect((await call(manager.bearer, 'DELETE', `${tokensOf(manager)}/${created.id}`)).status).toBe(204);
    expect((await call(bearer(created.token), 'GET', '/api/auth/me')).status).toBe(401);
    expect((await call(manager.bearer, 'DELETE', `${tokensOf(manager)}/${created.id}`)).status).toBe(404);
    expect((await call(manager.bearer, 'GET', tokensOf(manager))).body).toEqual([]);
    const rows = await query<{ action: string; target: string; details: Record<string, unknown> }>(
      ferry,
      `SELECT action, target, details FROM security_log WHERE team_id = $1 AND action = 'api-key-revoked'`,
      [manager.uid],
    );
    expect(rows).toEqual([
      expect.objectContaining({ target: 'temporary', details: { tokenId: created.id, team: true } }),
    ]);
  });
});
