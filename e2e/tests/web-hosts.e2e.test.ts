import fs from 'node:fs/promises';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { axeViolations } from '../support/a11y.js';
import { registerAndVerify } from '../support/accounts.js';
import { failed, saveArtifact } from '../support/artifacts.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../support/browser.js';
import { runFerry } from '../support/cli.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, freePort, tempDir } from '../support/server.js';

/**
 * Issue 23's hosts in Chromium against the built server: the browser maps every *.ferry.test name to the one test
 * server (--host-resolver-rules), so the main host ferry.test and a team's subdomain acme.ferry.test are two sites.
 * A team's manager (a team plan from `ferry operator set-plan`) claims `acme` through the domains API, signs in on
 * the main host and is handed off to acme.ferry.test, signed in there with the address cleaned of the token; the
 * next visit to the main host's home goes there too (staying signed in). A signed-out visitor of acme.ferry.test
 * is sent to sign in from its home page, while /push and /d/notfound show their limited layout.
 */
const PASSWORD = 'harbour master keeps time';
const OPERATOR = 'ops@hosts.example';
const MANAGER = 'hana@acme.example';

describe('subdomains and the cross-domain sign-in, in Chromium', () => {
  let browser: Browser;
  let sink: MailSink;
  let server: FerryProcess;
  let work: string;
  let main: string;
  let acme: string;
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.ferry.test 127.0.0.1, MAP ferry.test 127.0.0.1'],
    });
    sink = await startMailSink();
    work = await tempDir('hosts');
    const port = await freePort();
    main = `http://ferry.test:${port}`;
    acme = `http://acme.ferry.test:${port}`;
    server = await FerryProcess.start({
      port,
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAIL_RETRY_DELAY_SECONDS: '1',
        OPERATOR_EMAILS: OPERATOR,
        PUBLIC_URL: main,
        BASE_DOMAIN: 'ferry.test',
      },
    });
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) {
      await saveArtifact(context, 'server.log', server.output);
      for (const [i, page] of contexts.flatMap((c) => c.pages()).entries())
        await saveArtifact(context, `page${i + 1}.url.txt`, page.url()).catch(() => undefined);
    }
    for (const context of contexts.splice(0)) await context.close();
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  /** A session of the account for API calls (as a script would make them). */
  async function bearerOf(email: string): Promise<{ authorization: string; uid: string }> {
    const signedIn = await fetch(`${server.url}/api/auth/signin`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { idToken } = (await signedIn.json()) as { idToken: string };
    const session = await fetch(`${server.url}/api/auth/auth/session-cookie`, {
      headers: { 'id-token': idToken },
    });
    const { sessionCookie } = (await session.json()) as { sessionCookie: string };
    const authorization = `Bearer ${sessionCookie}`;
    const me = await fetch(`${server.url}/api/auth/me`, { headers: { authorization } });
    return { authorization, uid: ((await me.json()) as { user: { uid: string } }).user.uid };
  }

  async function newPage() {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(context);
    return { context, page: await context.newPage() };
  }

  it('hands a team manager who signs in on the main host off to the team’s subdomain, signed in there', async () => {
    await registerAndVerify(server.url, sink, OPERATOR, PASSWORD);
    await registerAndVerify(server.url, sink, MANAGER, PASSWORD);
    const ops = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'ops-state'), FERRY_SERVER: server.url });
    expect((await ops(['login', '--email', OPERATOR, '--password', PASSWORD])).code).toBe(0);
    const plan = await ops(['operator', 'set-plan', MANAGER, 'TEAM10']);
    expect(plan.code, plan.stderr).toBe(0);

    const { authorization, uid } = await bearerOf(MANAGER);
    const claimed = await fetch(`${server.url}/api/user/users/${uid}/domains/subdomain`, {
      method: 'PUT',
      headers: { authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'acme' }),
    });
    expect(claimed.status).toBe(200);
    expect(((await claimed.json()) as { subdomain: { url: string } }).subdomain.url).toBe(acme);

    const { context, page } = await newPage();
    await page.goto(`${main}/signin`);
    await page.getByTestId('signin-email').fill(MANAGER);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-stay').check();
    await page.getByTestId('signin-submit').click();
    await page.waitForURL((url) => url.host === new URL(acme).host && url.search === '', { timeout: 20_000 });
    await page.getByTestId('user-menu-button').waitFor();
    const me = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
    expect(me.user.email).toBe(MANAGER);
    const sessions = (await context.cookies(acme)).filter((c) => c.name === 'ferry_session');
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.expires).toBeGreaterThan(Date.now() / 1000 + 13.9 * 86_400);

    // Staying signed in, the main host remembers the home host for 90 days: its home page goes there.
    const remembered = (await context.cookies(main)).find((c) => c.name === 'ferry_auth_domain');
    expect(remembered?.value).toBe('acme.ferry.test');
    expect(remembered!.expires).toBeGreaterThan(Date.now() / 1000 + 89.9 * 86_400);
    await page.goto(`${main}/`);
    await page.waitForURL(`${acme}/`, { timeout: 15_000 });
  });

  it('sends a signed-out visitor of the subdomain to sign in, but shows /push and /d/notfound in the limited layout', async () => {
    const { page } = await newPage();
    await page.goto(`${acme}/`);
    await page.waitForURL(`${acme}/signin`, { timeout: 15_000 });
    await page.getByTestId('signin-form').waitFor();

    await page.goto(`${acme}/d/notfound`);
    await page.getByTestId('page-transfer-not-found').waitFor();
    expect(new URL(page.url()).pathname).toBe('/d/notfound');
    expect(await page.locator('.app-footer').count()).toBe(0);
    expect(await page.getByTestId('made-in-banner').count()).toBe(0);

    await page.goto(`${acme}/push`);
    await page.getByTestId('receive-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/push');
    expect(await page.getByTestId('made-in-banner').count()).toBe(0);

    // The same pages on the main host keep the full layout.
    await page.goto(`${main}/d/notfound`);
    await page.getByTestId('page-transfer-not-found').waitFor();
    expect(await page.locator('.app-footer').count()).toBe(1);
  });

  it('shows the team’s addresses on /dashboard/customization, free of axe violations on a desktop and a phone', async () => {
    const { page } = await newPage();
    await page.goto(`${main}/signin`);
    await page.getByTestId('signin-email').fill(MANAGER);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.waitForURL((url) => url.host === new URL(acme).host && url.search === '', { timeout: 20_000 });
    await page.getByTestId('user-menu-button').waitFor();
    await page.goto(`${acme}/dashboard/customization`);
    const panel = page.getByTestId('domains-panel');
    await panel.waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('subdomain-name').inputValue()).toBe('acme');
    expect(await page.getByTestId('subdomain-address').textContent()).toContain('acme.ferry.test');
    // A custom domain waiting for its DNS record: the record to publish, with its copy buttons.
    await page.getByTestId('custom-domain-input').fill('files.acme-studio.example');
    await page.getByTestId('custom-domain-add').click();
    const item = page.getByTestId('custom-domain-files-acme-studio-example');
    await item.getByTestId('custom-domain-record-value').waitFor({ timeout: 15_000 });
    expect(await item.getByTestId('custom-domain-status').textContent()).toBeTruthy();
    const found = await axeViolations(page, 'customization with the domains panel @1280px');
    await page.setViewportSize({ width: 375, height: 800 });
    await item.scrollIntoViewIfNeeded();
    found.push(...(await axeViolations(page, 'customization with the domains panel @375px')));
    expect(found).toEqual([]);
    // On a phone the record and the rest of the panel stay inside the window.
    const sticking = await panel.evaluate((root) =>
      [root, ...Array.from(root.querySelectorAll<HTMLElement>('*'))]
        .filter(
          (el) =>
            el.getBoundingClientRect().right > window.innerWidth + 0.5 || el.scrollWidth > el.clientWidth + 1,
        )
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`),
    );
    expect(sticking).toEqual([]);
  });
});
