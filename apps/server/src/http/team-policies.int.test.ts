import { DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, type Permission, type UploaderSettings } from '@ferry/core';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * A team's policies (issue 20 item 2): the uploader settings a manager or a transfer manager sets for the team,
 * enforced for members on the server flag by flag, and the authentication policy (allowed domains, a required
 * second factor, allowed sign-in methods), each change a policy-changed security event.
 */
let sink: SmtpSink;
let ferry: TestFerry;
let manager: Account;
let tm: Account;
let um: Account;
let plain: Account;
let outsider: Account;
const PASSWORD = 'correct horse battery';

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let n = 0;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@policy.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
const join = (member: Account, permissions: Permission[]) =>
  query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
    member.uid,
    manager.uid,
    permissions,
  ]);

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  manager = await account('manager');
  tm = await account('tm');
  um = await account('um');
  plain = await account('plain');
  outsider = await account('outsider');
  await join(tm, ['TRANSFER_MANAGER']);
  await join(um, ['USER_MANAGER']);
  await join(plain, ['BILLING']);
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM transfers');
  await query(ferry, 'DELETE FROM security_log');
  await query(ferry, `UPDATE users SET plan_type = 'NONE', settings = '{}', limit_settings = '{}'`);
  await query(ferry, `UPDATE users SET plan_type = 'TEAM' WHERE id = $1`, [manager.uid]);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

const putSettings = (who: Account | null, settings: UploaderSettings, id = manager.uid) =>
  api(ferry.baseUrl, `/api/user/users/${id}/uploader-settings`, {
    method: 'PUT',
    headers: who ? who.bearer : {},
    json: settings,
  });
const createTransfer = (who: Account, body: Record<string, unknown>) =>
  api(ferry.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: who.bearer,
    json: { type: 'S2', files: [{ name: 'a.txt', size: 1 }], expiresInDays: 1, ...body },
  });
const securityLog = (action: string) =>
  query<{ team_id: string; actor_user_id: string; target: string; details: Record<string, unknown> }>(
    ferry,
    'SELECT team_id, actor_user_id, target, details FROM security_log WHERE action = $1 ORDER BY id',
    [action],
  );

describe('PUT /user/users/{managerId}/uploader-settings', () => {
  it('is for the manager and members with TRANSFER_MANAGER; each change is a policy-changed event', async () => {
    const chosen = { ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, allowS1: false };
    expect((await putSettings(null, chosen)).status).toBe(401);
    expect((await putSettings(outsider, chosen)).status).toBe(404);
    expect((await putSettings(um, chosen)).body).toMatchObject({ status: 403, codes: ['FORBIDDEN'] });
    expect((await putSettings(plain, chosen)).status).toBe(403);
    expect((await securityLog('policy-changed')).length).toBe(0);

    const byManager = await putSettings(manager, chosen);
    expect(byManager).toMatchObject({ status: 200, body: chosen });
    const byTm = await putSettings(tm, {
      ...chosen,
      requirePassword: true,
      sendAllowedExtensions: ['pdf', '.DOCX'],
    });
    expect(byTm.status).toBe(200);
    expect(byTm.body.sendAllowedExtensions).toEqual(['pdf', '.DOCX']);
    // The same settings again change nothing and log nothing.
    expect((await putSettings(tm, byTm.body)).status).toBe(200);

    const events = await securityLog('policy-changed');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      team_id: manager.uid,
      actor_user_id: manager.uid,
      target: 'uploader-settings',
      details: { policy: 'uploader-settings', changed: expect.arrayContaining(['allowS1']) },
    });
    expect(events[1]).toMatchObject({
      actor_user_id: tm.uid,
      details: { changed: ['requirePassword', 'sendAllowedExtensions'] },
    });
    const team = await api(ferry.baseUrl, `/api/user/teams/${manager.uid}/uploader-settings`, {
      headers: plain.bearer,
    });
    expect(team.body.uploaderSettings).toMatchObject({ allowS1: false, requirePassword: true });
  });
});

