import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { registerAndVerify, signInInPage } from '../support/accounts.js';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { runFerry } from '../support/cli.js';
import { waitFor, writeRandomFile } from '../support/files.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

/**
 * Issue 20's browser scenario, through the real pages against the built server on its embedded default: an operator
 * gives an account a team plan; its manager invites a member from /dashboard/admin/users; the member joins from the
 * mailed link; the manager restricts the team to links only; the member can then send links but not e-mails (the
 * page offers no e-mail transfer, and the server refuses one); the manager finds the member's transfer in
 * /dashboard/admin/transfers and the member's sign-in in /dashboard/admin/security-logs. The admin pages fit a phone.
 */
const PASSWORD = 'harbour master keeps time';
const OPERATOR = 'ops@ferry-team.example';
const MANAGER = 'marta@team.example';
const MEMBER = 'milo@team.example';

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

describe('a team a manager runs, in Chromium', () => {
  const scenarios = useBrowser();
  let sink: MailSink;
  let server: FerryProcess;
  let work: string;

  beforeAll(async () => {
    sink = await startMailSink();
    work = await tempDir('team');
    server = await FerryProcess.start({
      env: {
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAIL_RETRY_DELAY_SECONDS: '1',
        OPERATOR_EMAILS: OPERATOR,
      },
    });
  });

  afterEach(async (context: TestContext) => {
    if (!failed(context)) return;
    await saveArtifact(context, 'server.log', server.output);
    await saveArtifact(
      context,
      'mails.txt',
      sink.messages
        .map((m) => `${m.to.join(', ')} | ${m.parsed.subject}\n${m.parsed.text ?? ''}`)
        .join('\n\n'),
    );
  });

  afterAll(async () => {
    await server?.stop();
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('a manager invites a member who joins from the mail, is held to links only, and is found in the admin pages', async () => {
    // An operator gives Marta's account a team plan from the command line.
    await registerAndVerify(server.url, sink, OPERATOR, PASSWORD);
    await registerAndVerify(server.url, sink, MANAGER, PASSWORD);
    const ops = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'ops-state'), FERRY_SERVER: server.url });
    expect((await ops(['login', '--email', OPERATOR, '--password', PASSWORD])).code).toBe(0);
    const plan = await ops(['operator', 'set-plan', MANAGER, 'TEAM10']);
    expect(plan.code, plan.stderr).toBe(0);

    // Marta invites Milo from /dashboard/admin/users.
    const managerContext = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const manager = await managerContext.newPage();
    await signInInPage(manager, server.url, MANAGER, PASSWORD);
    await manager.goto(`${server.url}/dashboard/admin/users`);
    await manager.getByTestId('invite-addresses').fill(MEMBER);
    await manager.getByTestId('invite-submit').click();
    await manager.locator('[data-testid="invite-results"] li[data-result="invited"]').waitFor();
    await manager.locator('[data-testid="member-row"][data-status="invited"]').waitFor();

    // Milo joins from the mailed link, choosing his password.
    const invitation = await sink.waitFor('the invitation mail', (m) => m.to.includes(MEMBER));
    const join = new RegExp(`${server.url}/join\\?token=[A-Za-z0-9_-]+`).exec(
      invitation.parsed.text ?? '',
    )?.[0];
    expect(join, 'a join link in the invitation').toBeTruthy();
    const joinContext = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const joining = await joinContext.newPage();
    await joining.goto(join!);
    expect(await joining.getByTestId('join-intro').textContent()).toContain(MEMBER);
    await joining.getByTestId('join-firstname').fill('Milo');
    await joining.getByTestId('join-password').fill(PASSWORD);
    await joining.getByTestId('join-submit').click();
    await joining.waitForURL(/\/dashboard$/, { timeout: 15_000 });
    await joinContext.close();

    // Marta allows links only: e-mail transfers off in the team's uploader settings.
    await manager.goto(`${server.url}/dashboard/admin/transfers/settings`);
    const allowS1 = manager.getByTestId('flag-allowS1');
    await allowS1.waitFor();
    expect(await allowS1.isChecked()).toBe(true);
    await allowS1.uncheck();
    await manager.getByTestId('policy-save').click();
    await manager.getByTestId('policy-saved').waitFor();

    // Milo signs in (a sign-in for the log) and sees only links in the uploader.
    const memberContext = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const member = await memberContext.newPage();
    await signInInPage(member, server.url, MEMBER, PASSWORD);
    await member.goto(`${server.url}/#S1`);
    await member.locator('[data-transfer-type="S2"]').waitFor();
    expect(await member.getByTestId('type-S1').count()).toBe(0);
    // The server holds the rule whatever the page shows.
    const refused = await member.evaluate(async () => {
      const res = await fetch('/api/transfer/transfers', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          type: 'S1',
          files: [{ name: 'a.txt', size: 1 }],
          recipients: ['someone@elsewhere.example'],
          message: 'hello',
        }),
      });
      return { status: res.status, body: await res.json() };
    });
    expect(refused.status).toBe(403);
    expect(refused.body.details?.setting).toBe('allowS1');

    // He sends a link.
    const source = path.join(work, 'site-survey.bin');
    await writeRandomFile(source, 200_000);
    await member.getByTestId('file-input').setInputFiles([source]);
    await member.getByTestId('next').click();
    await member.getByTestId('transfer-name').fill('Site survey');
    await member.getByTestId('start-upload').click();
    const link = await member.getByTestId('transfer-link');
    await link.waitFor({ timeout: 120_000 });
    const transferId = /\/dl\/([A-Za-z0-9]{16})$/.exec(await link.inputValue())?.[1];
    expect(transferId).toBeTruthy();

    // Marta finds Milo's sign-in in the security log.
    await manager.goto(`${server.url}/dashboard/admin/security-logs`);
    await manager.getByTestId('security-log-action').selectOption('sign-in');
    await manager.getByTestId('security-log-apply').click();
    const signIn = manager.locator('[data-testid="security-log-row"][data-action="sign-in"]', {
      hasText: MEMBER,
    });
    await signIn.first().waitFor({ timeout: 15_000 });

    // And his transfer among the team's, filtered by member.
    await manager.goto(`${server.url}/dashboard/admin/transfers`);
    const memberFilter = manager.getByTestId('admin-transfers-member');
    await waitFor(async () => (await memberFilter.locator('option', { hasText: MEMBER }).count()) === 1, {
      what: "Milo among the members of the transfers' filter",
    });
    await memberFilter.selectOption({ label: MEMBER });
    const row = manager.locator('[data-testid="admin-transfer-row"]', { hasText: 'Site survey' });
    await row.waitFor({ timeout: 15_000 });
    expect(await row.textContent()).toContain(MEMBER);
    expect(await manager.locator('[data-testid="admin-transfer-row"]').count()).toBe(1);
    await row.getByRole('link').first().click();
    await manager.waitForURL(new RegExp(`/dashboard/transfers/${transferId}$`));

    // Every admin page fits a phone.
    await manager.setViewportSize({ width: 375, height: 800 });
    for (const page of [
      '/dashboard/admin',
      '/dashboard/admin/transfers',
      '/dashboard/admin/transfers/settings',
      '/dashboard/admin/security-logs',
      '/dashboard/admin/users',
      '/dashboard/admin/user-groups',
      '/dashboard/admin/api',
      '/dashboard/admin/authentication',
    ]) {
      await manager.goto(`${server.url}${page}`);
      await manager.locator('.dashboard-page').first().waitFor();
      await manager.waitForLoadState('networkidle');
      expect(await scrollWidth(manager), page).toBeLessThanOrEqual(375);
    }
    await managerContext.close();
    await memberContext.close();
  });
});
