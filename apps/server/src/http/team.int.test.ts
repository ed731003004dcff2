import { DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, type Permission } from '@ferry/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Teams (spec §4, §6): a team is its manager's uid; members point at it with users.manager_id (set in the
 * database here: adding members has no API yet). Team settings, memberships, and limits counted over the team.
 */
let sink: SmtpSink;
let ferry: TestFerry;

/** Two teams and an outsider, made once (sign-ups are rate limited per client); each test starts them afresh. */
let first: Awaited<ReturnType<typeof team>>;
let other: Awaited<ReturnType<typeof team>>;
let outsider: Account;

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  first = await team();
  other = await team();
  outsider = await account('outsider');
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM transfers');
  await query(
    ferry,
    `UPDATE users SET plan_type = 'NONE', plan_code = NULL, settings = '{}', limit_settings = '{}'`,
  );
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let n = 0;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@team.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
const join = (member: Account, manager: Account, permissions: Permission[] = []) =>
  query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
    member.uid,
    manager.uid,
    permissions,
  ]);
const plan = (who: Account, planType: string) =>
  query(ferry, 'UPDATE users SET plan_type = $2 WHERE id = $1', [who.uid, planType]);
const get = (who: Account | null, path: string) =>
  api(ferry.baseUrl, path, { headers: who ? who.bearer : {} });
const createTransfer = (who: Account, body: Record<string, unknown>) =>
  api(ferry.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: who.bearer,
    json: { files: [{ name: 'a.txt', size: 1 }], expiresInDays: 1, ...body },
  });
const ALL: Permission[] = ['TRANSFER_MANAGER', 'USER_MANAGER', 'BILLING'];

/** A manager and members: `all` has no stored permissions (so all three), `transfers` and `users` have one. */
async function team() {
  const manager = await account('manager');
  const [all, transfers, users] = [await account('all'), await account('tm'), await account('um')];
  await join(all, manager);
  await join(transfers, manager, ['TRANSFER_MANAGER']);
  await join(users, manager, ['USER_MANAGER']);
  return { manager, all, transfers, users };
}

describe('GET /user/teams/{teamId}/uploader-settings', () => {
  it("is the manager's settings over the team-member defaults, for the manager and the members only", async () => {
    const { manager, all, transfers } = first;
    const path = `/api/user/teams/${manager.uid}/uploader-settings`;

    const before = await get(all, path);
    expect(before).toMatchObject({
      status: 200,
      body: { uploaderSettings: { ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS } },
    });
    expect(before.body.uploaderSettings.allowInboxS1).toBe(false);

    const chosen = {
      ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
      allowS2: false,
      sendAllowedExtensions: ['pdf'],
    };
    const put = await api(ferry.baseUrl, `/api/user/users/${manager.uid}/uploader-settings`, {
      method: 'PUT',
      headers: manager.bearer,
      json: chosen,
    });
    expect(put.status).toBe(200);
    for (const who of [manager, all, transfers])
      expect((await get(who, path)).body).toEqual({ uploaderSettings: chosen });

    expect((await get(null, path)).status).toBe(401);
    const refused = await get(outsider, path);
    expect(refused.body).toMatchObject({ status: 404, codes: ['NOT_FOUND'] });
    expect(JSON.stringify(refused.body)).not.toContain('pdf');
    // A member's uid names no team, and an unknown team is not found.
    expect((await get(all, `/api/user/teams/${all.uid}/uploader-settings`)).status).toBe(404);
    expect((await get(outsider, '/api/user/teams/no-such-team/uploader-settings')).status).toBe(404);
  });
});

