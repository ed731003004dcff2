import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { TransferDetail, TransferListItem } from '@ferry/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CredentialStore } from './credentials.js';
import { main } from './main.js';

/**
 * The dashboard commands' own logic (sign-in check, confirmation, paging, the expiry's last day, errors in
 * words) against a scripted `fetch`: what the server answers is set per test; every request is recorded.
 */

const SERVER = 'http://ferry.test';
const ID = 'AbCdEfGh12345678';

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
  auth: string | null;
}

type Answer = { status: number; body?: unknown };
let calls: Call[];
let answer: (call: Call) => Answer;
let stateDir: string;
const savedTZ = process.env.TZ;

beforeEach(async () => {
  stateDir = await mkdtemp(path.join(tmpdir(), 'ferry-transfer-cmd-'));
  calls = [];
  answer = () => ({ status: 500, body: { status: 500, error: 'Internal', message: 'unscripted' } });
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const url = new URL(input);
    const call: Call = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined,
      auth: new Headers(init.headers).get('authorization'),
    };
    calls.push(call);
    const { status, body } = answer(call);
    return new Response(body === undefined ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
});
afterEach(async () => {
  vi.unstubAllGlobals();
  if (savedTZ === undefined) delete process.env.TZ;
  else process.env.TZ = savedTZ;
  await rm(stateDir, { recursive: true, force: true });
});

async function signIn(): Promise<void> {
  await new CredentialStore(stateDir).put({
    server: SERVER,
    kind: 'api-token',
    token: 'fry_secret',
    email: 'ann@example.com',
    uid: 'u1',
    planType: 'NONE',
    expiresAt: '',
  });
}

async function ferry(args: string[], options: { tty?: boolean; typed?: string; stdoutTTY?: boolean } = {}) {
  let stdout = '';
  let stderr = '';
  const stdin = Object.assign(new PassThrough(), { isTTY: options.tty === true });
  stdin.end(options.typed ?? '');
  const code = await main(['node', 'ferry', ...args], {
    stdout: { isTTY: options.stdoutTTY === true, write: (s: string) => (stdout += s) } as never,
    stderr: { isTTY: false, write: (s: string) => (stderr += s) },
    env: { FERRY_STATE_DIR: stateDir, FERRY_SERVER: SERVER, FERRY_RETRY_SECONDS: '0', TZ: process.env.TZ },
    signal: new AbortController().signal,
    stdin,
  });
  return { code, stdout, stderr };
}

const item = (id: string): TransferListItem => ({
  id,
  type: 'S2',
  status: 'ENABLED',
  statusLabel: 'enabled',
  name: `name ${id}`,
  link: `${SERVER}/dl/${id}`,
  createdAt: '2030-01-01T10:00:00.000Z',
  expiresAt: '2030-01-08T10:00:00.000Z',
  expired: false,
  totalSize: 10,
  fileCount: 1,
  recipientCount: 0,
  senderEmailVerified: true,
  downloadCount: 0,
  passwordProtected: false,
  senderEmail: 'ann@example.com',
  direction: 'sent',
});

function detail(over: Partial<TransferDetail> = {}): TransferDetail {
  return {
    transferId: ID,
    type: 'S2',
    status: 'ENABLED',
    statusLabel: 'enabled',
    name: 'Report',
    link: `${SERVER}/dl/${ID}`,
    expiresAt: '2030-01-08T10:00:00.000Z',
    createdAt: '2030-01-01T10:00:00.000Z',
    totalSize: 10,
    files: [
      { id: 'f00001', name: 'a.txt', relativePath: null, size: 10, sha256: 'a'.repeat(64), uploaded: true },
    ],
    senderEmail: null,
    senderVerification: 'not_needed',
    sentAt: null,
    recipients: [],
    notifications: {
      downloadConfirmation: false,
      expiryReminder: false,
      summary: false,
      forceEmailWhenDownloadS2: false,
    },
    ownerId: 'u1',
    expired: false,
    bytesDeletedAt: null,
    message: null,
    maxDownloads: null,
    allowPreview: true,
    passwordProtected: false,
    downloadCount: 0,
    fileCount: 1,
    downloads: [],
    events: [],
    clonedFrom: null,
    additions: [],
    price: null,
    sales: [],
    ...over,
  };
}

const notFound = {
  status: 404,
  body: { status: 404, error: 'Not Found', message: 'x', codes: ['TRANSFER_NOT_FOUND'] },
};

