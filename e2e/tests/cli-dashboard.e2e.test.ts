import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { type FerryResult, lines, runFerry } from '../support/cli.js';
import { writeRandomFile } from '../support/files.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, freePort, tempDir } from '../support/server.js';

/**
 * `ferry transfers` and `ferry transfer show|rename|expire|disable|enable|delete` against the built server:
 * accounts registered through the API and confirmed with the link of the mail in DATA_DIR/outbox, transfers
 * sent with `ferry send` as the signed-in user, every change checked through the CLI and its effect on links.
 */

const PASSWORD = 'a long enough passphrase';
/** The CLI's time zone: fixed UTC-5 (no DST; POSIX names it the other way round). */
const TZ = 'Etc/GMT+5';
const DAY_MS = 86_400_000;

const describeRun = (run: FerryResult) =>
  `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

/** The day (YYYY-MM-DD) of an instant in UTC-5, the CLI's zone here. */
const dayInTz = (ms: number) => new Date(ms - 5 * 3_600_000).toISOString().slice(0, 10);

interface ListedTransfer {
  id: string;
  type: string;
  status: string;
  statusLabel: string;
  name: string | null;
  link: string;
  expiresAt: string;
  direction: string;
  files: Array<{ id: string; name: string; size: number; sha256: string | null }>;
}

interface Detail {
  transferId: string;
  name: string | null;
  status: string;
  createdAt: string;
  expiresAt: string;
  recipients: Array<{ email: string; timeline: Array<{ kind: string }> }>;
  events: Array<{ type: string; actor: { kind: string }; data: Record<string, unknown> }>;
}

describe('ferry transfers / ferry transfer … against the built server', () => {
  let server: FerryProcess;
  let work: string;
  let logs: Array<[string, string]> = [];

  /** `ferry ARGS…` with stdin closed (no terminal) in the time zone above, its state in `state`. */
  const ferry = async (args: string[], state = 'ann') => {
    const run = await runFerry(args, {
      FERRY_STATE_DIR: path.join(work, state),
      FERRY_SERVER: server.url,
      TZ,
    });
    logs.push([
      `${logs.length}-${state}-${args.slice(0, 2).join('-')}.log`,
      `$ ferry ${args.join(' ')}\n${describeRun(run)}`,
    ]);
    return run;
  };

  const api = async (method: string, route: string, body?: unknown) => {
    const res = await fetch(`${server.url}${route}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return {
      status: res.status,
      body: (await res.json().catch(() => null)) as Record<string, unknown> | null,
    };
  };

  /** Registers through the API and confirms with the token of the mail the server wrote to its outbox. */
  const signUp = async (email: string) => {
    expect((await api('POST', '/api/auth/register', { email, password: PASSWORD })).status).toBe(202);
    const token = await verificationTokenFromOutbox(server.dataDir, email);
    expect((await api('POST', '/api/auth/verify-email', { token })).status).toBe(200);
  };

  const login = async (email: string, state: string) => {
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
    work = await tempDir('cli-dashboard');
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

  it('lists, shows, renames, expires, disables, enables and deletes; another account gets exit 3', async () => {
    const ann = 'ann@example.com';
    const eve = 'eve@example.com';

    // Not signed in: exit 2, and what to do.
    const anonymous = await ferry(['transfers']);
    expect(anonymous.code, describeRun(anonymous)).toBe(2);
    expect(anonymous.stderr).toBe(`ferry: not signed in to ${server.url}; run ferry login\n`);

    await signUp(ann);
    await signUp(eve);
    await login(ann, 'ann');
    await login(eve, 'eve');

    // Two transfers sent as ann: a link with two files, and one by e-mail to bob.
    const src = path.join(work, 'src');
    const hashes = {
      'a.bin': await writeRandomFile(path.join(src, 'a.bin'), 150_000),
      'b.bin': await writeRandomFile(path.join(src, 'b.bin'), 40_000),
      'c.bin': await writeRandomFile(path.join(src, 'c.bin'), 70_000),
    };
    const first = await ferry([
      'send',
      path.join(src, 'a.bin'),
      path.join(src, 'b.bin'),
      '-n',
      'First',
      '-q',
    ]);
    expect(first.code, describeRun(first)).toBe(0);
    const firstLink = lines(first.stdout).at(-1)!;
    const second = await ferry([
      'send',
      path.join(src, 'c.bin'),
      '-n',
      'Second',
      '--to',
      'bob@example.com',
      '-q',
    ]);
    expect(second.code, describeRun(second)).toBe(0);
    const secondLink = lines(second.stdout).at(-1)!;
    const firstId = new URL(firstLink).pathname.split('/dl/')[1]!;
    // By e-mail (S1): the sender's own link, with their secret.
    const secondId = new URL(secondLink).pathname.split('/dl/')[1]!;
    expect(new URL(secondLink).searchParams.get('userSecret')).toMatch(/^[A-Za-z0-9_-]+$/);

    // --json: exactly one JSON array with the contract's fields, files with their SHA-256.
    const listed = await ferry(['transfers', '--json']);
    expect(listed.code, describeRun(listed)).toBe(0);
    const all = JSON.parse(listed.stdout) as ListedTransfer[];
    expect(Array.isArray(all)).toBe(true);
    expect(all.map((t) => t.id).sort()).toEqual([firstId, secondId].sort());
    const one = all.find((t) => t.id === firstId)!;
    const two = all.find((t) => t.id === secondId)!;
    expect(one).toMatchObject({
      type: 'S2',
      status: 'ENABLED',
      name: 'First',
      link: firstLink,
      direction: 'sent',
    });
    expect(two).toMatchObject({ type: 'S1', status: 'ENABLED', name: 'Second', link: secondLink });
    expect(Number.isFinite(Date.parse(one.expiresAt))).toBe(true);
    expect(one.files.map((f) => [f.name, f.size, f.sha256]).sort()).toEqual([
      ['a.bin', 150_000, hashes['a.bin']],
      ['b.bin', 40_000, hashes['b.bin']],
    ]);
    expect(two.files).toEqual([
      { id: expect.any(String), name: 'c.bin', size: 70_000, sha256: hashes['c.bin'] },
    ]);
    for (const f of one.files) expect(f.id).toMatch(/^[A-Za-z0-9]{6}$/);

    // Not a terminal: one tab-separated line per transfer, newest first; filters are the server's.
    const plain = await ferry(['transfers']);
    expect(plain.code, describeRun(plain)).toBe(0);
    expect(lines(plain.stdout).map((l) => l.split('\t'))).toEqual([
      [secondId, 'S1', 'enabled', '70000', two.expiresAt, '0', 'Second'],
      [firstId, 'S2', 'enabled', '190000', one.expiresAt, '0', 'First'],
    ]);
    const searched = await ferry(['transfers', '--search', 'b.bin', '--type', 's2']);
    expect(lines(searched.stdout).map((l) => l.split('\t')[0])).toEqual([firstId]);
    const limited = await ferry(['transfers', '--limit', '1']);
    expect(lines(limited.stdout)).toHaveLength(1);
    expect(limited.stderr).toContain('Showing 1 of 2 transfers');

    // Rename (by link).
    const renamed = await ferry(['transfer', 'rename', firstLink, 'Renamed one']);
    expect(renamed.code, describeRun(renamed)).toBe(0);
    expect(renamed.stderr).toBe(`Renamed ${firstId} to "Renamed one"\n`);
    expect((await show(firstId)).name).toBe('Renamed one');

    // Expire: a malformed date never reaches the server; a day is the end of that day in the local zone.
    const malformed = await ferry(['transfer', 'expire', firstId, '2030-02-30']);
    expect(malformed.code, describeRun(malformed)).toBe(1);
    expect(malformed.stderr).toContain('not a date: 2030-02-30 (expected YYYY-MM-DD');
    const day = dayInTz(Date.now() + 3 * DAY_MS);
    const expired = await ferry(['transfer', 'expire', firstId, day]);
    expect(expired.code, describeRun(expired)).toBe(0);
    let detail = await show(firstId);
    expect(Date.parse(detail.expiresAt)).toBe(Date.parse(`${day}T23:59:59.999-05:00`));
    expect(expired.stderr).toBe(`${firstId} now expires on ${day} 23:59 local time\n`);
    // Past the plan's validity (7 days on the free plan, from creation): refused, said in words.
    const tooLate = await ferry(['transfer', 'expire', firstId, dayInTz(Date.now() + 30 * DAY_MS)]);
    expect(tooLate.code, describeRun(tooLate)).toBe(1);
    expect(tooLate.stderr).toMatch(
      /is later than your plan allows: a transfer is kept at most 7 days from its creation/,
    );
    // The last day allowed: the last moment allowed.
    const latest = Date.parse(detail.createdAt) + 7 * DAY_MS;
    const lastDay = await ferry(['transfer', 'expire', firstId, dayInTz(latest)]);
    expect(lastDay.code, describeRun(lastDay)).toBe(0);
    expect(lastDay.stderr).toContain('(the last moment your plan allows)');
    expect(Date.parse((await show(firstId)).expiresAt)).toBe(latest);

    // Disable: the link stops working (ferry get exits 3); enable: it works again.
    const disabled = await ferry(['transfer', 'disable', firstId]);
    expect(disabled.code, describeRun(disabled)).toBe(0);
    const out = path.join(work, 'out');
    const refused = await ferry(['get', firstLink, '-o', out, '-q'], 'bob');
    expect(refused.code, describeRun(refused)).toBe(3);
    expect(refused.stderr).toContain('disabled');
    const enabled = await ferry(['transfer', 'enable', firstId]);
    expect(enabled.code, describeRun(enabled)).toBe(0);
    const got = await ferry(['get', firstLink, '-o', out, '-q'], 'bob');
    expect(got.code, describeRun(got)).toBe(0);
    expect(
      lines(got.stdout)
        .map((p) => path.basename(p))
        .sort(),
    ).toEqual(['a.bin', 'b.bin']);

    // Show: files with SHA-256, the history with each change; the e-mail transfer's recipient and timeline.
    const shown = await ferry(['transfer', 'show', firstId]);
    expect(shown.code, describeRun(shown)).toBe(0);
    expect(shown.stdout).toContain(`Transfer   ${firstId}  "Renamed one"`);
    expect(shown.stdout).toContain(`sha256 ${hashes['a.bin']}`);
    expect(shown.stdout).toContain(`sha256 ${hashes['b.bin']}`);
    for (const event of ['CREATED', 'RENAMED', 'EXPIRY_DATE_CHANGED', 'DISABLED', 'ENABLED'])
      expect(shown.stdout).toMatch(new RegExp(`\\d\\d:\\d\\d  ${event}  by (you|Ferry|anonymous sender)`));
    expect(shown.stdout).toMatch(/RENAMED {2}by you {2}from="First" to="Renamed one"/);
    detail = await show(firstId);
    expect(detail.events.map((e) => e.type)).toEqual(
      expect.arrayContaining(['RENAMED', 'EXPIRY_DATE_CHANGED', 'DISABLED', 'ENABLED']),
    );
    const byMail = await ferry(['transfer', 'show', secondLink]);
    expect(byMail.code, describeRun(byMail)).toBe(0);
    expect(byMail.stdout).toContain('Recipients (1)');
    expect(byMail.stdout).toMatch(/ {2}bob@example\.com {2}\S/);
    expect(byMail.stdout).toMatch(/\n {4}\d{4}-\d\d-\d\d \d\d:\d\d {2}sent\n/);

    // Another account: the transfer does not exist for them (exit 3), and nothing changed.
    for (const args of [
      ['transfer', 'rename', firstId, 'Mine now'],
      ['transfer', 'show', firstLink],
      ['transfer', 'disable', firstId],
      ['transfer', 'delete', firstId, '--yes'],
    ]) {
      const foreign = await ferry(args, 'eve');
      expect(foreign.code, describeRun(foreign)).toBe(3);
      expect(foreign.stderr).toContain('among yours');
    }
    const eveList = await ferry(['transfers', '--json'], 'eve');
    expect(JSON.parse(eveList.stdout)).toEqual([]);
    expect((await show(firstId)).name).toBe('Renamed one');

    // Delete: not without --yes when there is no terminal; with it, gone (ferry get exits 3).
    const unconfirmed = await ferry(['transfer', 'delete', firstId]);
    expect(unconfirmed.code, describeRun(unconfirmed)).toBe(1);
    expect(unconfirmed.stderr).toContain('pass --yes');
    const deleted = await ferry(['transfer', 'delete', firstId, '--yes']);
    expect(deleted.code, describeRun(deleted)).toBe(0);
    const gone = await ferry(['get', firstLink, '-o', path.join(work, 'out2'), '-q'], 'bob');
    expect(gone.code, describeRun(gone)).toBe(3);
    const after = JSON.parse((await ferry(['transfers', '--json'])).stdout) as ListedTransfer[];
    expect(after.find((t) => t.id === firstId)).toMatchObject({ status: 'DELETED', statusLabel: 'deleted' });
    const again = await ferry(['transfer', 'delete', firstId, '--yes']);
    expect(again.code, describeRun(again)).toBe(1);
    expect(again.stderr).toMatch(/^ferry: the server refused: /);
  });
});