describe('GET /user/teams/{teamId}/members/{uid}', () => {
  it('reads a membership for the member, the manager and a USER_MANAGER member; nobody else', async () => {
    const { manager, all, transfers, users } = first;
    const member = (who: Account | null, teamId: string, uid: string) =>
      get(who, `/api/user/teams/${teamId}/members/${uid}`);

    expect((await member(transfers, manager.uid, transfers.uid)).body).toEqual({
      teamId: manager.uid,
      uid: transfers.uid,
      email: transfers.email,
      displayName: null,
      isManager: false,
      permissions: ['TRANSFER_MANAGER'],
    });
    // No stored permissions means all three (spec §6); the manager is the member with every permission.
    expect((await member(all, manager.uid, all.uid)).body).toMatchObject({
      isManager: false,
      permissions: ALL,
    });
    expect((await member(manager, manager.uid, manager.uid)).body).toMatchObject({
      uid: manager.uid,
      email: manager.email,
      isManager: true,
      permissions: ALL,
    });
    // The manager and USER_MANAGER members (stored or implied) read any member of their team.
    for (const reader of [manager, users, all])
      expect((await member(reader, manager.uid, transfers.uid)).body).toMatchObject({
        uid: transfers.uid,
        permissions: ['TRANSFER_MANAGER'],
      });
    expect((await member(users, manager.uid, manager.uid)).body.isManager).toBe(true);

    const refusals: Array<[Account | null, string, string, number]> = [
      [null, manager.uid, all.uid, 401],
      [transfers, manager.uid, all.uid, 404], // no USER_MANAGER
      [transfers, manager.uid, manager.uid, 404],
      [outsider, manager.uid, all.uid, 404],
      [outsider, manager.uid, manager.uid, 404],
      [other.manager, manager.uid, all.uid, 404], // another team's manager
      [other.users, manager.uid, all.uid, 404],
      [manager, manager.uid, outsider.uid, 404], // not in the team
      [manager, manager.uid, other.all.uid, 404],
      [manager, other.manager.uid, other.all.uid, 404],
      [all, all.uid, all.uid, 404], // a member's uid names no team
      [outsider, outsider.uid, manager.uid, 404],
    ];
    for (const [who, teamId, uid, status] of refusals) {
      const res = await member(who, teamId, uid);
      expect([teamId, uid, res.status]).toEqual([teamId, uid, status]);
      expect(JSON.stringify(res.body)).not.toMatch(/@team\.example/);
    }
  });
});

describe('team licences (spec §8 MAX_LICENCES_REACHED)', () => {
  it('signs in as many accounts as the team has seats, the manager and the first to join; the others are told', async () => {
    const { manager, all, transfers, users } = first;
    const sessionFor = async (who: Account) => {
      const id = await get(who, '/api/auth/auth/id-token');
      expect(id.status).toBe(200);
      return api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
        headers: { 'id-token': id.body.idToken },
      });
    };
    // A contract of two seats: the manager's and the first member's.
    await query(
      ferry,
      `UPDATE users SET plan_type = 'ENTERPRISE', plan_code = 'CUSTOM', limit_settings = '{"licences": 2}' WHERE id = $1`,
      [manager.uid],
    );
    expect((await sessionFor(manager)).status).toBe(200);
    expect((await sessionFor(all)).status).toBe(200);
    for (const who of [transfers, users]) {
      const refused = await sessionFor(who);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ codes: ['MAX_LICENCES_REACHED'], details: { licences: 2 } });
    }
    // Another team's plan, and an account with no team, are not affected.
    expect((await sessionFor(other.transfers)).status).toBe(200);
    expect((await sessionFor(outsider)).status).toBe(200);
    // TEAM10: ten seats, room for everyone.
    await query(
      ferry,
      `UPDATE users SET plan_type = 'TEAM', plan_code = 'TEAM10', limit_settings = '{}' WHERE id = $1`,
      [manager.uid],
    );
    for (const who of [transfers, users]) expect((await sessionFor(who)).status).toBe(200);
  });
});