describe("members are held to each flag of the team's uploader settings on the server", () => {
  const base = DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS;
  const cases: Array<{
    flag: keyof UploaderSettings;
    settings: Partial<UploaderSettings>;
    refused: Record<string, unknown>;
    allowed: Record<string, unknown>;
  }> = [
    {
      flag: 'allowS1',
      settings: { allowS1: false },
      refused: { type: 'S1', recipients: ['r@policy.example'] },
      allowed: { type: 'S2' },
    },
    {
      flag: 'allowS2',
      settings: { allowS2: false },
      refused: { type: 'S2' },
      allowed: { type: 'S1', recipients: ['r@policy.example'] },
    },
    {
      flag: 'requirePassword',
      settings: { requirePassword: true },
      refused: {},
      allowed: { password: 'Secret-pass-1' },
    },
    {
      flag: 'passwordOpt',
      settings: { passwordOpt: false },
      refused: { password: 'Secret-pass-1' },
      allowed: {},
    },
    {
      flag: 'downloadLimitOpt',
      settings: { downloadLimitOpt: false },
      refused: { maxDownloads: 3 },
      allowed: {},
    },
    {
      flag: 'filePreviewOpt',
      settings: { filePreviewOpt: false },
      refused: { allowPreview: false },
      allowed: {},
    },
    {
      flag: 'sendAllowedExtensions',
      settings: { sendAllowedExtensions: ['pdf'] },
      refused: { files: [{ name: 'a.txt', size: 1 }] },
      allowed: { files: [{ name: 'a.pdf', size: 1 }] },
    },
  ];
  for (const c of cases)
    it(`${c.flag}: a member is refused, the manager is not`, async () => {
      expect((await putSettings(manager, { ...base, ...c.settings })).status).toBe(200);
      const refused = await createTransfer(plain, c.refused);
      expect(refused.status, JSON.stringify(refused.body)).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      const allowed = await createTransfer(plain, c.allowed);
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
      const own = await createTransfer(manager, c.refused);
      expect(own.status, JSON.stringify(own.body)).toBe(201);
    });

  // The receive side (requests; inboxes share the same check, services/receive-owner.ts).
  const receiveCases: Array<{
    flag: keyof UploaderSettings;
    settings: Partial<UploaderSettings>;
    refused: Record<string, unknown>;
    allowed: Record<string, unknown>;
  }> = [
    {
      flag: 'allowInboxS1',
      settings: { allowInboxS1: false, allowInboxS2: true },
      refused: { linkMode: 'S1', recipients: ['r@policy.example'] },
      allowed: { linkMode: 'S2' },
    },
    {
      flag: 'allowInboxS2',
      settings: { allowInboxS1: true, allowInboxS2: false },
      refused: { linkMode: 'S2' },
      allowed: { linkMode: 'S1', recipients: ['r@policy.example'] },
    },
    {
      flag: 'receivePasswordOpt',
      settings: { receivePasswordOpt: false },
      refused: { password: 'Pw-123456' },
      allowed: {},
    },
    {
      flag: 'receiveRequirePassword',
      settings: { receiveRequirePassword: true },
      refused: {},
      allowed: { password: 'Pw-123456' },
    },
    {
      flag: 'receiveNotificationOpt',
      settings: { receiveNotificationOpt: false },
      refused: { uploadNotification: false },
      allowed: { uploadNotification: true },
    },
    {
      flag: 'receiveAllowCustomization',
      settings: { receiveAllowCustomization: false },
      refused: { customization: { backgroundColor: '#112233' } },
      allowed: {},
    },
    {
      flag: 'receiveAllowedExtensions',
      settings: { receiveAllowedExtensions: ['pdf'] },
      refused: { allowedExtensions: ['pdf', 'exe'] },
      allowed: { allowedExtensions: ['pdf'] },
    },
    {
      flag: 'receiveAvailabilityOpt',
      settings: { receiveAvailabilityOpt: false },
      refused: { expiresInDays: 3 },
      allowed: {},
    },
  ];
  const createRequest = (who: Account, body: Record<string, unknown>) =>
    api(ferry.baseUrl, '/api/receive/requests', {
      method: 'POST',
      headers: who.bearer,
      json: { linkMode: 'S2', ...body },
    });
  for (const c of receiveCases)
    it(`${c.flag}: a member's request is refused, and allowed within the rule`, async () => {
      const settings = { ...base, allowInboxS1: true, allowInboxS2: true, ...c.settings };
      expect((await putSettings(manager, settings)).status).toBe(200);
      const refused = await createRequest(plain, c.refused);
      expect(refused.status, JSON.stringify(refused.body)).toBeGreaterThanOrEqual(400);
      expect(refused.status).toBeLessThan(500);
      expect(refused.body.details?.setting, JSON.stringify(refused.body)).toBe(
        c.flag === 'receiveRequirePassword' ? 'receiveRequirePassword' : c.flag,
      );
      const allowed = await createRequest(plain, c.allowed);
      expect(allowed.status, JSON.stringify(allowed.body)).toBe(201);
    });

  it("notificationOpt: a member's mail choices give way to the account's defaults", async () => {
    const confirmation = async (who: Account) => {
      const created = await createTransfer(who, { downloadConfirmation: true, summary: true });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const [row] = await query<{ confirm: boolean; summary: boolean }>(
        ferry,
        'SELECT download_confirmation AS confirm, notify_summary AS summary FROM transfers WHERE id = $1',
        [created.body.transferId],
      );
      return row;
    };
    expect(await confirmation(plain)).toEqual({ confirm: true, summary: true });
    expect((await putSettings(manager, { ...base, notificationOpt: false })).status).toBe(200);
    // S2 defaults: no download confirmation, no summary.
    expect(await confirmation(plain)).toEqual({ confirm: false, summary: false });
    expect(await confirmation(manager)).toEqual({ confirm: true, summary: true });
  });

  it("requireForceEmailWhenDownloadS2: a member's link asks for the downloader's address", async () => {
    expect((await putSettings(manager, { ...base, requireForceEmailWhenDownloadS2: true })).status).toBe(200);
    const created = await createTransfer(plain, { forceEmailWhenDownloadS2: false });
    expect(created.status).toBe(201);
    const forced = await query<{ force: boolean }>(
      ferry,
      'SELECT force_email_when_download_s2 AS force FROM transfers WHERE owner_id = $1',
      [plain.uid],
    );
    expect(forced[0]?.force).toBe(true);
  });
});

