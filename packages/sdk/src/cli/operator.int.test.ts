import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAccount, FakeFerryServer } from '../test/fake-server.js';
import { main } from './main.js';

/** `ferry operator …` run in process against the fake server on loopback, signed in with `ferry login`. */
let root: string;
let server: FakeFerryServer;
let bob: FakeAccount;
const PASSWORD = 'correct horse battery';

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ferry-operator-'));
  await mkdir(path.join(root, 'blobs'));
  server = new FakeFerryServer(path.join(root, 'blobs'));
  await server.start();
  server.addAccount({ email: 'op@example.com', password: PASSWORD });
  server.operators.add('op@example.com');
  server.addAccount({ email: 'ann@example.com', password: PASSWORD, planType: 'PREMIUM' });
  bob = server.addAccount({ email: 'Bob@Example.com', password: PASSWORD });
  server.addAccount({ email: 'bobby@example.com', password: PASSWORD });
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
const op = (args: string[], options: { tty?: boolean } = {}) =>
  ferry(['operator', ...args, '--server', server.origin], options);

describe('ferry operator users / suspend / unsuspend', () => {
  it('lists accounts as JSON, tab-separated lines, or a table on a terminal', async () => {
    await login('op@example.com');
    const json = await op(['users', '--search', 'bob', '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual([
      {
        uid: bob.uid,
        email: 'Bob@Example.com',
        planType: 'NONE',
        planCode: null,
        planEndsAt: null,
        suspended: false,
      },
      expect.objectContaining({ email: 'bobby@example.com' }),
    ]);
    const lines = await op(['users']);
    expect(lines.stdout.trim().split('\n')).toHaveLength(4);
    expect(lines.stdout).toContain(`\tann@example.com\tPREMIUM\tPREMIUM\t-\t0\tactive\n`);
    const table = await op(['users', '--search', 'ann'], { tty: true });
    expect(table.stdout.split('\n')[0]).toMatch(
      /^EMAIL\s+PLAN\s+CODE\s+ENDS\s+STORAGE\s+LAST SIGN-IN\s+STATE$/,
    );
    expect(table.stdout).toMatch(/ann@example\.com\s+PREMIUM\s+PREMIUM\s+-\s+0 B\s+-\s+active/);
  });

  it('suspends and unsuspends an account found by its exact address, in any case', async () => {
    await login('op@example.com');
    const suspended = await op(['suspend', 'bob@example.com']);
    expect(suspended.code, suspended.stderr).toBe(0);
    expect(suspended.stderr).toBe('Bob@Example.com: suspended\n');
    expect(bob.suspended).toBe(true);
    expect(server.state.accounts.get('bobby@example.com')?.suspended).toBeUndefined();
    expect(JSON.parse((await op(['users', '--search', 'bob@', '--json'])).stdout)[0].suspended).toBe(true);
    const lifted = await op(['unsuspend', 'BOB@example.com']);
    expect([lifted.code, lifted.stderr]).toEqual([0, 'Bob@Example.com: active\n']);
    expect(bob.suspended).toBe(false);
    expect(server.operatorActions).toEqual(['suspend Bob@Example.com', 'unsuspend Bob@Example.com']);
  });

  it('exits 3 for an unknown address, 1 for a refused change, 2 when not signed in', async () => {
    expect(await op(['users'])).toMatchObject({ code: 2, stdout: '' });
    await login('op@example.com');
    const unknown = await op(['suspend', 'bo@example.com']);
    expect([unknown.code, unknown.stderr]).toEqual([
      3,
      `ferry: no account bo@example.com on ${server.origin}\n`,
    ]);
    const self = await op(['suspend', 'op@example.com']);
    expect(self.code).toBe(1);
    expect(self.stderr).toContain('cannot suspend their own account');
  });

  it('tells a non-operator so and exits 1', async () => {
    await login('ann@example.com');
    for (const args of [
      ['users'],
      ['suspend', 'bob@example.com'],
      ['invoices'],
      ['mark-paid', 'FRY-2026-000001'],
    ]) {
      const run = await op(args);
      expect([run.code, run.stdout, run.stderr]).toEqual([
        1,
        '',
        `ferry: not an operator on this server (${server.origin})\n`,
      ]);
    }
    expect(bob.suspended).toBeUndefined();
  });
});

describe('ferry operator set-plan / invoices / mark-paid', () => {
  it('sets a plan with its last day and seats, lists open invoices and marks one paid', async () => {
    await login('op@example.com');
    const set = await op(['set-plan', 'bob@example.com', 'custom', '--until', '2026-12-31', '--seats', '12']);
    expect([set.code, set.stderr]).toEqual([
      0,
      'Bob@Example.com: ENTERPRISE (CUSTOM), 12 seats until 2026-12-31\n',
    ]);
    expect(bob).toMatchObject({ planCode: 'CUSTOM', seats: 12, planEndsAt: '2026-12-31T23:59:59.999Z' });
    server.invoices.push({
      number: 'FRY-2026-000001',
      email: bob.email,
      uid: bob.uid,
      amountDue: 9600,
      total: 9600,
      currency: 'EUR',
      status: 'open',
      provider: 'MANUAL',
      issuedAt: '2026-11-27T10:00:00.000Z',
      paidAt: null,
      pdfUrl: '/api/pay/invoices/FRY-2026-000001/pdf',
    });
    const open = await op(['invoices', '--open', '--json']);
    expect(open.stderr).toBe('');
    expect(JSON.parse(open.stdout)).toEqual([
      {
        number: 'FRY-2026-000001',
        email: 'Bob@Example.com',
        amountDue: 9600,
        currency: 'EUR',
        status: 'open',
        issuedAt: '2026-11-27T10:00:00.000Z',
      },
    ]);
    const paid = await op(['mark-paid', 'FRY-2026-000001']);
    expect([paid.code, paid.stderr]).toEqual([0, 'FRY-2026-000001: paid (Bob@Example.com)\n']);
    expect((await op(['invoices', '--open'])).stdout).toBe('');
    expect((await op(['invoices'])).stdout).toBe(
      'FRY-2026-000001\tBob@Example.com\t0\tEUR\tpaid\t2026-11-27T10:00:00.000Z\n',
    );
    const again = await op(['mark-paid', 'FRY-2026-000001']);
    expect(again.code).toBe(1);
    const missing = await op(['mark-paid', 'FRY-2026-000999']);
    expect([missing.code, missing.stderr]).toEqual([
      3,
      `ferry: no invoice FRY-2026-000999 on ${server.origin}\n`,
    ]);
  });

  it('refuses malformed plan codes, days and seats before asking the server', async () => {
    await login('op@example.com');
    const before = server.state.requests.length;
    for (const args of [
      ['set-plan', 'bob@example.com', 'GOLD'],
      ['set-plan', 'bob@example.com', 'PREMIUM', '--until', '2026-02-30'],
      ['set-plan', 'bob@example.com', 'CUSTOM', '--seats', '0'],
      ['set-plan', 'bob@example.com', 'PREMIUM', '--seats', '3'],
    ]) {
      const run = await op(args);
      expect(run.code, args.join(' ')).toBe(1);
    }
    expect(server.state.requests.length).toBe(before);
  });
});
