import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { SecurityLogEntry } from '@ferry/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAccount, FakeFerryServer } from '../test/fake-server.js';
import { main } from './main.js';

/** `ferry team logs` run in process against the fake server on loopback, signed in with `ferry login`. */
let root: string;
let server: FakeFerryServer;
let manager: FakeAccount;
const PASSWORD = 'correct horse battery';

const entry = (id: number, over: Partial<SecurityLogEntry>): SecurityLogEntry => ({
  id,
  at: '2026-11-20T10:00:00.000Z',
  actor: 'ann@example.com',
  actorUserId: null,
  action: 'sign-in',
  ip: '203.0.113.5',
  userAgent: 'Firefox',
  target: null,
  details: {},
  ...over,
});

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ferry-team-logs-'));
  await mkdir(path.join(root, 'blobs'));
  server = new FakeFerryServer(path.join(root, 'blobs'));
  await server.start();
  manager = server.addAccount({ email: 'boss@example.com', password: PASSWORD, planType: 'TEAM' });
  server.addAccount({ email: 'ann@example.com', password: PASSWORD });
  server.securityLogs.set(manager.uid, [
    entry(3, { at: '2026-11-21T09:30:00.000Z', action: 'transfer-created', target: 'T1\tx' }),
    entry(2, { at: '2026-11-20T10:00:00.000Z' }),
    entry(1, { at: '2026-10-01T08:00:00.000Z', action: 'sign-in-failed', actor: null, ip: null }),
  ]);
});
afterEach(async () => {
  await server.kill();
  await rm(root, { recursive: true, force: true });
});

async function ferry(args: string[], options: { tty?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'ferry', ...args], {
    stdout: { isTTY: options.tty === true, write: (s: string) => (stdout += s) } as {
      write(s: string): unknown;
    },
    stderr: { isTTY: false, write: (s: string) => (stderr += s) },
    env: { FERRY_STATE_DIR: path.join(root, 'state') },
    signal: new AbortController().signal,
  });
  return { code, stdout, stderr };
}

const login = async (email: string) => {
  const run = await ferry(['login', '--server', server.origin, '--email', email, '--password', PASSWORD]);
  expect(run.code, run.stderr).toBe(0);
};
const logs = (args: string[], options: { tty?: boolean } = {}) =>
  ferry(['team', 'logs', ...args, '--server', server.origin], options);

describe('ferry team logs', () => {
  it('prints JSON [{at,actor,action,ip,target}], lines for scripts, a table on a terminal', async () => {
    await login('boss@example.com');
    const json = await logs(['--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        at: '2026-11-21T09:30:00.000Z',
        actor: 'ann@example.com',
        action: 'transfer-created',
        ip: '203.0.113.5',
        target: 'T1\tx',
      },
      {
        at: '2026-11-20T10:00:00.000Z',
        actor: 'ann@example.com',
        action: 'sign-in',
        ip: '203.0.113.5',
        target: null,
      },
      { at: '2026-10-01T08:00:00.000Z', actor: null, action: 'sign-in-failed', ip: null, target: null },
    ]);
    const lines = await logs([]);
    expect(lines.stdout).toBe(
      '2026-11-21T09:30:00.000Z\tann@example.com\ttransfer-created\t203.0.113.5\tT1?x\n' +
        '2026-11-20T10:00:00.000Z\tann@example.com\tsign-in\t203.0.113.5\t-\n' +
        '2026-10-01T08:00:00.000Z\t-\tsign-in-failed\t-\t-\n',
    );
    const table = await logs([], { tty: true });
    expect(table.stdout.split('\n')[0]).toMatch(/^TIME \(UTC\)\s+ACTOR\s+ACTION\s+IP\s+TARGET$/);
    expect(table.stdout).toMatch(/2026-11-21 09:30:00\s+ann@example\.com\s+transfer-created/);
  });

  it('passes --since and --action to the server, and checks them first', async () => {
    await login('boss@example.com');
    const run = await logs(['--json', '--since', '2026-11-01', '--action', 'sign-in']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).map((e: { at: string }) => e.at)).toEqual(['2026-11-20T10:00:00.000Z']);
    expect(server.securityLogQueries.at(-1)).toContain('from=2026-11-01');
    expect(server.securityLogQueries.at(-1)).toContain('action=sign-in');

    const badAction = await logs(['--action', 'sign-in-twice']);
    expect(badAction.code).toBe(1);
    expect(badAction.stderr).toContain('sign-in-failed');
    expect((await logs(['--since', '2026-13-01'])).code).toBe(1);
  });

  it('exits 2 when not signed in; an account without a team lists its own log', async () => {
    expect((await logs([])).code).toBe(2);
    await login('ann@example.com');
    // Without a manager, the team is the account's own (its uid); ann's log is empty.
    const own = await logs(['--json']);
    expect([own.code, own.stdout.trim()]).toEqual([0, '[]']);
  });

  it("reads a member's team log at the manager's uid; exits 3 when the server refuses it", async () => {
    server.addAccount({ email: 'member@example.com', password: PASSWORD }).managerId = manager.uid;
    await login('member@example.com');
    const run = await logs(['--json']);
    expect(run.code).toBe(3);
    expect(run.stderr).toContain('USER_MANAGER');
    expect(server.securityLogQueries.at(-1)?.split(' ')[0]).toBe(manager.uid);
  });
});
