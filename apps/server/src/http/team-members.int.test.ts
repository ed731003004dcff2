import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * Team members (issue "Teams a manager runs"): invitations with seats held under racing calls, the accept call for
 * new and existing accounts, member permissions, disable/enable/remove, the security log, and who may do what.
 */
let sink: SmtpSink;
let ferry: TestFerry;
let manager: Account;
let otherManager: Account;
let helper: Account;
let plain: Account;
let outsider: Account;
let paying: Account;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let n = 0;
const address = (label: string) => `${label}-${process.pid}-${++n}@members.example`;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, address(label), (to) => sink.waitFor((m) => m.to.includes(to)));

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  manager = await account('manager');
  otherManager = await account('other');
  helper = await account('helper');
  plain = await account('plain');
  outsider = await account('outsider');
  paying = await account('paying');
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM team_invitations');
  await query(ferry, 'DELETE FROM user_groups');
  await query(ferry, 'DELETE FROM security_log');
  await query(
    ferry,
    `UPDATE users SET manager_id = NULL, permissions = '{}', team_disabled_at = NULL, plan_type = 'NONE', plan_code = NULL`,
  );
  await teamPlan(manager, 'TEAM25');
  await teamPlan(otherManager, 'TEAM');
  await join(helper, manager, ['USER_MANAGER']);
  await join(plain, manager, ['TRANSFER_MANAGER']);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const teamPlan = (who: Account, code: string) =>
  query(ferry, `UPDATE users SET plan_type = $2, plan_code = $3 WHERE id = $1`, [
    who.uid,
    code === 'CUSTOM' ? 'ENTERPRISE' : 'TEAM',
    code,
  ]);
const join = (member: Account, team: Account, permissions: string[]) =>
  query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
    member.uid,
    team.uid,
    permissions,
  ]);
const call = (who: Account | null, method: string, path: string, json?: unknown) =>
  api(ferry.baseUrl, path, {
    method,
    headers: who ? who.bearer : {},
    ...(json !== undefined ? { json } : {}),
  });
const invite = (who: Account | null, body: unknown, team = manager) =>
  call(who, 'POST', `/api/user/teams/${team.uid}/invitations`, body);
const tokenMailedTo = async (to: string) => {
  const mail = await sink.waitFor((m) => m.to.includes(to) && /\/join\?token=/.test(m.parsed.text || ''));
  return { token: /\/join\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text || '')![1]!, mail };
};
const sessionOf = async (idToken: string) => {
  const session = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
    headers: { 'id-token': idToken },
  });
  expect(session.status).toBe(200);
  return { authorization: `Bearer ${session.body.sessionCookie}` };
};
const logOf = async () =>
  query<{ action: string; actor_user_id: string; target: string; team_id: string }>(
    ferry,
    'SELECT action, actor_user_id, target, team_id FROM security_log ORDER BY id',
  );

