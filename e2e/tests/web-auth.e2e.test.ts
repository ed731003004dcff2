import fs from 'node:fs/promises';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { docScreenshot, failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { waitFor } from '../support/files.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess } from '../support/server.js';

const EMAIL = 'zoe.martin@accounts.example';
const PASSWORD = 'river otter teaches chess';
const DAY = 24 * 3600;

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

/** The page's own view of the session: GET /api/auth/me with its cookies. */
async function me(page: Page): Promise<{ user: { email: string } | null; planType: string }> {
  return page.evaluate(async () => (await fetch('/api/auth/me', { credentials: 'same-origin' })).json());
}

async function sessionCookie(context: BrowserContext) {
  return (await context.cookies()).find((c) => c.name === 'ferry_session');
}

/** The data-testid of the focused element. */
async function focused(page: Page): Promise<string | null> {
  return page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);
}

async function signIn(page: Page, origin: string, options: { stay: boolean; next?: string }) {
  await page.goto(`${origin}/signin${options.next ? `?next=${encodeURIComponent(options.next)}` : ''}`);
  await page.getByTestId('signin-email').fill(EMAIL);
  await page.getByTestId('signin-password').fill(PASSWORD);
  if (options.stay) await page.getByTestId('signin-stay').check();
  await page.getByTestId('signin-submit').click();
  await page.getByTestId('user-menu-button').waitFor({ timeout: 15_000 });
}