describe('signed in or not', () => {
  it('exits 2 with "run ferry login" before asking the server anything', async () => {
    for (const args of [['transfers'], ['transfer', 'show', ID], ['transfer', 'delete', ID, '--yes']]) {
      const run = await ferry(args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toBe(`ferry: not signed in to ${SERVER}; run ferry login\n`);
      expect(run.stdout).toBe('');
    }
    expect(calls).toEqual([]);
  });

  it('sends the stored credential; a transfer that is not yours exits 3, in words', async () => {
    await signIn();
    answer = () => notFound;
    const run = await ferry(['transfer', 'rename', `${SERVER}/dl/${ID}`, 'New name']);
    expect(run.code).toBe(3);
    expect(run.stderr).toBe(
      `ferry: no transfer ${ID} among yours on ${SERVER} (unknown, or not yours to manage)\n`,
    );
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'PATCH',
      path: `/api/transfer/transfers/${ID}`,
      body: { name: 'New name' },
      auth: 'Bearer fry_secret',
    });
  });

  it('refuses a link to another server than --server', async () => {
    await signIn();
    const run = await ferry(['transfer', 'show', `https://other.test/dl/${ID}`, '--server', SERVER]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the link is on https://other.test, but --server says http://ferry.test');
    expect(calls).toEqual([]);
  });
});