describe('invitations', () => {
  it('invites one or many addresses, one result each, and mails a one-time /join link', async () => {
    const a = address('a');
    const b = address('b');
    const res = await invite(manager, {
      emails: [a, b, 'not-an-address', plain.email],
      permissions: ['BILLING'],
    });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { result: string }) => r.result)).toEqual([
      'invited',
      'invited',
      'invalid',
      'already-member',
    ]);
    const { mail } = await tokenMailedTo(a);
    expect(mail.parsed.subject).toContain(manager.email);

    const list = await call(manager, 'GET', `/api/user/teams/${manager.uid}/members`);
    expect(list.status).toBe(200);
    const invited = list.body.members.filter((m: { status: string }) => m.status === 'invited');
    expect(invited.map((m: { email: string }) => m.email).sort()).toEqual([a, b].sort());
    expect(invited[0].permissions).toEqual(['BILLING']);
    // The manager, two members, two invitations.
    expect(list.body.seats).toEqual({ licences: 25, used: 5 });
    expect(
      (await logOf())
        .filter((e) => e.action === 'member-invited')
        .map((e) => e.target)
        .sort(),
    ).toEqual([a, b].sort());
    const invitedLog = await query<{ actor_user_id: string; ip: string | null }>(
      ferry,
      `SELECT actor_user_id, ip FROM security_log WHERE action = 'member-invited'`,
    );
    expect(invitedLog.every((e) => e.actor_user_id === manager.uid && e.ip)).toBe(true);
  });

  it("mails the invitation in the inviter's language", async () => {
    await query(ferry, `UPDATE users SET locale = 'fr' WHERE id = $1`, [helper.uid]);
    const email = address('fr');
    expect((await invite(helper, { emails: [email] })).body.results[0].result).toBe('invited');
    const { mail } = await tokenMailedTo(email);
    expect(mail.parsed.subject).toBe(`${helper.email} vous invite dans son équipe sur Ferry`);
    await query(ferry, `UPDATE users SET locale = NULL WHERE id = $1`, [helper.uid]);
  });

  it('imports a CSV with a header and bad rows, one result per row', async () => {
    const good = address('csv');
    const csv = [
      'email,permissions',
      `${good},USER_MANAGER;BILLING`,
      'broken@@example',
      `${address('csv')},NOT_A_PERMISSION`,
      '__OTHER__',
      '',
      `"${helper.email}",`,
    ].join('\n');
    await join(outsider, otherManager, []);
    const res = await invite(manager, { csv: csv.replace('__OTHER__', outsider.email) });
    expect(res.status).toBe(200);
    expect(res.body.results.map((r: { line: number; result: string }) => [r.line, r.result])).toEqual([
      [2, 'invited'],
      [3, 'invalid'],
      [4, 'invalid'],
      [5, 'ALREADY_IN_TEAM'],
      [7, 'already-member'],
    ]);
    const list = await call(manager, 'GET', `/api/user/teams/${manager.uid}/members`);
    const row = list.body.members.find((m: { email: string }) => m.email === good);
    expect(row.permissions.sort()).toEqual(['BILLING', 'USER_MANAGER']);
  });

  it('holds the seats under 10 racing invitations: exactly the free seats are taken', async () => {
    await teamPlan(manager, 'TEAM'); // 5 seats: the manager and two members hold 3
    const addresses = Array.from({ length: 10 }, () => address('race'));
    const answers = await Promise.all(addresses.map((a) => invite(manager, { emails: [a] })));
    const results = answers.map((r) => r.body.results[0].result);
    expect(results.filter((r) => r === 'invited')).toHaveLength(2);
    expect(results.filter((r) => r === 'MAX_LICENCES_REACHED')).toHaveLength(8);
    expect((await call(manager, 'GET', `/api/user/teams/${manager.uid}/members`)).body.seats).toEqual({
      licences: 5,
      used: 5,
    });

    // Withdrawing an invitation frees its seat.
    const list = await call(manager, 'GET', `/api/user/teams/${manager.uid}/members`);
    const pending = list.body.members.find((m: { status: string }) => m.status === 'invited');
    const withdrawn = await call(
      manager,
      'DELETE',
      `/api/user/teams/${manager.uid}/invitations/${pending.invitationId}`,
    );
    expect(withdrawn.status).toBe(204);
    expect((await invite(manager, { emails: [address('after')] })).body.results[0].result).toBe('invited');
  });

  it("holds invitations and joins to the team's allowed e-mail domains", async () => {
    const policy = (domains: string[]) =>
      call(manager, 'PUT', `/api/team/${manager.uid}/authentication-policy`, {
        allowedEmailDomains: domains,
        requireSecondFactor: false,
        signInMethods: null,
      });
    const inside = address('inside');
    try {
      expect((await policy(['members.example'])).status).toBe(200);
      const res = await invite(manager, { emails: [inside, 'someone@elsewhere.example'] });
      expect(res.body.results).toEqual([
        expect.objectContaining({ email: inside, result: 'invited' }),
        { email: 'someone@elsewhere.example', result: 'invalid', reason: 'domain' },
      ]);
      // Narrowed after the invitation went out: the join is refused.
      const { token } = await tokenMailedTo(inside);
      expect((await policy(['policy-only.example'])).status).toBe(200);
      const refused = await call(null, 'POST', '/api/user/team-invitations/accept', {
        token,
        password: 'a long enough password',
      });
      expect(refused.status).toBe(403);
      expect(refused.body.codes).toEqual(['EMAIL_DOMAIN_NOT_ALLOWED']);
    } finally {
      await policy([]);
    }
  });

  it('refuses a member of another team with ALREADY_IN_TEAM', async () => {
    await join(outsider, otherManager, []);
    const res = await invite(manager, { emails: [outsider.email] });
    expect(res.body.results[0]).toMatchObject({ email: outsider.email, result: 'ALREADY_IN_TEAM' });
  });
});

