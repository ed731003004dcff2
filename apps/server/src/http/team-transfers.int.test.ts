import type { Permission } from '@ferry/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * GET /api/user/teams/{teamId}/transfers (issue 20 item 3, /dashboard/admin/transfers): every transfer the team's
 * accounts own, for the manager and TRANSFER_MANAGER members, with the dashboard list's filters and keyset pages
 * and a member filter.
 */
let sink: SmtpSink;
let ferry: TestFerry;
let manager: Account;
let tm: Account;
let um: Account;
let plain: Account;
let disabled: Account;
let removed: Account;
let otherManager: Account;
let otherTm: Account;
let stranger: Account;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let n = 0;
const account = (label: string) =>
  signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@teamlist.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
const join = (member: Account, team: Account, permissions: Permission[]) =>
  query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
    member.uid,
    team.uid,
    permissions,
  ]);

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  [manager, tm, um, plain, disabled, removed, otherManager, otherTm, stranger] = await Promise.all(
    ['manager', 'tm', 'um', 'plain', 'disabled', 'removed', 'other', 'othertm', 'stranger'].map(account),
  );
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM transfers');
  await query(
    ferry,
    `UPDATE users SET manager_id = NULL, permissions = '{}', team_disabled_at = NULL, plan_type = 'NONE', plan_code = NULL`,
  );
  for (const team of [manager, otherManager])
    await query(ferry, `UPDATE users SET plan_type = 'TEAM', plan_code = 'TEAM' WHERE id = $1`, [team.uid]);
  await join(tm, manager, ['TRANSFER_MANAGER']);
  await join(um, manager, ['USER_MANAGER']);
  await join(plain, manager, ['BILLING']);
  await join(disabled, manager, []);
  await join(removed, manager, []);
  await join(otherTm, otherManager, ['TRANSFER_MANAGER']);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

/** A transfer made through the API (left uploading: the list shows every status). */
async function transfer(owner: Account, name: string, body: Record<string, unknown> = {}): Promise<string> {
  const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: owner.bearer,
    json: { type: 'S2', name, files: [{ name: `${name}.bin`, size: 5 }], expiresInDays: 1, ...body },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.transferId as string;
}

const list = (who: Account | null, params: Record<string, string> = {}, team = manager.uid) =>
  api(ferry.baseUrl, `/api/user/teams/${team}/transfers?${new URLSearchParams(params)}`, {
    headers: who ? who.bearer : {},
  });