describe("a team member is held to the manager's limits (spec §4)", () => {
  it("uses the manager's plan and settings for transfers, and reads the team's limits", async () => {
    const { manager, all } = first;
    await plan(manager, 'TEAM');
    const to = (k: number) => Array.from({ length: k }, (_, i) => `r${i}@example.com`);
    // The member's own plan is NONE (10 recipients, 7 days, 5 GB); the manager's TEAM allows 50, 365, 500 GB.
    for (const body of [
      { type: 'S1', recipients: to(11) },
      { expiresInDays: 365 },
      { files: [{ name: 'big.bin', size: 6e9 }] },
    ]) {
      const res = await createTransfer(all, body);
      expect([body, res.status]).toEqual([body, 201]);
      expect((await createTransfer(outsider, body)).status).toBe(400);
    }
    expect((await createTransfer(all, { type: 'S1', recipients: to(51) })).body.limitErrors).toEqual([
      { limit: 'recipients', max: 50, actual: 51 },
    ]);

    // The member's session says the team's plan, so that clients load the team's limits (spec §4).
    expect((await get(all, '/api/auth/me')).body).toMatchObject({
      planType: 'TEAM',
      payingUser: true,
      managerId: manager.uid,
      authorization: { managerId: manager.uid, permissions: ALL },
    });
    for (const id of [all.uid, manager.uid])
      expect((await get(all, `/api/transfer/limits/${id}`)).body).toMatchObject({
        planType: 'TEAM',
        recipients: 50,
        storage: 2000e9,
        globalStorage: 2000e9,
        downloadedBytes7Days: 6e11,
      });
    // The manager's settings hold for the team; a member does not set their own.
    const put = (who: Account, json: unknown) =>
      api(ferry.baseUrl, `/api/transfer/limits/${who.uid}/by-user`, {
        method: 'PUT',
        headers: who.bearer,
        json,
      });
    expect((await put(all, { forcedFileValidityInDays: 2 })).body).toMatchObject({
      status: 403,
      codes: ['FORBIDDEN'],
    });
    expect((await put(manager, { forcedFileValidityInDays: 3, forcedRegion: 'default' })).status).toBe(200);
    const created = await createTransfer(all, { expiresInDays: undefined });
    const days = (Date.parse(created.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(2);
    expect(days).toBeLessThanOrEqual(3);
    const [row] = await query<{ storage_region: string | null }>(
      ferry,
      'SELECT storage_region FROM transfers WHERE id = $1',
      [created.body.transferId],
    );
    expect(row!.storage_region).toBe('default');
  });

  it("counts storage over the whole team against the manager's plan", async () => {
    const { manager, all, transfers } = first;
    await plan(manager, 'TEAM'); // 2000 GB, transfers of at most 500 GB
    const file = (size: number) => ({ files: [{ name: 'f.bin', size }] });
    for (let i = 0; i < 3; i++) expect((await createTransfer(manager, file(500e9))).status).toBe(201);
    expect((await createTransfer(transfers, file(499e9))).status).toBe(201);
    expect((await createTransfer(all, file(1e9))).status).toBe(201); // exactly 2000 GB in the team
    for (const who of [all, transfers, manager]) {
      const over = await createTransfer(who, file(1));
      expect(over.body.limitErrors).toEqual([{ limit: 'storage', max: 2000e9, actual: 2000e9 + 1 }]);
    }
    expect((await createTransfer(outsider, file(1))).status).toBe(201);
    for (const who of [manager, all])
      expect((await get(who, `/api/transfer/limits/${who.uid}`)).body).toMatchObject({
        storage: 2000e9,
        storageUsed: 2000e9,
      });
    expect((await get(outsider, `/api/transfer/limits/${outsider.uid}`)).body.storageUsed).toBe(1);
  });

  it('racing creations by several members never take the team past its storage', async () => {
    const { manager, all, transfers, users } = first;
    await plan(manager, 'PREMIUM'); // 1000 GB for the team, transfers of at most 250 GB
    const racers = [manager, all, transfers, users];
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        createTransfer(racers[i % racers.length]!, { files: [{ name: `part-${i}.bin`, size: 100e9 }] }),
      ),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    for (const refused of answers.filter((a) => a.status !== 201))
      expect(refused.body.limitErrors).toEqual([{ limit: 'storage', max: 1000e9, actual: 1100e9 }]);
    const [row] = await query<{ stored: string }>(
      ferry,
      'SELECT sum(total_size)::text AS stored FROM transfers WHERE owner_id = ANY($1)',
      [racers.map((r) => r.uid)],
    );
    expect(Number(row!.stored)).toBe(1000e9);
  });

  it("holds members to the manager's uploader settings on the server, whatever the client sends", async () => {
    const { manager, all } = first;
    const settings = (json: Record<string, unknown>) =>
      api(ferry.baseUrl, `/api/user/users/${manager.uid}/uploader-settings`, {
        method: 'PUT',
        headers: manager.bearer,
        json: { ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, ...json },
      });
    expect(
      (
        await settings({
          allowS1: false,
          requirePassword: true,
          downloadLimitOpt: false,
          requireForceEmailWhenDownloadS2: true,
          sendAllowedExtensions: ['pdf', '.DOCX'],
        })
      ).status,
    ).toBe(200);
    const refusal = async (body: Record<string, unknown>) => {
      const res = await createTransfer(all, {
        password: 'team secret',
        files: [{ name: 'a.pdf', size: 1 }],
        ...body,
      });
      return [res.status, res.body.codes?.[0], res.body.details?.setting ?? res.body.details?.files];
    };
    expect(await refusal({ type: 'S1', recipients: ['r@example.com'] })).toEqual([
      403,
      'FORBIDDEN',
      'allowS1',
    ]);
    expect(await refusal({ password: undefined })).toEqual([400, 'VALIDATION_FAILED', 'requirePassword']);
    expect(await refusal({ maxDownloads: 3 })).toEqual([403, 'FORBIDDEN', 'downloadLimitOpt']);
    expect(
      await refusal({
        files: [
          { name: 'notes.txt', size: 1 },
          { name: 'b.PDF', size: 1 },
        ],
      }),
    ).toEqual([
      400,
      'INVALID_FILENAME',
      [{ name: 'notes.txt', key: 'uploader:notif_extension_authorized', extensions: ['pdf', '.DOCX'] }],
    ]);
    // Within the settings it goes through, and the downloader's e-mail is required even though not asked for.
    const ok = await createTransfer(all, {
      password: 'team secret',
      forceEmailWhenDownloadS2: false,
      files: [{ name: 'Report.Docx', size: 1 }],
    });
    expect(ok.status).toBe(201);
    const [row] = await query<{ force_email_when_download_s2: boolean }>(
      ferry,
      'SELECT force_email_when_download_s2 FROM transfers WHERE id = $1',
      [ok.body.transferId],
    );
    expect(row!.force_email_when_download_s2).toBe(true);
    // The manager's own transfers are not held to what they set for the members.
    expect((await createTransfer(manager, { type: 'S1', recipients: ['r@example.com'] })).status).toBe(201);
    expect(
      (await createTransfer(outsider, { maxDownloads: 3, files: [{ name: 'x.txt', size: 1 }] })).status,
    ).toBe(201);
  });

  it("counts the 7-day downloaded bytes over the whole team against the manager's plan", async () => {
    const { manager, all } = first;
    await plan(manager, 'TEAM'); // 6e11 bytes a week; the member's own NONE would allow 3e11
    const created = (await createTransfer(all, { files: [{ name: 'a.txt', size: 10 }] })).body;
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
    // Downloads of the manager's own transfer this week: 15 bytes short of the team's allowance.
    const managers = (await createTransfer(manager, {})).body.transferId;
    await query(ferry, `INSERT INTO downloads (transfer_id, kind, bytes) VALUES ($1, 'zip', $2)`, [
      managers,
      6e11 - 15,
    ]);
    const link = () =>
      api(
        ferry.baseUrl,
        `/api/transfer/downloads/link?transferId=${created.transferId}&fileId=${created.files[0].id}`,
      );
    expect((await link()).status).toBe(200);
    const over = await link();
    expect(over.body.limitErrors).toEqual([{ limit: 'downloadedBytes7Days', max: 6e11, actual: 6e11 + 5 }]);
    expect((await get(all, `/api/transfer/limits/${manager.uid}`)).body.downloadedBytes7DaysUsed).toBe(
      6e11 - 5,
    );
  });
});