describe('POST /user/team-invitations/accept', () => {
  it('creates a verified account for a new address (a password is required) and signs it in', async () => {
    const email = address('new');
    await invite(manager, { emails: [email], permissions: ['TRANSFER_MANAGER'] });
    const { token } = await tokenMailedTo(email);

    const view = await call(null, 'GET', `/api/user/team-invitations/${token}`);
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({
      email,
      teamId: manager.uid,
      inviterEmail: manager.email,
      accountExists: false,
    });

    const noPassword = await call(null, 'POST', '/api/user/team-invitations/accept', { token });
    expect(noPassword.status).toBe(400);
    const accepted = await call(null, 'POST', '/api/user/team-invitations/accept', {
      token,
      password: 'a long enough password',
      firstname: 'Nina',
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.expiresAt).toEqual(expect.any(String));
    const me = await api(ferry.baseUrl, '/api/auth/me', { headers: await sessionOf(accepted.body.idToken) });
    expect(me.body.managerId).toBe(manager.uid);
    expect(me.body.authorization.permissions).toEqual(['TRANSFER_MANAGER']);
    // The password works for a sign-in.
    const signIn = await call(null, 'POST', '/api/auth/signin', {
      email,
      password: 'a long enough password',
    });
    expect(signIn.status).toBe(200);

    const again = await call(null, 'POST', '/api/user/team-invitations/accept', {
      token,
      password: 'a long enough password',
    });
    expect(again.status).toBe(410);
    expect(again.body.codes).toEqual(['INVITATION_NOT_VALID']);
    expect((await logOf()).map((e) => e.action)).toContain('member-joined');
  });

  it('attaches an existing free account with its transfers once signed in as it; a paying one keeps its plan', async () => {
    await query(ferry, `UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE id = $1`, [
      paying.uid,
    ]);
    const made = await call(paying, 'POST', '/api/transfer/transfers', {
      files: [{ name: 'a.txt', size: 1 }],
      expiresInDays: 1,
    });
    expect(made.status).toBe(201);
    await invite(manager, { emails: [paying.email] });
    const { token } = await tokenMailedTo(paying.email);

    expect((await call(null, 'POST', '/api/user/team-invitations/accept', { token })).status).toBe(401);
    expect((await call(outsider, 'POST', '/api/user/team-invitations/accept', { token })).status).toBe(401);
    const accepted = await call(paying, 'POST', '/api/user/team-invitations/accept', { token });
    expect(accepted.status).toBe(200);
    const rows = await query(ferry, 'SELECT manager_id, plan_code FROM users WHERE id = $1', [paying.uid]);
    expect(rows[0]).toEqual({ manager_id: manager.uid, plan_code: 'PREMIUM' });
    const owned = await query(ferry, 'SELECT count(*)::int AS n FROM transfers WHERE owner_id = $1', [
      paying.uid,
    ]);
    expect(owned[0]!.n).toBe(1);
  });

  it('answers an expired or withdrawn invitation with 410 and an unknown one with 404', async () => {
    const email = address('late');
    await invite(manager, { emails: [email] });
    const { token } = await tokenMailedTo(email);
    await query(ferry, `UPDATE team_invitations SET expires_at = now() - interval '1 minute'`);
    const expired = await call(null, 'POST', '/api/user/team-invitations/accept', {
      token,
      password: 'x'.repeat(12),
    });
    expect(expired.status).toBe(410);
    expect(expired.body.details).toEqual({ reason: 'expired' });
    // An expired invitation holds no seat.
    expect((await call(manager, 'GET', `/api/user/teams/${manager.uid}/members`)).body.seats.used).toBe(3);
    const unknown = await call(null, 'POST', '/api/user/team-invitations/accept', { token: 'nope' });
    expect(unknown.status).toBe(404);
  });
});

describe('members', () => {
  it('changes permissions, disables (sessions end, no sign-in), re-enables and removes a member', async () => {
    const email = address('m');
    await invite(manager, { emails: [email] });
    const { token } = await tokenMailedTo(email);
    const password = 'member password 1';
    const accepted = await call(null, 'POST', '/api/user/team-invitations/accept', { token, password });
    const bearer = await sessionOf(accepted.body.idToken);
    const uid = (await api(ferry.baseUrl, '/api/auth/me', { headers: bearer })).body.user.uid as string;
    const path = `/api/user/teams/${manager.uid}/members/${uid}`;
    await query(
      ferry,
      `INSERT INTO inboxes (id, owner_id, slug, title, link_mode) VALUES ($1, $2, $1, 'in', 'S1')`,
      [`inbox-${uid}`, uid],
    );

    const changed = await call(helper, 'PATCH', path, { permissions: ['BILLING'] });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ uid, status: 'active', permissions: ['BILLING'] });

    const disabled = await call(manager, 'PATCH', path, { disabled: true });
    expect(disabled.body.status).toBe('disabled');
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: bearer })).status).toBe(401);
    const refused = await call(null, 'POST', '/api/auth/signin', { email, password });
    expect(refused.body.codes).toEqual(['MEMBER_DISABLED']);

    const enabled = await call(manager, 'PATCH', path, { disabled: false });
    expect(enabled.body.status).toBe('active');
    expect((await call(null, 'POST', '/api/auth/signin', { email, password })).status).toBe(200);

    expect((await call(manager, 'DELETE', path)).status).toBe(204);
    const rows = await query(ferry, 'SELECT manager_id, permissions FROM users WHERE id = $1', [uid]);
    expect(rows[0]).toEqual({ manager_id: null, permissions: [] });
    const inbox = await query(ferry, 'SELECT owner_id FROM inboxes WHERE id = $1', [`inbox-${uid}`]);
    expect(inbox[0]!.owner_id).toBe(manager.uid);

    const log = await logOf();
    expect(log.filter((e) => e.target === email).map((e) => e.action)).toEqual([
      'member-invited',
      'member-joined',
      'permissions-changed',
      'member-disabled',
      'member-enabled',
      'member-removed',
    ]);
    expect(log.every((e) => e.team_id === manager.uid)).toBe(true);
  });

  it('keeps the manager in their team', async () => {
    const path = `/api/user/teams/${manager.uid}/members/${manager.uid}`;
    expect((await call(manager, 'DELETE', path)).status).toBe(403);
    expect((await call(manager, 'PATCH', path, { disabled: true })).status).toBe(403);
  });
});

