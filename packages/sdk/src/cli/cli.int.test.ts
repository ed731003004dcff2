import { createHash, randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeFerryServer } from '../test/fake-server.js';
import { main } from './main.js';

/** `ferry` run in process against a fake server on loopback (src/test/fake-server.ts), with real files. */
let root: string;
let server: FakeFerryServer;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'ferry-cli-'));
  await mkdir(path.join(root, 'blobs'));
  server = new FakeFerryServer(path.join(root, 'blobs'));
  await server.start();
});
afterEach(async () => {
  await server.kill();
  await rm(root, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function ferry(
  args: string[],
  options: { abort?: AbortController; env?: NodeJS.ProcessEnv } = {},
): Promise<Run> {
  let stdout = '';
  let stderr = '';
  const code = await main(['node', 'ferry', ...args], {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { isTTY: false, write: (s: string) => (stderr += s) },
    env: { FERRY_STATE_DIR: path.join(root, 'state'), ...options.env },
    signal: (options.abort ?? new AbortController()).signal,
  });
  return { code, stdout, stderr };
}

async function file(relative: string, bytes: number): Promise<string> {
  const p = path.join(root, 'src', relative);
  await mkdir(path.dirname(p), { recursive: true });
  await writeFile(p, randomBytes(bytes));
  return p;
}

const sha = async (p: string) =>
  createHash('sha256')
    .update(await readFile(p))
    .digest('hex');
const journals = async (kind: 'uploads' | 'downloads') =>
  (await readdir(path.join(root, 'state', kind)).catch(() => [])).filter((n) => n.endsWith('.json'));

describe('ferry send / get against a server', () => {
  it('sends a folder and a file, prints only the link, then gets them back verified', async () => {
    const a = await file('docs/a.txt', 1000);
    await file('docs/sub/b.bin', 300_000);
    await file('docs/run.exe', 10);
    const loose = await file('c.dat', 0);
    const sent = await ferry(['send', path.join(root, 'src', 'docs'), loose, '--server', server.origin]);
    expect(sent.stderr).toContain('skipping');
    expect(sent.stderr).toContain('run.exe');
    expect(sent.code).toBe(0);
    const lines = sent.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const link = lines[0] ?? '';
    expect(link).toMatch(new RegExp(`^${server.origin}/dl/[A-Za-z0-9]{16}$`));
    const transfer = [...server.state.transfers.values()][0];
    expect(transfer?.status).toBe('ENABLED');
    expect(transfer?.files.map((f) => f.relativePath ?? f.name).sort()).toEqual([
      'c.dat',
      'docs/a.txt',
      'docs/sub/b.bin',
    ]);
    expect(await journals('uploads')).toEqual([]);

    const out = path.join(root, 'out');
    const got = await ferry(['get', link, '--out', out]);
    expect(got.code).toBe(0);
    expect(got.stdout.trim().split('\n').sort()).toEqual(
      [path.join(out, 'c.dat'), path.join(out, 'docs/a.txt'), path.join(out, 'docs/sub/b.bin')].sort(),
    );
    expect(await sha(path.join(out, 'docs/a.txt'))).toBe(await sha(a));
    expect(await sha(path.join(out, 'docs/sub/b.bin'))).toBe(
      await sha(path.join(root, 'src/docs/sub/b.bin')),
    );
    expect(await journals('downloads')).toEqual([]);

    // Run again: everything is already there and verified; no download is counted.
    const calls = server.state.linkCalls;
    const again = await ferry(['get', link, '--out', out]);
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('already downloaded');
    expect(server.state.linkCalls).toBe(calls);
  });

  it('survives a server restart mid-upload and continues from the server offset', async () => {
    const big = await file('big.bin', 12 * 1024 * 1024);
    let killed = false;
    server.onBytes = (total) => {
      if (killed || total < 5 * 1024 * 1024) return;
      killed = true;
      void server.kill().then(() => setTimeout(() => void server.start(), 1500));
    };
    const sent = await ferry(['send', big, '--server', server.origin]);
    expect(sent.stderr).not.toContain('Error');
    expect(sent.code).toBe(0);
    expect(killed).toBe(true);
    expect(sent.stderr).toMatch(/interrupted|unreachable/);
    expect(server.state.resumedAt.length).toBeGreaterThan(0);
    expect(server.state.resumedAt[0]).toBeGreaterThan(0);
    // Not sent again from zero: at most the bytes lost in flight are repeated.
    expect(server.state.receivedBytes).toBeLessThan(12 * 1024 * 1024 * 1.5);
    const transfer = [...server.state.transfers.values()][0];
    expect(transfer?.status).toBe('ENABLED');
    expect(transfer?.files[0]?.sha256).toBe(await sha(big));
  }, 60_000);

  it('resumes the same transfer when run again after being interrupted', async () => {
    const big = await file('big.bin', 8 * 1024 * 1024);
    const abort = new AbortController();
    server.onBytes = (total) => {
      if (total > 3 * 1024 * 1024) abort.abort(new Error('interrupted'));
    };
    const first = await ferry(['send', big, '--server', server.origin, '--name', 'Big'], { abort });
    expect(first.code).toBe(130);
    expect(first.stderr).toContain('run the same command again');
    expect(first.stdout).toBe('');
    expect(await journals('uploads')).toHaveLength(1);
    server.onBytes = null;
    const before = server.state.receivedBytes;

    const second = await ferry(['send', big, '--server', server.origin, '--name', 'Big']);
    expect(second.code).toBe(0);
    expect(server.state.transfers.size).toBe(1); // the same transfer, not a new one
    expect(server.state.resumedAt.at(-1)).toBeGreaterThan(0);
    expect(server.state.receivedBytes - before).toBeLessThan(8 * 1024 * 1024);
    expect(await journals('uploads')).toEqual([]);
    const transfer = [...server.state.transfers.values()][0];
    expect(second.stdout.trim()).toBe(`${server.origin}/dl/${transfer?.transferId}`);
  }, 60_000);

  it('starts a new transfer when the options differ from the interrupted one', async () => {
    const big = await file('big.bin', 4 * 1024 * 1024);
    const abort = new AbortController();
    server.onBytes = () => abort.abort(new Error('interrupted'));
    expect((await ferry(['send', big, '--server', server.origin], { abort })).code).toBe(130);
    server.onBytes = null;
    const second = await ferry(['send', big, '--server', server.origin, '--password', 'pw']);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('options differ');
    expect(server.state.transfers.size).toBe(2);
  }, 30_000);

  it('starts over when the server no longer knows the interrupted transfer', async () => {
    const big = await file('big.bin', 4 * 1024 * 1024);
    const abort = new AbortController();
    server.onBytes = () => abort.abort(new Error('interrupted'));
    expect((await ferry(['send', big, '--server', server.origin], { abort })).code).toBe(130);
    server.onBytes = null;
    server.state.transfers.clear(); // e.g. the unfinished upload expired on the server
    const second = await ferry(['send', big, '--server', server.origin]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('cannot be resumed');
    expect(second.stdout.trim()).toMatch(/\/dl\/[A-Za-z0-9]{16}$/);
    expect([...server.state.transfers.values()][0]?.status).toBe('ENABLED');
  });

  it('prints the link of a transfer an earlier run completed without getting the answer', async () => {
    const src = await file('small.txt', 10);
    server.loseNextCompleteAnswer = true;
    const first = await ferry(['send', src, '--server', server.origin]);
    expect(first.code).toBe(1);
    expect(first.stdout).toBe('');
    const transfer = [...server.state.transfers.values()][0];
    expect(transfer?.status).toBe('ENABLED');
    const second = await ferry(['send', src, '--server', server.origin]);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(`${server.origin}/dl/${transfer?.transferId}\n`);
    expect(server.state.transfers.size).toBe(1);
    expect(await journals('uploads')).toEqual([]);
  });

  it('resumes a partial download with Range and verifies it', async () => {
    const src = await file('data.bin', 2 * 1024 * 1024);
    const link = (await ferry(['send', src, '--server', server.origin])).stdout.trim();
    const out = path.join(root, 'out');
    expect((await ferry(['get', link, '--out', out])).code).toBe(0);
    await truncate(path.join(out, 'data.bin'), 1000);
    const again = await ferry(['get', link, '--out', out]);
    expect(again.code).toBe(0);
    expect(server.state.rangeStarts).toEqual([1000]);
    expect(await sha(path.join(out, 'data.bin'))).toBe(await sha(src));
  });

  it('resumes an interrupted get with the saved URL: Range, and no second download counted', async () => {
    const src = await file('large.bin', 32 * 1024 * 1024);
    const link = (await ferry(['send', src, '--server', server.origin])).stdout.trim();
    const out = path.join(root, 'out');
    const abort = new AbortController();
    server.onBlobBytes = (total) => {
      if (total > 2 * 1024 * 1024) abort.abort(new Error('interrupted'));
    };
    const first = await ferry(['get', link, '--out', out], { abort });
    expect(first.code).toBe(130);
    expect(first.stdout).toBe('');
    expect(await journals('downloads')).toHaveLength(1);
    server.onBlobBytes = null;
    const calls = server.state.linkCalls;
    const second = await ferry(['get', link, '--out', out]);
    expect(second.code).toBe(0);
    expect(server.state.linkCalls).toBe(calls);
    expect(server.state.rangeStarts.at(-1)).toBeGreaterThan(0);
    expect(await sha(path.join(out, 'large.bin'))).toBe(await sha(src));
    expect(await journals('downloads')).toEqual([]);
  });

  it('survives a server restart mid-download, continuing with Range', async () => {
    const src = await file('large.bin', 32 * 1024 * 1024);
    const link = (await ferry(['send', src, '--server', server.origin])).stdout.trim();
    let killed = false;
    server.onBlobBytes = (total) => {
      if (killed || total < 2 * 1024 * 1024) return;
      killed = true;
      void server.kill().then(() => setTimeout(() => void server.start(), 1000));
    };
    const out = path.join(root, 'out');
    const got = await ferry(['get', link, '--out', out]);
    expect(got.code).toBe(0);
    expect(killed).toBe(true);
    expect(got.stderr).toContain('interrupted; retrying');
    expect(server.state.rangeStarts.at(-1)).toBeGreaterThan(0);
    expect(await sha(path.join(out, 'large.bin'))).toBe(await sha(src));
  }, 30_000);

  it('removes a download whose SHA-256 does not match and exits 1', async () => {
    const src = await file('data.bin', 100_000);
    const link = (await ferry(['send', src, '--server', server.origin])).stdout.trim();
    const out = path.join(root, 'out');
    await mkdir(out);
    await writeFile(path.join(out, 'data.bin'), randomBytes(500)); // a "partial" file that is not a prefix
    const got = await ferry(['get', link, '--out', out]);
    expect(got.code).toBe(1);
    expect(got.stderr).toMatch(/^ferry: .*SHA-256 mismatch/m);
    expect(await readdir(out)).toEqual([]);
  });

  it('downloads one file of a file link, and the whole transfer with --zip', async () => {
    await file('two/a.txt', 10);
    await file('two/b.txt', 20);
    const link = (await ferry(['send', path.join(root, 'src/two'), '--server', server.origin])).stdout.trim();
    const transfer = [...server.state.transfers.values()][0];
    const b = transfer?.files.find((f) => f.name === 'b.txt');
    const out = path.join(root, 'out');
    const one = await ferry(['get', `${link}/${b?.id}`, '--out', out]);
    expect(one.code).toBe(0);
    expect(one.stdout.trim()).toBe(path.join(out, 'two/b.txt'));
    const zip = await ferry(['get', link, '--out', out, '--zip']);
    expect(zip.code).toBe(0);
    expect(zip.stdout.trim()).toBe(path.join(out, 'transfer.zip'));
  });

  it('exits 2 without or with a wrong password, and works with the right one', async () => {
    const src = await file('secret.txt', 10);
    const link = (await ferry(['send', src, '--server', server.origin, '-p', 'open sesame'])).stdout.trim();
    const out = path.join(root, 'out');
    const none = await ferry(['get', link, '--out', out]);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe('ferry: this transfer is password protected; pass --password\n');
    const wrong = await ferry(['get', link, '--out', out, '--password', 'nope']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toBe('ferry: wrong password\n');
    expect((await ferry(['get', link, '--out', out, '--password', 'open sesame'])).code).toBe(0);
  });

  it('exits 3 for an unknown transfer and 4 once the download limit is reached', async () => {
    const missing = await ferry(['get', `${server.origin}/dl/AAAAAAAAAAAAAAAA`]);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toBe('ferry: transfer not found (check the link)\n');
    const src = await file('once.txt', 10);
    const link = (
      await ferry(['send', src, '--server', server.origin, '--max-downloads', '1'])
    ).stdout.trim();
    expect((await ferry(['get', link, '--out', path.join(root, 'o1')])).code).toBe(0);
    const second = await ferry(['get', link, '--out', path.join(root, 'o2')]);
    expect(second.code).toBe(4);
    expect(second.stderr).toBe('ferry: this transfer has reached its download limit\n');
  });

  it('refuses a transfer whose paths would escape the output folder', async () => {
    const src = await file('x.txt', 10);
    const link = (await ferry(['send', src, '--server', server.origin])).stdout.trim();
    const transfer = [...server.state.transfers.values()][0];
    if (transfer?.files[0]) transfer.files[0].relativePath = '../../escaped.txt';
    const got = await ferry(['get', link, '--out', path.join(root, 'out')]);
    expect(got.code).toBe(1);
    expect(got.stderr).toContain('refusing unsafe path');
    expect(await readdir(root)).not.toContain('escaped.txt');
  });

  it('reports a limit error of the server on one line and exits 1', async () => {
    for (let i = 0; i < 6; i++) await file(`many/f${i}.txt`, 1);
    const sent = await ferry(['send', path.join(root, 'src/many'), '--server', server.origin]);
    expect(sent.code).toBe(1);
    expect(sent.stderr).toBe('ferry: Too many files. (files: 6 > max 5)\n');
  });

  it('says so when the server cannot be reached', async () => {
    const src = await file('x.txt', 1);
    await server.kill();
    const sent = await ferry(['send', src, '--server', server.origin], { env: { FERRY_RETRY_SECONDS: '1' } });
    expect(sent.code).toBe(1);
    expect(sent.stderr).toContain('unreachable, retrying');
    expect(sent.stderr.trim().split('\n').at(-1)).toMatch(/^ferry: cannot reach http:\/\/127\.0\.0\.1:\d+/);
  });
});