const signIn = (email: string, totp?: string) =>
  api(ferry.baseUrl, '/api/auth/signin', {
    method: 'POST',
    json: { email, password: PASSWORD, ...(totp ? { totp } : {}) },
  });
const putPolicy = (who: Account | null, policy: unknown) =>
  api(ferry.baseUrl, `/api/team/${manager.uid}/authentication-policy`, {
    method: 'PUT',
    headers: who ? who.bearer : {},
    json: policy,
  });
const POLICY = { allowedEmailDomains: [], requireSecondFactor: false, signInMethods: null };

describe('the authentication policy (/api/team/{teamId}/authentication-policy)', () => {
  it('is read and changed by the manager and USER_MANAGER members only, and logged', async () => {
    const path = `/api/team/${manager.uid}/authentication-policy`;
    expect((await api(ferry.baseUrl, path)).status).toBe(401);
    expect((await api(ferry.baseUrl, path, { headers: outsider.bearer })).status).toBe(404);
    expect((await api(ferry.baseUrl, path, { headers: tm.bearer })).status).toBe(403);
    expect((await api(ferry.baseUrl, path, { headers: plain.bearer })).status).toBe(403);
    expect(await api(ferry.baseUrl, path, { headers: manager.bearer })).toMatchObject({
      status: 200,
      body: { policy: POLICY, availableMethods: ['password'] },
    });
    expect((await putPolicy(tm, POLICY)).status).toBe(403);
    expect((await putPolicy(outsider, POLICY)).status).toBe(404);
    // Only the methods this server offers.
    expect((await putPolicy(manager, { ...POLICY, signInMethods: ['nowhere'] })).status).toBe(400);
    expect((await putPolicy(manager, { ...POLICY, allowedEmailDomains: ['not a domain'] })).status).toBe(400);

    const changed = await putPolicy(um, { ...POLICY, allowedEmailDomains: ['Policy.example'] });
    expect(changed).toMatchObject({
      status: 200,
      body: { policy: { allowedEmailDomains: ['policy.example'] } },
    });
    expect(await securityLog('policy-changed')).toEqual([
      {
        team_id: manager.uid,
        actor_user_id: um.uid,
        target: 'authentication',
        details: { policy: 'authentication', changed: ['allowedEmailDomains'] },
      },
    ]);
  });

  it('refuses a password sign-in of a member when the team allows only other methods; never the manager', async () => {
    await query(ferry, `UPDATE users SET settings = $2 WHERE id = $1`, [
      manager.uid,
      { teamAuthPolicy: { ...POLICY, signInMethods: ['google'] } },
    ]);
    expect((await signIn(plain.email)).body).toMatchObject({
      status: 403,
      codes: ['SIGN_IN_METHOD_NOT_ALLOWED'],
    });
    expect((await signIn(manager.email)).status).toBe(200);
    expect((await signIn(outsider.email)).status).toBe(200);
  });

  it('asks a member without a second factor to set one up when the team requires it', async () => {
    const member = await account('twofa');
    await join(member, []);
    expect((await putPolicy(manager, { ...POLICY, requireSecondFactor: true })).status).toBe(200);
    expect((await signIn(manager.email)).status).toBe(200);

    const refused = await signIn(member.email);
    expect(refused.body).toMatchObject({ status: 403, codes: ['SECOND_FACTOR_SETUP_REQUIRED'] });
    const setupToken = refused.body.details.setupToken as string;
    expect(setupToken).toBeTruthy();
    // An id token from elsewhere (e.g. an old one) does not open a session without the factor either.
    expect(
      (
        await api(ferry.baseUrl, '/api/auth/second-factor-setup/start', {
          method: 'POST',
          json: { setupToken: 'x.y.z' },
        })
      ).status,
    ).toBe(401);

    const start = await api(ferry.baseUrl, '/api/auth/second-factor-setup/start', {
      method: 'POST',
      json: { setupToken },
    });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    const totp = new TOTP({ secret: Secret.fromBase32(start.body.secret), digits: 6, period: 30 });
    const wrong = await api(ferry.baseUrl, '/api/auth/second-factor-setup/finish', {
      method: 'POST',
      json: { setupToken, code: totp.generate() === '000000' ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(401);
    const finish = await api(ferry.baseUrl, '/api/auth/second-factor-setup/finish', {
      method: 'POST',
      json: { setupToken, code: totp.generate() },
    });
    expect(finish.status, JSON.stringify(finish.body)).toBe(200);
    expect(finish.body.recoveryCodes.length).toBeGreaterThan(0);
    const session = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
      headers: { 'id-token': finish.body.idToken },
    });
    expect(session.status).toBe(200);
    // The token has done its work; the member now signs in with the factor.
    expect(
      (
        await api(ferry.baseUrl, '/api/auth/second-factor-setup/start', {
          method: 'POST',
          json: { setupToken },
        })
      ).status,
    ).toBe(409);
    expect((await signIn(member.email)).body).toMatchObject({ codes: ['SECOND_FACTOR_REQUIRED'] });
  });

  it('memberEmailAllowed: addresses in the allowed domains (or their subdomains) only', async () => {
    expect((await putPolicy(manager, { ...POLICY, allowedEmailDomains: ['policy.example'] })).status).toBe(
      200,
    );
    const policies = ferry.teamPolicies;
    expect(await policies.memberEmailAllowed(manager.uid, 'a@policy.example')).toBe(true);
    expect(await policies.memberEmailAllowed(manager.uid, 'a@eu.policy.example')).toBe(true);
    expect(await policies.memberEmailAllowed(manager.uid, 'a@otherpolicy.example')).toBe(false);
    expect(await policies.memberEmailAllowed(manager.uid, 'a@elsewhere.example')).toBe(false);
    await expect(policies.checkMemberEmail(manager.uid, 'a@elsewhere.example')).rejects.toMatchObject({
      code: 'EMAIL_DOMAIN_NOT_ALLOWED',
    });
    // A member's uid names no team.
    expect(await policies.memberEmailAllowed(plain.uid, 'a@policy.example')).toBe(false);
  });
});

/** A member's uploaded S2 transfer of one 10-byte file, at most `maxDownloads` downloads. */
async function uploaded(owner: Account, body: Record<string, unknown> = {}) {
  const created = (await createTransfer(owner, { files: [{ name: 'a.txt', size: 10 }], ...body })).body;
  await new TusTestClient(ferry.baseUrl, created.uploadToken).upload(
    created.transferId,
    created.files[0].id,
    Buffer.alloc(10, 7),
  );
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { files: [] },
  });
  expect(done.status).toBe(200);
  return { id: created.transferId as string, fileId: created.files[0].id as string };
}
const link = (who: Account | null, t: { id: string; fileId: string }, admin: boolean) =>
  api(
    ferry.baseUrl,
    `/api/transfer/downloads/link?transferId=${t.id}&fileId=${t.fileId}${admin ? '&admin-dashboard=true' : ''}`,
    { headers: who ? who.bearer : {} },
  );

