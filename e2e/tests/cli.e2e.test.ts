import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { type FerryResult, type FerryRun, lines, runFerry, spawnFerry } from '../support/cli.js';
import {
  readTree,
  readZip,
  SizeSampler,
  sha256,
  sha256File,
  sizeOf,
  waitFor,
  writeRandomFile,
  writeTree,
} from '../support/files.js';
import { FerryProcess, REPO_ROOT, tempDir } from '../support/server.js';

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;

/** Every test gets its own resume-journal folder, so nothing leaks between tests or into ~/.local/state. */
async function cliEnv(extra: Record<string, string> = {}): Promise<Record<string, string>> {
  return { FERRY_STATE_DIR: await tempDir('state'), ...extra };
}

function describeRun(run: FerryResult): string {
  return `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;
}

/** The server's tus upload files (not their .json metadata) under `<dataDir>/files/uploads`. */
async function storedUploads(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'files', 'uploads');
  try {
    return (await fs.readdir(dir)).filter((f) => !f.endsWith('.json')).map((f) => path.join(dir, f));
  } catch {
    return [];
  }
}

/** Files written under a folder (none when it does not exist). */
async function filesIn(dir: string): Promise<string[]> {
  try {
    return [...(await readTree(dir)).keys()];
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/** The request lines a server logged (pino JSON, LOG_LEVEL=info): `METHOD url`. */
function loggedRequests(output: string): string[] {
  const found: string[] = [];
  for (const line of output.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const entry = JSON.parse(line) as { req?: { method?: string; url?: string } };
      if (entry.req?.method && entry.req.url) found.push(`${entry.req.method} ${entry.req.url}`);
    } catch {}
  }
  return found;
}

describe('the ferry command against the built server', () => {
  const servers: FerryProcess[] = [];
  const dirs: string[] = [];
  let server: FerryProcess;
  let work: string;
  let logs: Array<[string, () => string]> = [];
  let running: FerryRun[] = [];

  const startServer = async () => {
    const s = await FerryProcess.start();
    servers.push(s);
    dirs.push(s.dataDir);
    return s;
  };

  beforeAll(async () => {
    server = await startServer();
    work = await tempDir('cli');
    dirs.push(work);
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      for (const [name, text] of logs) await saveArtifact(context, name, text());
      await saveArtifact(context, 'server.log', server.output);
    }
    logs = [];
    // A failed test must not leave a `ferry` retrying in the background.
    for (const run of running)
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL');
    running = [];
  });

  afterAll(async () => {
    for (const s of servers) await s.stop().catch(() => undefined);
    for (const d of dirs) await fs.rm(d, { recursive: true, force: true });
  });

  it('survives a server crash in the middle of a 1 GiB upload and resumes it after the restart', async () => {
    const size = GiB;
    const dir = path.join(work, 'big');
    const source = path.join(dir, 'one-gibibyte.bin');
    const sourceSha = await writeRandomFile(source, size);
    const first = await startServer();
    const env = await cliEnv({ FERRY_RETRY_SECONDS: '120' });
    dirs.push(env.FERRY_STATE_DIR!);
    logs.push(['first-server.log', () => first.output]);

    const send = spawnFerry(['send', source, '--server', first.url], env);
    running.push(send);
    logs.push(['send.log', () => `--- stdout\n${send.stdout}\n--- stderr\n${send.stderr}`]);
    const exited = send.done.then((r) => {
      throw new Error(`ferry send ended before the crash: ${describeRun(r)}`);
    });
    exited.catch(() => undefined);

    // Crash the server once it has ~200 MB of the file on disk: mid-upload, whatever the speed.
    const stored = await Promise.race([
      waitFor(
        async () => {
          for (const file of await storedUploads(first.dataDir))
            if (((await sizeOf(file)) ?? 0) > 200 * MiB) return file;
          return null;
        },
        { timeoutMs: 120_000, intervalMs: 20, what: 'the server to store 200 MB of the upload' },
      ),
      exited,
    ]);
    await first.kill('SIGKILL');
    const heldAtCrash = (await sizeOf(stored))!;
    expect(heldAtCrash).toBeGreaterThan(200 * MiB);
    expect(heldAtCrash, 'the crash happened before the upload finished').toBeLessThan(size);
    const sampler = new SizeSampler(stored, 50).start();

    // The CLI's journal knows the transfer and the upload URL it is resuming.
    const journalDir = path.join(env.FERRY_STATE_DIR!, 'uploads');
    const journal = await waitFor(
      async () => {
        for (const name of await fs.readdir(journalDir)) {
          const parsed = JSON.parse(await fs.readFile(path.join(journalDir, name), 'utf8')) as {
            transferId: string;
            files: Array<{ fileId: string; uploadUrl: string | null }>;
          };
          if (parsed.files[0]?.uploadUrl) return parsed;
        }
        return null;
      },
      { what: 'the send journal with an upload URL' },
    );
    const uploadId = `${journal.transferId}-${journal.files[0]!.fileId}`;
    expect(path.basename(stored)).toBe(uploadId);
    expect(new URL(journal.files[0]!.uploadUrl!).pathname).toBe(`/api/transfer/uploads/${uploadId}`);

    // Same data dir, same port: the CLI's retries reach the new process.
    const second = new FerryProcess(first.dataDir, first.port);
    servers.push(second);
    logs.push(['second-server.log', () => second.output]);
    await second.start();

    const timer = setTimeout(() => send.child.kill('SIGKILL'), 240_000);
    const result = await send.done.finally(() => {
      clearTimeout(timer);
      sampler.stop();
    });
    expect(result.code, describeRun(result)).toBe(0);
    const out = lines(result.stdout);
    expect(out, 'stdout is the link and nothing else').toHaveLength(1);
    const link = out.at(-1)!;
    expect(link).toBe(`${first.url}/dl/${journal.transferId}`);
    expect(result.stderr).toMatch(/interrupted|unreachable/);

    // Resumed, not restarted: the stored upload never went back below what the server held at the crash,
    // the restarted server was asked for the offset (HEAD) and no new upload was created (POST).
    expect(sampler.samples.length).toBeGreaterThan(0);
    expect(sampler.min()).toBeGreaterThanOrEqual(heldAtCrash);
    expect(sampler.shrank()).toBe(false);
    expect(await sizeOf(stored)).toBe(size);
    const afterRestart = loggedRequests(second.output);
    expect(afterRestart).toContain(`HEAD /api/transfer/uploads/${uploadId}`);
    expect(afterRestart.filter((r) => r.startsWith('POST /api/transfer/uploads'))).toEqual([]);
    // The journal is gone once the transfer is complete.
    expect(await fs.readdir(journalDir)).toEqual([]);

    const out2 = path.join(work, 'big-out');
    const got = await runFerry(['get', link, '--out', out2], env, 180_000);
    expect(got.code, describeRun(got)).toBe(0);
    const saved = path.join(out2, 'one-gibibyte.bin');
    expect(lines(got.stdout)).toEqual([saved]);
    expect(await sizeOf(saved)).toBe(size);
    expect(await sha256File(saved)).toBe(sourceSha);

    await second.stop();
    await fs.rm(dir, { recursive: true, force: true });
    await fs.rm(out2, { recursive: true, force: true });
    await fs.rm(first.dataDir, { recursive: true, force: true });
  });

  it('sends a folder and gets it back with its relative paths, as files and as one ZIP', async () => {
    const root = path.join(work, 'tree');
    const tree: Record<string, Buffer> = {
      'photos/readme.txt': Buffer.from('holiday photos\n'),
      'photos/2024/summer/beach.bin': Buffer.alloc(150 * 1024, 7),
      'photos/2024/winter.bin': Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) & 0xff)),
      'photos/empty.txt': Buffer.alloc(0),
    };
    await writeTree(root, tree);
    await writeTree(root, { 'notes.md': '# notes\n' });
    const expected = new Map<string, Buffer>([
      ...Object.entries(tree),
      ['notes.md', Buffer.from('# notes\n')],
    ]);
    const env = await cliEnv();
    dirs.push(env.FERRY_STATE_DIR!);

    const sent = await runFerry(
      ['send', path.join(root, 'photos'), path.join(root, 'notes.md'), '--server', server.url],
      env,
    );
    expect(sent.code, describeRun(sent)).toBe(0);
    const link = lines(sent.stdout).at(-1)!;
    expect(link).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}$`));

    const outFiles = path.join(work, 'tree-out');
    const got = await runFerry(['get', link, '--out', outFiles], env);
    expect(got.code, describeRun(got)).toBe(0);
    const downloaded = await readTree(outFiles);
    expect([...downloaded.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, bytes] of expected) expect(sha256(downloaded.get(name)!), name).toBe(sha256(bytes));
    expect(lines(got.stdout).sort()).toEqual([...expected.keys()].map((k) => path.join(outFiles, k)).sort());

    const outZip = path.join(work, 'tree-zip');
    const zipped = await runFerry(['get', link, '--out', outZip, '--zip'], env);
    expect(zipped.code, describeRun(zipped)).toBe(0);
    const zipFile = lines(zipped.stdout).at(-1)!;
    expect(path.dirname(zipFile)).toBe(outZip);
    expect(zipFile).toMatch(/\.zip$/);
    expect(await fs.readdir(outZip)).toEqual([path.basename(zipFile)]);
    const entries = await readZip(zipFile);
    expect([...entries.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [name, bytes] of expected) expect(sha256(entries.get(name)!), name).toBe(sha256(bytes));
  });

  it('exits with the documented codes, and send prints only the link on stdout', async () => {
    const dir = path.join(work, 'codes');
    await writeTree(dir, { 'a.txt': 'alpha\n', 'b.txt': 'bravo\n' });
    const env = await cliEnv();
    dirs.push(env.FERRY_STATE_DIR!);
    const out = (name: string) => path.join(work, 'codes-out', name);

    // stdout of send: the link, one line, nothing else.
    const plain = await runFerry(['send', path.join(dir, 'a.txt'), '--server', server.url], env);
    expect(plain.code, describeRun(plain)).toBe(0);
    expect(plain.stdout).toMatch(new RegExp(`^${server.url}/dl/[A-Za-z0-9]{16}\\n$`));
    expect(plain.stderr).not.toContain(plain.stdout.trim());

    // Unknown transfer → 3.
    const unknown = await runFerry(
      ['get', `${server.url}/dl/AAAAAAAAAAAAAAAA`, '--out', out('unknown')],
      env,
    );
    expect(unknown.code, describeRun(unknown)).toBe(3);
    expect(unknown.stdout).toBe('');

    // Password protected: none → 2, wrong → 2, right → 0.
    const secret = await runFerry(
      ['send', path.join(dir, 'b.txt'), '--server', server.url, '--password', 's3cret pass'],
      env,
    );
    expect(secret.code, describeRun(secret)).toBe(0);
    const secretLink = lines(secret.stdout).at(-1)!;
    const none = await runFerry(['get', secretLink, '--out', out('none')], env);
    expect(none.code, describeRun(none)).toBe(2);
    const wrong = await runFerry(['get', secretLink, '--out', out('wrong'), '--password', 'nope'], env);
    expect(wrong.code, describeRun(wrong)).toBe(2);
    expect(await filesIn(out('none'))).toEqual([]);
    expect(await filesIn(out('wrong'))).toEqual([]);
    const right = await runFerry(
      ['get', secretLink, '--out', out('right'), '--password', 's3cret pass'],
      env,
    );
    expect(right.code, describeRun(right)).toBe(0);
    expect(await fs.readFile(path.join(out('right'), 'b.txt'), 'utf8')).toBe('bravo\n');

    // --max-downloads 1: the first get works, a second one (elsewhere) hits the limit → 4.
    const limited = await runFerry(
      [
        'send',
        path.join(dir, 'a.txt'),
        path.join(dir, 'b.txt'),
        '--server',
        server.url,
        '--max-downloads',
        '1',
      ],
      env,
    );
    expect(limited.code, describeRun(limited)).toBe(0);
    const limitedLink = lines(limited.stdout).at(-1)!;
    const once = await runFerry(['get', limitedLink, '--out', out('once'), '--zip'], env);
    expect(once.code, describeRun(once)).toBe(0);
    const otherEnv = await cliEnv();
    dirs.push(otherEnv.FERRY_STATE_DIR!);
    const twice = await runFerry(['get', limitedLink, '--out', out('twice')], otherEnv);
    expect(twice.code, describeRun(twice)).toBe(4);
    expect(await filesIn(out('twice'))).toEqual([]);
  });

  it('`npx ferry --help` works from the repository root', () => {
    const res = spawnSync('npx', ['ferry', '--help'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      // Never fetch anything: the workspace's own bin link must be what runs.
      env: { ...process.env, npm_config_yes: 'false', npm_config_offline: 'true' },
    });
    expect(res.status, `${res.stdout}\n${res.stderr}`).toBe(0);
    expect(res.stdout).toMatch(/^Usage: ferry /m);
    expect(res.stdout).toContain('send');
    expect(res.stdout).toContain('get');
    expect(res.stdout).toContain('Exit codes');
  });
});