describe('accounts in Chromium, against the built server and a real SMTP server', () => {
  const scenarios = useBrowser();
  let sink: MailSink;
  let server: FerryProcess;

  beforeAll(async () => {
    sink = await startMailSink();
    server = await FerryProcess.start({
      env: { SMTP_URL: sink.url, MAIL_FROM: 'no-reply@ferry.example', MAIL_RETRY_DELAY_SECONDS: '1' },
    });
  });

  afterEach(async (context: TestContext) => {
    if (!failed(context)) return;
    await saveArtifact(context, 'server.log', server.output);
    const mails = sink.messages.map(
      (m) => `${m.to.join(', ')} | ${m.parsed.subject}\n${m.parsed.text ?? ''}`,
    );
    await saveArtifact(context, 'mails.txt', mails.join('\n\n-----\n\n'));
  });

  afterAll(async () => {
    await server?.stop();
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
  });

  it('registers, verifies by the mailed link, signs out and in, stays signed in across browser restarts, and signs out everywhere', async () => {
    const origin = server.url;
    // --- Sign-up, with a plan chosen on the prices page.
    const first = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await first.newPage();
    await page.goto(`${origin}/register?type=PREMIUM&frequency=ANNUAL&trial=true`);
    expect(await page.getByTestId('register-plan').textContent()).toContain(
      'Premium (yearly, with a free trial)',
    );
    await page.getByTestId('register-email').fill(EMAIL);
    await page.getByTestId('register-password').fill(PASSWORD);
    expect(await page.getByTestId('register-strength').getAttribute('data-strength')).toBe('strong');
    await page.getByTestId('register-firstname').fill('Zoé');
    await page.getByTestId('register-submit').click();
    await page.getByTestId('register-sent').waitFor();
    expect(await page.getByTestId('register-sent').textContent()).toContain(EMAIL);
    await docScreenshot(page, 'auth-register-sent.png');

    // --- The verification link, from the mail actually received.
    const mail = await sink.waitFor('the verification mail', (m) => m.to.includes(EMAIL));
    expect(mail.parsed.subject).toBe('Confirm your e-mail address for Ferry');
    const link = new RegExp(`${origin}/verify-email\\?token=[A-Za-z0-9_-]+`).exec(
      mail.parsed.text ?? '',
    )?.[0];
    expect(link, 'a verification link in the mail').toBeTruthy();
    await page.goto(link!);
    // Signed in, then on to checkout with the plan chosen on the prices page (no next in the link).
    await page.waitForURL(`${origin}/account/subscriptions?plan=PREMIUM&frequency=ANNUAL&trial=true`, {
      timeout: 15_000,
    });
    await page.getByTestId('checkout').waitFor();
    await page.getByTestId('user-menu-button').waitFor();
    await page.getByTestId('user-menu-button').click();
    expect(await page.getByTestId('user-menu-email').textContent()).toBe(EMAIL);
    expect(await page.getByTestId('user-menu-plan').textContent()).toBe('Free');
    const cookie = await sessionCookie(first);
    expect(cookie?.httpOnly).toBe(true);
    expect(cookie?.sameSite).toBe('Lax');
    const device = (await first.cookies()).find((c) => c.name === 'ferry_device');
    expect(device?.value).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(device!.expires).toBeGreaterThan(Date.now() / 1000 + 364 * DAY);
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('user-menu').isHidden()).toBe(true);

    // The link works once.
    const used = await scenarios.newPage();
    await used.goto(link!);
    await used.getByTestId('verify-error').waitFor();
    expect(await used.getByTestId('verify-error').getAttribute('data-problem')).toBe('invalid_token');

    // --- Sign out.
    await page.getByTestId('user-menu-button').click();
    await page.getByTestId('user-menu-signout').click();
    await page.getByTestId('header-signin').waitFor();
    expect((await me(page)).user).toBeNull();
    expect(await sessionCookie(first)).toBeUndefined();

    // --- Sign in with "Stay signed in", by keyboard alone, after coming back to a guarded page.
    await page.goto(`${origin}/account/profile`);
    await page.waitForURL(/\/signin\?next=%2Faccount%2Fprofile$/);
    await page.getByTestId('signin-email').focus();
    await page.keyboard.type(EMAIL);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('signin-forgot');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('signin-password');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('signin-password-toggle');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('signin-stay');
    await page.keyboard.press('Space');
    expect(await page.getByTestId('signin-stay').isChecked()).toBe(true);
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('signin-submit');
    await docScreenshot(page, 'auth-signin.png');
    await page.keyboard.press('Enter');
    await page.getByTestId('page-account-profile').waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe('/account/profile');
    expect(await page.getByTestId('profile-email').textContent()).toBe(EMAIL);
    expect(await page.getByTestId('profile-chosen-plan').textContent()).toContain('Premium');
    const staying = await sessionCookie(first);
    expect(staying?.expires).toBeGreaterThan(Date.now() / 1000 + 13.9 * DAY);

    // --- The browser is closed; a new one with the saved cookies is still signed in.
    const saved = await first.storageState();
    await first.close();
    const restored = await scenarios.newContext({
      viewport: { width: 1280, height: 900 },
      storageState: saved,
    });
    const back = await restored.newPage();
    await back.goto(`${origin}/account/security`);
    await back.getByTestId('session-row').first().waitFor({ timeout: 15_000 });
    expect(new URL(back.url()).pathname).toBe('/account/security');
    const mine = back.locator('[data-testid="session-row"][data-current="true"]');
    expect(await mine.count()).toBe(1);
    expect(await mine.getByTestId('session-this-device').textContent()).toBe('This device');
    expect(await mine.textContent()).toContain('Chrome on Linux');

    // The uploader sends as the account: its address is the sender.
    await back.goto(`${origin}/#S2`);
    await back.getByTestId('file-input').setInputFiles({
      name: 'hello.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    });
    await back.getByTestId('next').click();
    expect(await back.getByTestId('sender-email').inputValue()).toBe(EMAIL);
    expect(await back.getByTestId('sender-name').inputValue()).toBe('Zoé');
    // Download confirmations write to the sender; the account's address needs no code.
    await back.getByTestId('notify-download-confirmation').check();
    expect(await back.getByTestId('sender-hint').textContent()).toContain('no code is needed');
    await back.getByTestId('start-upload').click();
    await back.getByTestId('transfer-link').waitFor({ timeout: 30_000 });
    expect(await back.getByTestId('verification').count()).toBe(0);
    expect(
      sink.messages.filter((m) => m.to.includes(EMAIL) && /^\d{6} /.test(m.parsed.subject ?? '')),
    ).toHaveLength(0);

    // --- A personal API token: shown once, works as a bearer, revoked.
    await back.goto(`${origin}/account/integrations`);
    await back.getByTestId('tokens-empty').waitFor();
    await back.getByTestId('token-name').fill('e2e script');
    await back.getByTestId('token-create').click();
    const token = await back.getByTestId('token-created').inputValue();
    expect(token).toMatch(/^fry_/);
    const asToken = await fetch(`${origin}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await asToken.json()) as { user: { email: string } }).user.email).toBe(EMAIL);
    await back.getByTestId('token-done').click();
    expect(await back.getByTestId('token-created').count()).toBe(0);
    await back.reload();
    await back.getByTestId('token-row').waitFor();
    expect(await back.getByTestId('token-last-used').textContent()).not.toBe('Never');
    back.once('dialog', (dialog) => void dialog.accept());
    await back.getByTestId('token-revoke').click();
    await back.getByTestId('tokens-empty').waitFor();
    const revoked = await fetch(`${origin}/api/auth/me`, { headers: { Authorization: `Bearer ${token}` } });
    expect(revoked.status).toBe(401);

    // --- Another device (a phone) signs in without "stay signed in": a one-day session.
    const phone = await scenarios.newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    const other = await phone.newPage();
    await other.goto(`${origin}/`);
    await other.getByTestId('header-signin').waitFor();
    // The header keeps brand, language and "Sign in" on one line, in French too.
    for (const lang of ['fr', 'en']) {
      await other.getByTestId('language-switcher').selectOption(lang);
      // A language's texts are fetched the first time it is chosen: wait for them.
      await other
        .getByTestId('header-signin')
        .filter({ hasText: lang === 'fr' ? 'Se connecter' : 'Sign in' })
        .waitFor();
      expect(await other.getByTestId('header-signin').textContent()).toBe(
        lang === 'fr' ? 'Se connecter' : 'Sign in',
      );
      expect(await scrollWidth(other)).toBeLessThanOrEqual(375);
      expect((await other.getByTestId('header-signin').boundingBox())!.height).toBeLessThan(48);
    }
    // Down to 320 px.
    await other.setViewportSize({ width: 320, height: 700 });
    expect(await scrollWidth(other)).toBeLessThanOrEqual(320);
    await other.setViewportSize({ width: 375, height: 812 });
    await other.goto(`${origin}/signin`);
    expect(await scrollWidth(other)).toBeLessThanOrEqual(375);
    await docScreenshot(other, 'auth-signin-phone.png');
    await signIn(other, origin, { stay: false, next: '/account/security' });
    await other.getByTestId('session-row').first().waitFor();
    const short = await sessionCookie(phone);
    expect(short?.expires).toBeLessThan(Date.now() / 1000 + 1.01 * DAY);
    expect(await other.getByTestId('session-row').count()).toBe(2);
    expect(await scrollWidth(other)).toBeLessThanOrEqual(375);
    await other.getByTestId('user-menu-button').click();
    expect(await other.getByTestId('user-menu').isVisible()).toBe(true);
    expect(await scrollWidth(other)).toBeLessThanOrEqual(375);
    await other.setViewportSize({ width: 320, height: 700 });
    expect(await scrollWidth(other)).toBeLessThanOrEqual(320);
    await other.setViewportSize({ width: 375, height: 812 });
    await other.keyboard.press('Escape');
    await docScreenshot(other, 'auth-security-phone.png');

    // --- "Sign out everywhere" from the restored browser: the phone's session is gone too.
    await back.goto(`${origin}/account/security`);
    await back.getByTestId('session-row').nth(1).waitFor();
    await docScreenshot(back, 'auth-security.png');
    back.once('dialog', (dialog) => void dialog.accept());
    await back.getByTestId('signout-everywhere').click();
    await back.waitForURL(`${origin}/`, { timeout: 15_000 });
    await back.getByTestId('header-signin').waitFor();
    expect((await me(back)).user).toBeNull();

    expect((await me(other)).user).toBeNull();
    await other.reload();
    await other.waitForURL(/\/signin\?next=%2Faccount%2Fsecurity$/, { timeout: 15_000 });
    await other.getByTestId('signin-email').waitFor();
  });

  it('offers to sign back in when the session ends within 12 hours, keeping the page', async () => {
    const origin = server.url;
    const page = await scenarios.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${origin}/`);
    // A 10-hour session, made the way the page makes one (id token → session cookie).
    const expires = await page.evaluate(
      async ({ email, password }) => {
        const signin = await fetch('/api/auth/signin', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email, password }),
        });
        const { idToken } = (await signin.json()) as { idToken: string };
        const session = await fetch('/api/auth/auth/session-cookie?expiresInMinutes=600', {
          headers: { 'id-token': idToken },
        });
        return ((await session.json()) as { sessionExpireTimestamp: number }).sessionExpireTimestamp;
      },
      { email: EMAIL, password: PASSWORD },
    );
    expect(expires - Date.now()).toBeLessThan(10.1 * 3600_000);
    // The page's own clock (it keeps running at the real pace, starting from now), so those 10 s need not be
    // waited out.
    await page.clock.install();
    await page.goto(`${origin}/account/profile?tab=x`);
    await page.getByTestId('page-account-profile').waitFor();
    // The first check runs 10 s after the user is known: move the page's time on by that much. (Had the
    // check not been planned yet, it still comes 10 s later in real time, within the wait below.)
    await page.clock.fastForward(10_000);
    const dialog = page.getByTestId('sign-back-in');
    await dialog.waitFor({ timeout: 20_000 });
    expect(await dialog.evaluate((d) => (d as HTMLDialogElement).open)).toBe(true);
    expect(await focused(page)).toBe('sign-back-in-password');
    expect(await dialog.textContent()).toContain(EMAIL);
    await docScreenshot(page, 'auth-sign-back-in.png');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/account/profile?tab=x');
    const state = await page.evaluate(async () => (await fetch('/api/auth/me')).json());
    expect(state.user.email).toBe(EMAIL);
    expect(state.sessionExpireTimestamp - Date.now()).toBeGreaterThan(23 * 3600_000);
  });

  it('says why a sign-in fails: wrong password, unverified address (a new link is mailed)', async () => {
    const origin = server.url;
    const page = await scenarios.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${origin}/signin`);
    await page.getByTestId('signin-email').fill(EMAIL);
    await page.getByTestId('signin-password').fill('not the password');
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('signin-error').waitFor();
    expect(await page.getByTestId('signin-error').getAttribute('data-problem')).toBe('invalid_credentials');

    // A second, unverified account.
    const pending = 'pending.user@accounts.example';
    await page.goto(`${origin}/register`);
    await page.getByTestId('register-email').fill(pending);
    await page.getByTestId('register-password').fill(PASSWORD);
    await page.getByTestId('register-submit').click();
    await page.getByTestId('register-sent').waitFor();
    const mailsBefore = sink.messages.filter((m) => m.to.includes(pending)).length;
    await page.goto(`${origin}/signin`);
    await page.getByTestId('signin-email').fill(pending);
    await page.getByTestId('signin-password').fill(PASSWORD);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('signin-error').waitFor();
    expect(await page.getByTestId('signin-error').getAttribute('data-problem')).toBe('email_not_verified');
    expect(await page.getByTestId('signin-error').textContent()).toContain(
      `We sent you a new link to ${pending}`,
    );
    await waitFor(() => sink.messages.filter((m) => m.to.includes(pending)).length > mailsBefore, {
      what: 'a new verification mail',
    });

    // The sign-up form on a phone.
    const phone = await scenarios.newPage({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    await phone.goto(`${origin}/register?type=TEAM10&frequency=MONTHLY`);
    await phone.getByTestId('register-password').fill('short');
    await phone.getByTestId('register-submit').click();
    expect(await phone.getByTestId('register-password').getAttribute('aria-invalid')).toBe('true');
    expect(await scrollWidth(phone)).toBeLessThanOrEqual(375);
  });
});