describe('downloads from the admin transfers page (admin-dashboard flag)', () => {
  it('by the manager or a transfer manager: not against maxDownloads, counted in the 7-day bytes, logged', async () => {
    const t = await uploaded(plain, { maxDownloads: 1 });
    expect((await link(manager, t, true)).status).toBe(200);
    expect((await link(tm, t, true)).status).toBe(200);
    const rows = await query<{ admin: boolean; bytes: number; recipient_id: number | null }>(
      ferry,
      'SELECT admin, bytes::int AS bytes, recipient_id FROM downloads WHERE transfer_id = $1 ORDER BY id',
      [t.id],
    );
    expect(rows).toEqual([
      { admin: true, bytes: 10, recipient_id: null },
      { admin: true, bytes: 10, recipient_id: null },
    ]);
    const count = await query<{ n: number }>(
      ferry,
      'SELECT download_count AS n FROM transfers WHERE id = $1',
      [t.id],
    );
    expect(count[0]?.n).toBe(0);
    const events = await query<{ actor_user_id: string; target: string; details: Record<string, unknown> }>(
      ferry,
      `SELECT actor_user_id, target, details FROM security_log WHERE action = 'transfer-downloaded' ORDER BY id`,
    );
    expect(events).toEqual([
      { actor_user_id: manager.uid, target: t.id, details: { admin: true, fileId: t.fileId, bytes: 10 } },
      { actor_user_id: tm.uid, target: t.id, details: { admin: true, fileId: t.fileId, bytes: 10 } },
    ]);
    // The one download the transfer allows is still there for its recipients.
    expect((await link(null, t, false)).status).toBe(200);
    expect((await link(null, t, false)).body).toMatchObject({ codes: ['TOO_MANY_DOWNLOADS'] });
    const overview = await api(ferry.baseUrl, `/api/team/${manager.uid}/overview`, {
      headers: manager.bearer,
    });
    expect(overview.body.downloaded7Days.usedBytes).toBe(30);
  });

  it('the flag is never trusted alone: anyone else gets the normal, counted download', async () => {
    const t = await uploaded(plain, { maxDownloads: 2 });
    // A user manager of the team and an outsider send the flag: each is an ordinary download.
    for (const who of [um, outsider]) expect((await link(who, t, true)).status).toBe(200);
    expect((await link(plain, t, true)).body).toMatchObject({ codes: ['TOO_MANY_DOWNLOADS'] });
    const rows = await query<{ admin: boolean }>(
      ferry,
      'SELECT admin FROM downloads WHERE transfer_id = $1',
      [t.id],
    );
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.admin === false)).toBe(true);
    const count = await query<{ n: number }>(
      ferry,
      'SELECT download_count AS n FROM transfers WHERE id = $1',
      [t.id],
    );
    expect(count[0]?.n).toBe(2);
    // Logged as the ordinary downloads they are, never as an admin's.
    const logged = await query<{ admin: string | null }>(
      ferry,
      `SELECT details->>'admin' AS admin FROM security_log WHERE action = 'transfer-downloaded' AND target = $1`,
      [t.id],
    );
    expect(logged).toEqual([{ admin: null }, { admin: null }]);
  });
});