describe('ferry transfers', () => {
  beforeEach(signIn);

  it('--json follows every page, with files, and prints one array', async () => {
    answer = (call) => {
      const cursor = call.query.get('cursor');
      if (!cursor)
        return {
          status: 200,
          body: {
            items: [item('A000000000000001'), item('A000000000000002')],
            nextCursor: 'c1',
            total: 3,
            totalIsCapped: false,
            storage: { used: 30, limit: 1000 },
          },
        };
      return {
        status: 200,
        body: {
          items: [item('A000000000000003')],
          nextCursor: null,
          total: 3,
          totalIsCapped: false,
          storage: { used: 30, limit: 1000 },
        },
      };
    };
    const run = await ferry([
      'transfers',
      '--json',
      '--search',
      'rep',
      '--type',
      's2',
      '--status',
      'pending',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).map((t: TransferListItem) => t.id)).toEqual([
      'A000000000000001',
      'A000000000000002',
      'A000000000000003',
    ]);
    expect(run.stderr).toBe('');
    expect(calls.map((c) => Object.fromEntries(c.query))).toEqual([
      { q: 'rep', type: 'S2', status: 'MODERATING,PENDING', withFiles: 'true', limit: '100' },
      { q: 'rep', type: 'S2', status: 'MODERATING,PENDING', withFiles: 'true', limit: '100', cursor: 'c1' },
    ]);
  });

  it('without --all: the first page, tab-separated when not a terminal, and a word on stderr about the rest', async () => {
    answer = () => ({
      status: 200,
      body: {
        items: [item('A000000000000001')],
        nextCursor: 'c1',
        total: 40,
        totalIsCapped: false,
        storage: { used: 0, limit: 1 },
      },
    });
    const run = await ferry(['transfers', '--limit', '1']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toBe(
      'A000000000000001\tS2\tenabled\t10\t2030-01-08T10:00:00.000Z\t0\tname A000000000000001\n',
    );
    expect(run.stderr).toBe('Showing 1 of 40 transfers: --all lists every one, --limit N the first N\n');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.query.get('limit')).toBe('1');
  });

  it('refuses an unknown status before asking the server', async () => {
    const run = await ferry(['transfers', '--status', 'gone']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('unknown status "gone"');
    expect(calls).toEqual([]);
  });
});

describe('ferry transfer expire', () => {
  beforeEach(signIn);

  it('refuses a malformed date or a day that is over before anything else, with exit 1', async () => {
    for (const day of ['2030-02-30', '31/01/2030', '2001-01-01']) {
      const run = await ferry(['transfer', 'expire', ID, day]);
      expect(run.code, day).toBe(1);
      expect(run.stderr).toMatch(
        day === '2001-01-01' ? /is over already/ : /not a date: .* \(expected YYYY-MM-DD/,
      );
    }
    expect(calls).toEqual([]);
  });

  it('sends the end of the local day; on the last day allowed, the last moment allowed', async () => {
    const latest = '2030-01-08T10:00:00.000Z';
    answer = (call) => {
      const wanted = (call.body as { expiresAt: string }).expiresAt;
      if (Date.parse(wanted) > Date.parse(latest))
        return {
          status: 400,
          body: {
            status: 400,
            error: 'Bad Request',
            message: 'Longer than your plan allows',
            codes: ['LIMIT_EXCEEDED'],
            limitErrors: [{ limit: 'fileValidityInDays', max: 7, actual: 8 }],
            details: { latest },
          },
        };
      return { status: 200, body: detail({ expiresAt: wanted }) };
    };
    process.env.TZ = 'UTC';
    const lastDay = await ferry(['transfer', 'expire', ID, '2030-01-08']);
    expect(lastDay.code, lastDay.stderr).toBe(0);
    expect(calls.map((c) => (c.body as { expiresAt: string }).expiresAt)).toEqual([
      '2030-01-08T23:59:59.999+00:00',
      latest,
    ]);
    expect(lastDay.stderr).toBe(
      `${ID} now expires on 2030-01-08 10:00 local time (the last moment your plan allows)\n`,
    );

    calls = [];
    const tooLate = await ferry(['transfer', 'expire', ID, '2030-01-20']);
    expect(tooLate.code).toBe(1);
    expect(tooLate.stderr).toBe(
      'ferry: 2030-01-20 is later than your plan allows: a transfer is kept at most 7 days from its creation, ' +
        `so ${ID} can expire on 2030-01-08 10:00 (local time) at the latest\n`,
    );
    expect(calls).toHaveLength(1);
  });
});

describe('ferry transfer delete', () => {
  beforeEach(signIn);

  it('without a terminal and without --yes, refuses with exit 1 and deletes nothing', async () => {
    const run = await ferry(['transfer', 'delete', ID]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pass --yes');
    expect(calls).toEqual([]);
  });

  it('on a terminal, asks (naming the transfer) and deletes only on yes', async () => {
    answer = (call) => (call.method === 'DELETE' ? { status: 204 } : { status: 200, body: detail() });
    const no = await ferry(['transfer', 'delete', ID], { tty: true, typed: 'n\n' });
    expect(no.code).toBe(0);
    expect(no.stderr).toContain(
      `Delete ${ID} "Report" (1 file, 10 B, enabled)? Its files are deleted for good. [y/N]`,
    );
    expect(no.stderr).toContain('Not deleted');
    expect(calls.map((c) => c.method)).toEqual(['GET']);

    calls = [];
    const yes = await ferry(['transfer', 'delete', ID], { tty: true, typed: 'y\n' });
    expect(yes.code, yes.stderr).toBe(0);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `GET /api/transfer/transfers/${ID}/detail`,
      `DELETE /api/transfer/transfers/${ID}`,
    ]);
    expect(yes.stderr).toContain(`Deleted ${ID}`);
  });

  it('with --yes, deletes without asking; a refusal by the server is said in its words', async () => {
    answer = () => ({
      status: 409,
      body: { status: 409, error: 'Conflict', message: 'This transfer is deleted.', codes: ['CONFLICT'] },
    });
    const run = await ferry(['transfer', 'delete', ID, '--yes']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('ferry: the server refused: This transfer is deleted.\n');
    expect(calls.map((c) => c.method)).toEqual(['DELETE']);
  });
});

describe('ferry transfer clone', () => {
  beforeEach(signIn);
  const CLONE = 'ClOnE12345678901';

  it('clones with the name given, waits while the files are copied, then prints the link', async () => {
    let polls = 0;
    answer = (call) => {
      if (call.method === 'POST')
        return {
          status: 201,
          body: detail({
            transferId: CLONE,
            status: 'CLONING',
            statusLabel: 'cloning',
            name: 'Copy',
            clonedFrom: ID,
          }),
        };
      polls++;
      return {
        status: 200,
        body: detail({ transferId: CLONE, name: 'Copy', link: `${SERVER}/dl/${CLONE}`, clonedFrom: ID }),
      };
    };
    const run = await ferry(['transfer', 'clone', ID, '--name', ' Copy ']);
    expect(run.code, run.stderr).toBe(0);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      `POST /api/transfer/transfers/${ID}/clone`,
      `GET /api/transfer/transfers/${CLONE}/detail`,
    ]);
    expect(calls[0]?.body).toEqual({ name: 'Copy' });
    expect(polls).toBe(1);
    expect(run.stdout).toBe(`${SERVER}/dl/${CLONE}\n`);
    expect(run.stderr).toContain(`Cloned ${ID} into ${CLONE}`);
  });

  it('says in words why the server refuses (a transfer still uploading), exit 1; not yours, exit 3', async () => {
    answer = () => ({
      status: 409,
      body: {
        status: 409,
        error: 'Conflict',
        message: 'This transfer is still being uploaded.',
        codes: ['CONFLICT'],
      },
    });
    const refused = await ferry(['transfer', 'clone', ID]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('ferry: the server refused: This transfer is still being uploaded.\n');
    expect(calls[0]?.body).toEqual({});
    answer = () => notFound;
    expect((await ferry(['transfer', 'clone', ID])).code).toBe(3);
  });
});
