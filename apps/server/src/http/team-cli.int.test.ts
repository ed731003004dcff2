import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../../packages/sdk/src/cli/main.js';
import { signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/** `ferry team invite|members|remove` run in process against the real server, signed in as a TEAM manager. */
let sink: SmtpSink;
let ferry: TestFerry;
let root: string;
let manager: Awaited<ReturnType<typeof signedInAccount>>;
let member: Awaited<ReturnType<typeof signedInAccount>>;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  root = await mkdtemp(path.join(tmpdir(), 'ferry-team-cli-'));
  const wait = (to: string) => sink.waitFor((m) => m.to.includes(to));
  manager = await signedInAccount(ferry.baseUrl, `manager-${process.pid}@cli-team.example`, wait, PASSWORD);
  member = await signedInAccount(ferry.baseUrl, `member-${process.pid}@cli-team.example`, wait, PASSWORD);
  await query(ferry, `UPDATE users SET plan_type = 'TEAM', plan_code = 'TEAM' WHERE id = $1`, [manager.uid]);
  await query(ferry, `UPDATE users SET manager_id = $2, permissions = '{TRANSFER_MANAGER}' WHERE id = $1`, [
    member.uid,
    manager.uid,
  ]);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
  if (root) await rm(root, { recursive: true, force: true });
});

async function run(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'ferry', ...args], {
    stdout: { isTTY: false, write: (s: string) => (stdout += s) } as { write(s: string): unknown },
    stderr: { isTTY: false, write: (s: string) => (stderr += s) },
    env: { FERRY_STATE_DIR: path.join(root, 'state'), FERRY_SERVER: ferry.baseUrl },
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

describe('ferry team', () => {
  it('invites addresses (one line each, exit 1 when any failed), lists and removes members', async () => {
    const login = await run(['login', '--email', manager.email, '--password', PASSWORD]);
    expect(login.code, login.stderr).toBe(0);

    const a = `a-${process.pid}@cli-team.example`;
    const ok = await run(['team', 'invite', a, '--permission', 'billing']);
    expect([ok.code, ok.stdout], ok.stderr).toEqual([0, `${a} invited\n`]);

    // TEAM has 5 seats: manager, member and `a` hold 3.
    const b = `b-${process.pid}@cli-team.example`;
    const c = `c-${process.pid}@cli-team.example`;
    const d = `d-${process.pid}@cli-team.example`;
    const mixed = await run(['team', 'invite', b, 'not-an-address', member.email, c, d]);
    expect(mixed.code).toBe(1);
    expect(mixed.stdout).toBe(
      [
        `${b} invited`,
        'not-an-address invalid',
        `${member.email} already-member`,
        `${c} invited`,
        `${d} MAX_LICENCES_REACHED`,
        '',
      ].join('\n'),
    );

    const listed = await run(['team', 'members', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { email: manager.email, uid: manager.uid, status: 'active', permissions: expect.any(Array) },
      { email: member.email, uid: member.uid, status: 'active', permissions: ['TRANSFER_MANAGER'] },
      { email: a, uid: null, status: 'invited', permissions: ['BILLING'] },
      { email: b, uid: null, status: 'invited', permissions: expect.any(Array) },
      { email: c, uid: null, status: 'invited', permissions: expect.any(Array) },
    ]);

    const removed = await run(['team', 'remove', member.email.toUpperCase()]);
    expect(removed.code, removed.stderr).toBe(0);
    const rows = await query(ferry, 'SELECT manager_id FROM users WHERE id = $1', [member.uid]);
    expect(rows[0]).toEqual({ manager_id: null });
    const withdrawn = await run(['team', 'remove', a]);
    expect(withdrawn.code, withdrawn.stderr).toBe(0);
    const after = JSON.parse((await run(['team', 'members', '--json'])).stdout) as Array<{ email: string }>;
    expect(after.map((m) => m.email)).toEqual([manager.email, b, c]);

    const missing = await run(['team', 'remove', 'nobody@cli-team.example']);
    expect(missing.code).toBe(3);
  });
});
