import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { type FerryResult, lines, runFerry } from '../support/cli.js';
import { writeRandomFile } from '../support/files.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, freePort, tempDir } from '../support/server.js';

/**
 * `ferry transfer clone` and `ferry transfer add` against the built server (local disk storage): the clone's files
 * are hard links of the source's, added files are uploaded with tus and joined to the transfer, and another
 * account is told the transfer is not theirs (exit 3).
 */

const PASSWORD = 'a long enough passphrase';

const describeRun = (run: FerryResult) =>
  `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

interface Detail {
  transferId: string;
  name: string | null;
  status: string;
  clonedFrom: string | null;
  files: Array<{
    id: string;
    name: string;
    relativePath: string | null;
    size: number;
    sha256: string | null;
  }>;
  events: Array<{ type: string; data: Record<string, unknown> }>;
}

const sha256 = async (file: string) =>
  createHash('sha256')
    .update(await fs.readFile(file))
    .digest('hex');

describe('ferry transfer clone / add against the built server', () => {
  let server: FerryProcess;
  let work: string;
  let logs: Array<[string, string]> = [];

  const ferry = async (args: string[], state = 'ann') => {
    const run = await runFerry(args, { FERRY_STATE_DIR: path.join(work, state), FERRY_SERVER: server.url });
    logs.push([
      `${logs.length}-${state}-${args.slice(0, 2).join('-')}.log`,
      `$ ferry ${args.join(' ')}\n${describeRun(run)}`,
    ]);
    return run;
  };

  const signUpAndLogin = async (email: string, state: string) => {
    const post = (route: string, body: unknown) =>
      fetch(`${server.url}${route}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect((await post('/api/auth/register', { email, password: PASSWORD })).status).toBe(202);
    const token = await verificationTokenFromOutbox(server.dataDir, email);
    expect((await post('/api/auth/verify-email', { token })).status).toBe(200);
    const run = await ferry(['login', '--email', email, '--password', PASSWORD], state);
    expect(run.code, describeRun(run)).toBe(0);
  };

  const show = async (id: string): Promise<Detail> => {
    const run = await ferry(['transfer', 'show', id, '--json']);
    expect(run.code, describeRun(run)).toBe(0);
    return JSON.parse(run.stdout) as Detail;
  };

  beforeAll(async () => {
    const port = await freePort();
    server = await FerryProcess.start({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    work = await tempDir('cli-clone-add');
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      for (const [name, text] of logs) await saveArtifact(context, name, text);
      await saveArtifact(context, 'server.log', server.output);
    }
    logs = [];
  });

  afterAll(async () => {
    await server?.stop().catch(() => undefined);
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('clones a transfer (hard links, not copies) and adds files and a folder to it; another account gets exit 3', async () => {
    await signUpAndLogin('ann@example.com', 'ann');
    await signUpAndLogin('eve@example.com', 'eve');
    const src = path.join(work, 'src');
    const a = path.join(src, 'a.bin');
    await writeRandomFile(a, 300_000);
    const sent = await ferry(['send', a, '-n', 'Original', '-q']);
    expect(sent.code, describeRun(sent)).toBe(0);
    const id = lines(sent.stdout).at(-1)!.split('/dl/')[1]!;

    // Clone: waits until the files are copied, then prints the clone's link.
    const cloned = await ferry(['transfer', 'clone', id, '--name', 'Copy']);
    expect(cloned.code, describeRun(cloned)).toBe(0);
    const cloneLink = lines(cloned.stdout).at(-1)!;
    const cloneId = cloneLink.split('/dl/')[1]!;
    expect(cloneId).toMatch(/^[A-Za-z0-9]{16}$/);
    expect(cloned.stderr).toContain(`Cloned ${id} into ${cloneId}`);
    const clone = await show(cloneId);
    expect(clone).toMatchObject({ name: 'Copy', status: 'ENABLED', clonedFrom: id });
    const original = await show(id);
    expect(clone.files).toEqual(original.files);
    const blob = (transferId: string, fileId: string) =>
      path.join(server.dataDir, 'files', 'uploads', `${transferId}-${fileId}`);
    const [s, c] = await Promise.all([
      fs.stat(blob(id, original.files[0]!.id)),
      fs.stat(blob(cloneId, original.files[0]!.id)),
    ]);
    expect([c.ino, c.nlink]).toEqual([s.ino, 2]);
    const got = await ferry(['get', cloneLink, '-o', path.join(work, 'got-clone'), '-q']);
    expect(got.code, describeRun(got)).toBe(0);
    expect(await sha256(path.join(work, 'got-clone', 'a.bin'))).toBe(await sha256(a));

    // Add: a file and a folder, uploaded with tus and checked, then part of the transfer and its downloads.
    const b = path.join(src, 'b.bin');
    await writeRandomFile(b, 120_000);
    await writeRandomFile(path.join(src, 'docs', 'notes.txt'), 2_000);
    const added = await ferry(['transfer', 'add', id, b, path.join(src, 'docs'), '-q']);
    expect(added.code, describeRun(added)).toBe(0);
    expect(added.stderr).toContain(`Added 2 files to ${id}`);
    const after = await show(id);
    expect(after.files.map((f) => [f.relativePath ?? f.name, f.sha256])).toEqual([
      ['a.bin', await sha256(a)],
      ['b.bin', await sha256(b)],
      ['docs/notes.txt', await sha256(path.join(src, 'docs', 'notes.txt'))],
    ]);
    expect(after.events.at(-1)?.type).toBe('FILES_ADDED');
    const all = await ferry(['get', lines(sent.stdout).at(-1)!, '-o', path.join(work, 'got-all'), '-q']);
    expect(all.code, describeRun(all)).toBe(0);
    expect(await sha256(path.join(work, 'got-all', 'docs', 'notes.txt'))).toBe(
      await sha256(path.join(src, 'docs', 'notes.txt')),
    );

    // Not eve's: exit 3, nothing changed.
    const notHers = await ferry(['transfer', 'clone', id], 'eve');
    expect(notHers.code, describeRun(notHers)).toBe(3);
    const notHersAdd = await ferry(['transfer', 'add', id, b], 'eve');
    expect(notHersAdd.code, describeRun(notHersAdd)).toBe(3);
    expect((await show(id)).files).toHaveLength(3);
  });
});