describe('user groups', () => {
  it("holds a group's members to its policy overrides on their transfers; deleting the group lifts them", async () => {
    const groups = `/api/user/teams/${manager.uid}/groups`;
    const send = async () => {
      const res = await call(plain, 'POST', '/api/transfer/transfers', {
        files: [{ name: 'a.txt', size: 1 }],
        expiresInDays: 1,
        maxDownloads: 3,
      });
      return [res.status, res.body.details?.setting ?? null];
    };
    expect(await send()).toEqual([201, null]);

    const created = await call(helper, 'POST', groups, {
      name: 'Interns',
      overrides: { downloadLimitOpt: false },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Interns',
      overrides: { downloadLimitOpt: false },
      memberIds: [],
    });
    expect((await call(manager, 'POST', groups, { name: 'interns' })).status).toBe(409);
    const id = created.body.id as string;

    const moved = await call(manager, 'PATCH', `/api/user/teams/${manager.uid}/members/${plain.uid}`, {
      groupId: id,
    });
    expect(moved.body.groupId).toBe(id);
    expect(await send()).toEqual([403, 'downloadLimitOpt']);
    // The other members are not in the group.
    const other = await call(helper, 'POST', '/api/transfer/transfers', {
      files: [{ name: 'a.txt', size: 1 }],
      expiresInDays: 1,
      maxDownloads: 3,
    });
    expect(other.status).toBe(201);

    const renamed = await call(manager, 'PATCH', `${groups}/${id}`, { name: 'Trainees' });
    expect(renamed.body).toMatchObject({ name: 'Trainees', memberIds: [plain.uid] });
    const listed = await call(manager, 'GET', groups);
    expect(listed.body.groups.map((g: { name: string }) => g.name)).toEqual(['Trainees']);
    // Another team's group cannot be joined.
    const foreign = await call(otherManager, 'POST', `/api/user/teams/${otherManager.uid}/groups`, {
      name: 'X',
    });
    expect(
      (
        await call(manager, 'PATCH', `/api/user/teams/${manager.uid}/members/${plain.uid}`, {
          groupId: foreign.body.id,
        })
      ).status,
    ).toBe(404);

    expect((await call(manager, 'DELETE', `${groups}/${id}`)).status).toBe(204);
    expect(await send()).toEqual([201, null]);
    expect((await logOf()).filter((e) => e.action === 'policy-changed').map((e) => e.target)).toEqual([
      'Interns',
      'X',
    ]);
  });
});

