import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { axeViolations } from '../support/a11y.js';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { type FerryResult, lines, runFerry } from '../support/cli.js';
import { sha256File, writeRandomFile } from '../support/files.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, freePort, tempDir } from '../support/server.js';

/**
 * Custom links and availability windows (issue 23 parts 3 and 4) against the built server: `ferry send
 * --custom-link --available-from` as a paying account, `ferry get` before the opening (exit 6, the date printed) and
 * after it; and the download page of a transfer not open yet, which shows when it opens, counts down and shows the
 * files by itself once the moment has passed.
 */

const PASSWORD = 'a long enough passphrase';
/** The CLI's time zone: fixed UTC-5 (no DST; POSIX names it the other way round). */
const TZ = 'Etc/GMT+5';
const HOUR = 3_600_000;

/** `YYYY-MM-DDTHH:MM` of an instant in UTC-5, the CLI's zone here. */
const localMinute = (ms: number) => new Date(ms - 5 * HOUR).toISOString().slice(0, 16);

const describeRun = (run: FerryResult) =>
  `exit ${run.code} (signal ${run.signal})\n--- stdout\n${run.stdout}\n--- stderr\n${run.stderr}`;

async function embeddedDatabaseUrl(dataDir: string): Promise<string> {
  const pid = await fs.readFile(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8');
  const port = Number(pid.split('\n')[3]);
  const { password } = JSON.parse(await fs.readFile(path.join(dataDir, 'pg-credentials.json'), 'utf8'));
  return `postgres://ferry:${encodeURIComponent(password)}@127.0.0.1:${port}/ferry`;
}

describe('custom links and availability windows, end to end', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let db: pg.Client;
  let work: string;
  let logs: Array<[string, string]> = [];

  const ferry = async (args: string[], state = 'ann') => {
    const run = await runFerry(args, {
      FERRY_STATE_DIR: path.join(work, state),
      FERRY_SERVER: server.url,
      TZ,
    });
    logs.push([`${logs.length}-${state}-${args[0]}.log`, `$ ferry ${args.join(' ')}\n${describeRun(run)}`]);
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

  beforeAll(async () => {
    const port = await freePort();
    server = await FerryProcess.start({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    db = new pg.Client({ connectionString: await embeddedDatabaseUrl(server.dataDir) });
    await db.connect();
    work = await tempDir('links-windows');
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      for (const [name, text] of logs) await saveArtifact(context, name, text);
      await saveArtifact(context, 'server.log', server.output);
    }
    logs = [];
  });

  afterAll(async () => {
    await db?.end();
    await server?.stop().catch(() => undefined);
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('ferry send --custom-link --available-from; ferry get exits 6 with the date until it opens', async () => {
    const ann = 'ann@links.example';
    expect((await api('POST', '/api/auth/register', { email: ann, password: PASSWORD })).status).toBe(202);
    const token = await verificationTokenFromOutbox(server.dataDir, ann);
    expect((await api('POST', '/api/auth/verify-email', { token })).status).toBe(200);
    const login = await ferry(['login', '--email', ann, '--password', PASSWORD]);
    expect(login.code, describeRun(login)).toBe(0);
    await db.query("UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE email = $1", [ann]);

    const source = path.join(work, 'src', 'q3.bin');
    await writeRandomFile(source, 150_000);
    const opens = localMinute(Date.now() + 2 * HOUR);
    const sent = await ferry(['send', source, '--custom-link', 'q3-report', '--available-from', opens]);
    expect(sent.code, describeRun(sent)).toBe(0);
    expect(lines(sent.stdout).at(-1)).toBe(`${server.url}/dl/q3-report`);
    expect(sent.stderr).toContain(`opens on ${opens.replace('T', ' ')} local time`);

    const taken = await ferry(['send', source, '--name', 'again', '--custom-link', 'q3-report']);
    expect(taken.code, describeRun(taken)).toBe(1);
    expect(taken.stderr).toContain('this custom link is taken');
    const hostile = await ferry(['send', source, '--custom-link', 'Q3-Report']);
    expect(hostile.code, describeRun(hostile)).toBe(1);
    expect(hostile.stderr).toContain('lowercase');

    const out = path.join(work, 'received');
    const early = await ferry(['get', `${server.url}/dl/Q3-REPORT`, '--out', out], 'bob');
    expect(early.code, describeRun(early)).toBe(6);
    expect(early.stderr).toContain(`not available yet: it opens on ${opens.replace('T', ' ')} local time`);

    // The moment passes (its job still waits for the old one): the next download opens it.
    await db.query(
      "UPDATE transfers SET available_from = now() - interval '1 second' WHERE lower(custom_link) = 'q3-report'",
    );
    const got = await ferry(['get', `${server.url}/dl/q3-report`, '--out', out], 'bob');
    expect(got.code, describeRun(got)).toBe(0);
    expect(await sha256File(path.join(out, 'q3.bin'))).toBe(await sha256File(source));
  });

  it('the download page says when the files open, counts down, then shows them without a reload', async () => {
    const source = path.join(work, 'src', 'plan.bin');
    await writeRandomFile(source, 80_000);
    const sent = await ferry(
      ['send', source, '--available-from', localMinute(Date.now() + 48 * HOUR)],
      'anonymous',
    );
    expect(sent.code, describeRun(sent)).toBe(0);
    const link = lines(sent.stdout).at(-1)!;
    const transferId = new URL(link).pathname.split('/').at(-1)!;
    const opens = (
      await db.query<{ available_from: Date }>('SELECT available_from FROM transfers WHERE id = $1', [
        transferId,
      ])
    ).rows[0]!.available_from;

    const page = await scenarios.newPage({ locale: 'en-GB', timezoneId: 'Asia/Tokyo' });
    await page.goto(link);
    const notice = page.getByTestId('download-opens');
    await notice.waitFor({ timeout: 30_000 });
    // In the viewer's time zone and language.
    const expected = new Intl.DateTimeFormat('en', {
      dateStyle: 'long',
      timeStyle: 'short',
      timeZone: 'Asia/Tokyo',
    }).format(opens);
    // Both sides' ICU may space a time differently (a narrow no-break space before "PM"): compared as words.
    const words = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');
    expect(words(await notice.textContent())).toContain(words(`These files open on ${expected}.`));
    expect(await page.getByTestId('download-countdown').count()).toBe(0);
    // Accessible at both widths, and nothing wider than a phone's 375 px.
    expect(await axeViolations(page, 'opens @1280px')).toEqual([]);
    await page.setViewportSize({ width: 375, height: 740 });
    expect(await axeViolations(page, 'opens @375px')).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);

    // The sender moves the moment to a few seconds from now: reloaded, the page counts down, then opens by itself.
    await db.query("UPDATE transfers SET available_from = now() + interval '4 seconds' WHERE id = $1", [
      transferId,
    ]);
    await page.reload();
    await page.getByTestId('download-countdown').waitFor({ timeout: 30_000 });
    expect(await page.getByTestId('download-countdown').textContent()).toMatch(/^Opens in \d+s$/);
    await page.locator('[data-testid^="file-row-"]').first().waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('download-opens').count()).toBe(0);
    expect(await page.getByTestId('download-all').isDisabled()).toBe(false);
    const status = await db.query<{ status: string }>('SELECT status FROM transfers WHERE id = $1', [
      transferId,
    ]);
    expect(status.rows[0]!.status).toBe('ENABLED');
  });
});