describe('GET /api/team/{teamId}/overview', () => {
  it('gives seats, storage, 7-day bytes and 30 days of activity to the manager and TM/UM members only', async () => {
    const path = `/api/team/${manager.uid}/overview`;
    expect((await api(ferry.baseUrl, path)).status).toBe(401);
    expect((await api(ferry.baseUrl, path, { headers: outsider.bearer })).status).toBe(404);
    expect((await api(ferry.baseUrl, path, { headers: plain.bearer })).status).toBe(403);
    expect((await api(ferry.baseUrl, `/api/team/${tm.uid}/overview`, { headers: tm.bearer })).status).toBe(
      404,
    );

    await query(ferry, `UPDATE users SET plan_code = 'TEAM' WHERE id = $1`, [manager.uid]);
    const t = await uploaded(plain);
    await uploaded(manager);
    await query(
      ferry,
      `INSERT INTO downloads (transfer_id, kind, bytes, created_at) VALUES ($1, 'zip', 500, now() - interval '10 days')`,
      [t.id],
    );
    expect((await link(null, t, false)).status).toBe(200);

    const members = await query<{ n: number }>(
      ferry,
      'SELECT count(*)::int AS n FROM users WHERE id = $1 OR manager_id = $1',
      [manager.uid],
    );
    expect(members[0]?.n).toBeGreaterThanOrEqual(4);
    // Pending invitations hold seats until they expire or are withdrawn. The team has one seat left: an
    // invitation takes it, and only a withdrawn or expired one gives it back for the next.
    const invite = async (email: string) => {
      const invited = await api(ferry.baseUrl, `/api/user/teams/${manager.uid}/invitations`, {
        method: 'POST',
        headers: manager.bearer,
        json: { emails: [email] },
      });
      expect(invited.status, JSON.stringify(invited.body)).toBe(200);
      return invited.body.results[0] as { result: string; invitationId?: string };
    };
    // One seat left, whatever members the tests before added.
    const seats = (members[0]?.n ?? 0) + 1;
    await query(
      ferry,
      `UPDATE users SET limit_settings = jsonb_build_object('licences', $2::int) WHERE id = $1`,
      [manager.uid, seats],
    );
    const withdrawn = await invite('seat-a@policy.example');
    expect(withdrawn.result).toBe('invited');
    expect((await invite('seat-b@policy.example')).result).toBe('MAX_LICENCES_REACHED');
    const withdrawal = await api(
      ferry.baseUrl,
      `/api/user/teams/${manager.uid}/invitations/${withdrawn.invitationId}`,
      { method: 'DELETE', headers: manager.bearer },
    );
    expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(204);
    const expired = await invite('seat-b@policy.example');
    expect(expired.result).toBe('invited');
    await query(ferry, `UPDATE team_invitations SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      expired.invitationId,
    ]);
    expect((await invite('seat-c@policy.example')).result).toBe('invited');
    for (const who of [manager, tm, um]) {
      const answer = await api(ferry.baseUrl, path, { headers: who.bearer });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const o = answer.body;
      expect(o.teamId).toBe(manager.uid);
      expect(o.seats).toEqual({ used: members[0]?.n, pending: 1, total: seats });
      expect(o.storage.usedBytes).toBe(20);
      expect(o.downloaded7Days.usedBytes).toBe(10);
      expect(o.activity).toHaveLength(30);
      const today = new Date().toISOString().slice(0, 10);
      expect(o.activity[29]).toEqual({ date: today, transfersCreated: 2, bytesDownloaded: 10 });
      const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
      expect(o.activity.find((d: { date: string }) => d.date === tenDaysAgo)).toMatchObject({
        bytesDownloaded: 500,
      });
    }
  });
});