describe('authorization of every team-member route', () => {
  it('lets the manager and USER_MANAGER members in; a plain member is 403, another team 404, anonymous 401', async () => {
    const team = manager.uid;
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/user/teams/${team}/members`],
      ['POST', `/api/user/teams/${team}/invitations`, { emails: ['x'] }],
      ['DELETE', `/api/user/teams/${team}/invitations/none`],
      ['PATCH', `/api/user/teams/${team}/members/${plain.uid}`, { permissions: ['TRANSFER_MANAGER'] }],
      ['DELETE', `/api/user/teams/${team}/members/none`],
      ['GET', `/api/user/teams/${team}/groups`],
      ['POST', `/api/user/teams/${team}/groups`, { name: 'Matrix' }],
      ['PATCH', `/api/user/teams/${team}/groups/none`, { name: 'G' }],
      ['DELETE', `/api/user/teams/${team}/groups/none`],
    ];
    const expected: Array<[Account | null, number[]]> = [
      [manager, [200, 200, 404, 200, 404, 200, 201, 404, 404]],
      // The helper passes the check: the group made just before holds the name.
      [helper, [200, 200, 404, 200, 404, 200, 409, 404, 404]],
      [plain, [403, 403, 403, 403, 403, 403, 403, 403, 403]],
      [otherManager, [404, 404, 404, 404, 404, 404, 404, 404, 404]],
      [null, [401, 401, 401, 401, 401, 401, 401, 401, 401]],
    ];
    for (const [who, statuses] of expected) {
      const got = [];
      for (const [method, path, body] of routes) got.push((await call(who, method, path, body)).status);
      expect([who?.email ?? 'anonymous', got]).toEqual([who?.email ?? 'anonymous', statuses]);
    }
  });

  it('needs a team plan', async () => {
    await query(ferry, `UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE id = $1`, [
      manager.uid,
    ]);
    expect((await invite(manager, { emails: [address('p')] })).status).toBe(403);
  });
});