describe('GET /api/user/teams/{teamId}/transfers', () => {
  it('answers the manager and transfer managers; others are refused or learn nothing', async () => {
    const own = await transfer(manager, 'manager-own');
    const members = await transfer(plain, 'plain-one');
    await transfer(otherManager, 'other-team');
    await transfer(stranger, 'stranger-one');

    expect((await list(null)).status).toBe(401);
    for (const who of [stranger, otherManager, otherTm]) {
      const answer = await list(who);
      expect(answer.status, who.email).toBe(404);
      expect(answer.body.codes).toEqual(['NOT_FOUND']);
    }
    for (const who of [plain, um]) {
      const answer = await list(who);
      expect(answer.status, who.email).toBe(403);
      expect(answer.body.codes).toEqual(['FORBIDDEN']);
    }
    // A member's uid names no team, not even for a transfer manager.
    expect((await list(tm, {}, tm.uid)).status).toBe(404);
    for (const who of [manager, tm]) {
      const answer = await list(who);
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.items.map((i: { id: string }) => i.id).sort()).toEqual([own, members].sort());
      expect(answer.body.total).toBe(2);
      expect(answer.body.totalIsCapped).toBe(false);
      const mine = answer.body.items.find((i: { id: string }) => i.id === members);
      expect(mine).toMatchObject({
        ownerUid: plain.uid,
        ownerEmail: plain.email,
        name: 'plain-one',
        status: 'UPLOADING',
        direction: 'sent',
        downloadCount: 0,
        firstFileName: 'plain-one.bin',
      });
      expect(mine.link).toMatch(new RegExp(`/dl/${members}$`));
    }
    expect(
      (await api(ferry.baseUrl, `/api/user/teams/${manager.uid}/transfers`)).headers.get('cache-control'),
    ).toMatch(/no-store/);
  });

  it('lists a disabled member’s transfers; a removed member takes theirs along and is out', async () => {
    const kept = await transfer(disabled, 'disabled-one');
    const gone = await transfer(removed, 'removed-one');
    await query(ferry, 'UPDATE users SET team_disabled_at = now() WHERE id = $1', [disabled.uid]);
    const removal = await api(ferry.baseUrl, `/api/user/teams/${manager.uid}/members/${removed.uid}`, {
      method: 'DELETE',
      headers: manager.bearer,
    });
    expect(removal.status, JSON.stringify(removal.body)).toBe(204);
    const answer = await list(manager);
    expect(answer.body.items.map((i: { id: string }) => i.id)).toEqual([kept]);
    expect(answer.body.items[0].ownerEmail).toBe(disabled.email);
    // The removed account is nobody's admin here any more, and its transfer is its own again.
    expect((await list(removed)).status).toBe(404);
    const theirs = await api(ferry.baseUrl, '/api/transfer/transfers', { headers: removed.bearer });
    expect(theirs.body.items.map((i: { id: string }) => i.id)).toEqual([gone]);
  });

  it('filters by member, searches, filters by status and pages by cursor', async () => {
    const a = await transfer(plain, 'Quarterly report');
    const b = await transfer(tm, 'holiday photos');
    const c = await transfer(manager, 'contract draft', {
      files: [{ name: 'quarterly-figures.xlsx', size: 3 }],
    });
    await transfer(otherManager, 'Quarterly other team');

    const byMember = await list(tm, { member: plain.uid });
    expect(byMember.status).toBe(200);
    expect(byMember.body.items.map((i: { id: string }) => i.id)).toEqual([a]);
    expect(
      (await list(manager, { member: manager.uid })).body.items.map((i: { id: string }) => i.id),
    ).toEqual([c]);
    // Someone outside the team is no member to filter by.
    const outside = await list(manager, { member: otherManager.uid });
    expect(outside.status).toBe(404);

    // By name or by a file's name (trigram candidates from 3 characters), never another team's.
    const found = await list(manager, { q: 'quarterly' });
    expect(found.body.items.map((i: { id: string }) => i.id).sort()).toEqual([a, c].sort());
    expect(found.body.total).toBe(2);
    const short = await list(manager, { q: 'ho' });
    expect(short.body.items.map((i: { id: string }) => i.id)).toEqual([b]);
    expect((await list(manager, { q: 'quarterly', member: plain.uid })).body.items).toHaveLength(1);

    await query(ferry, `UPDATE transfers SET status = 'ENABLED' WHERE id = $1`, [b]);
    const enabled = await list(manager, { status: 'ENABLED' });
    expect(enabled.body.items.map((i: { id: string }) => i.id)).toEqual([b]);

    // Keyset pages of two, oldest first: every transfer once, in order.
    await query(ferry, `UPDATE transfers SET created_at = now() - (interval '1 minute' * length(name))`);
    const seen: string[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const answer = await list(manager, {
        limit: '2',
        sort: 'createdAt',
        dir: 'asc',
        ...(cursor ? { cursor } : {}),
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      expect(answer.body.total).toBe(3);
      seen.push(...answer.body.items.map((i: { id: string }) => i.id));
      cursor = answer.body.nextCursor ?? undefined;
      if (!cursor) break;
    }
    // Shortest name is the newest: 'contract draft' (14), 'holiday photos' (14), 'Quarterly report' (16).
    expect(seen).toHaveLength(3);
    expect(new Set(seen).size).toBe(3);
    expect(seen[0]).toBe(a);
    expect((await list(manager, { cursor: 'not-a-cursor' })).status).toBe(400);
  });
});
