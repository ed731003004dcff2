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
 * files by itself once the moment has passed. Then link previews (spec §3 open-graph customization) chosen by a
 * paying sender in the web uploader and with `ferry send --og-title --og-description`, as a crawler reads them.
 */

const PASSWORD = 'a long enough passphrase';
/** The CLI's time zone: fixed UTC-5 (no DST; POSIX names it the other way round). */
const TZ = 'Etc/GMT+5';
const HOUR = 3_600_000;

/** `YYYY-MM-DDTHH:MM` of an instant in UTC-5, the CLI's zone here. */
const localMinute = (ms: number) => new Date(ms - 5 * HOUR).toISOString().slice(0, 16);

/** A link-preview fetcher: it reads the page's head and runs no script. */
const CRAWLER = 'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)';

/** The content of each <meta property|name=…> of a page, decoded as a crawler decodes it. */
function metaOf(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g))
    out[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
  return out;
}

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

  /** An account with a confirmed address on the PREMIUM plan. */
  const paidSender = async (email: string) => {
    expect((await api('POST', '/api/auth/register', { email, password: PASSWORD })).status).toBe(202);
    const token = await verificationTokenFromOutbox(server.dataDir, email);
    expect((await api('POST', '/api/auth/verify-email', { token })).status).toBe(200);
    await db.query("UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE email = $1", [email]);
  };
  /** The download page as a crawler gets it: a plain request, no script run, no cookie. */
  const crawl = async (link: string) => {
    const res = await fetch(link, { headers: { 'user-agent': CRAWLER, 'accept-language': 'en' } });
    expect(res.status).toBe(200);
    return metaOf(await res.text());
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
    await paidSender(ann);
    const login = await ferry(['login', '--email', ann, '--password', PASSWORD]);
    expect(login.code, describeRun(login)).toBe(0);

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

  it('a link preview chosen in the web uploader and with ferry send is what a crawler reads on /dl/{id}', async () => {
    const pia = 'pia@links.example';
    await paidSender(pia);
    const source = path.join(work, 'src', 'board.bin');
    await writeRandomFile(source, 60_000);
    const transfers = async () =>
      Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM transfers')).rows[0]!.n);

    // The CLI: refused before anything is created when a text breaks the rule; sent otherwise.
    const login = await ferry(['login', '--email', pia, '--password', PASSWORD], 'pia');
    expect(login.code, describeRun(login)).toBe(0);
    const before = await transfers();
    const tooLong = await ferry(['send', source, '--og-title', 'x'.repeat(121)], 'pia');
    expect(tooLong.code, describeRun(tooLong)).toBe(1);
    expect(tooLong.stderr).toContain('--og-title is too long: 121 characters');
    const twoLines = await ferry(['send', source, '--og-description', 'Minutes\nand figures'], 'pia');
    expect(twoLines.code, describeRun(twoLines)).toBe(1);
    expect(twoLines.stderr).toContain('--og-description holds a line break');
    expect(await transfers()).toBe(before);

    const cliTitle = 'Board pack — March';
    const cliDescription = 'Minutes & "figures" <for review>';
    const sent = await ferry(
      ['send', source, '--og-title', cliTitle, '--og-description', cliDescription],
      'pia',
    );
    expect(sent.code, describeRun(sent)).toBe(0);
    const cliMeta = await crawl(lines(sent.stdout).at(-1)!);
    expect([cliMeta['og:title'], cliMeta['og:description']]).toEqual([cliTitle, cliDescription]);
    expect([cliMeta['twitter:title'], cliMeta['twitter:description']]).toEqual([cliTitle, cliDescription]);

    // The web uploader on a phone: the group is offered for a link, typed with the keyboard alone.
    const context = await scenarios.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/signin`);
    await page.getByTestId('signin-email').fill(pia);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 15_000 });
    await page.goto(`${server.url}/#S2`);
    await page.getByTestId('file-input').setInputFiles(source);
    await page.getByTestId('next').click();
    const title = page.getByTestId('link-preview-title');
    await title.waitFor({ timeout: 15_000 });
    const webTitle = 'Q1 photos for the press';
    const webDescription = 'Forty pictures from the launch, free to use with credit.';
    await title.focus();
    await page.keyboard.type(webTitle);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe(
      'link-preview-description',
    );
    await page.keyboard.type(webDescription);
    const fields = page.getByTestId('link-preview-fields');
    expect(await fields.textContent()).toContain(`${120 - webTitle.length} characters left`);
    expect(await fields.textContent()).toContain(`${300 - webDescription.length} characters left`);
    expect(await axeViolations(page, 'link preview @375px')).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByTestId('start-upload').click();
    const link = page.getByTestId('transfer-link');
    await link.waitFor({ timeout: 120_000 });
    const webMeta = await crawl(await link.inputValue());
    expect([webMeta['og:title'], webMeta['og:description']]).toEqual([webTitle, webDescription]);
  });
});
