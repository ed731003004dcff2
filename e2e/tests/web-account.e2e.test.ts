import fs from 'node:fs/promises';
import path from 'node:path';
import { Secret, TOTP } from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { waitFor } from '../support/files.js';
import { verificationTokenFromOutbox } from '../support/mail.js';
import { FerryProcess, REPO_ROOT } from '../support/server.js';

/**
 * The server's own test provider (oidc-provider on loopback, PKCE required, login and consent answered for
 * `nextLogin`): one IdP for every suite. Imported by a computed path: apps/server/src/test is not type-checked
 * (oidc-provider has no types), so the part used here is typed below.
 */
const TEST_IDP_MODULE = path.join(REPO_ROOT, 'apps/server/src/test/oidc-idp.ts');
interface TestIdp {
  issuer: string;
  accounts: Map<string, { email?: string; email_verified?: boolean; given_name?: string }>;
  nextLogin: string | null;
  register(client: { clientId: string; clientSecret: string; redirectUris: string[] }): Promise<void>;
  close(): Promise<void>;
}
async function startTestIdp(): Promise<TestIdp> {
  const module = (await import(TEST_IDP_MODULE)) as { startTestIdp: () => Promise<TestIdp> };
  return module.startTestIdp();
}

const EMAIL = 'nina.keller@accounts.example';
const HANDOFF_EMAIL = 'hugo.link@accounts.example';
const PASSWORD = 'copper kettle hums softly';
const NEW_PASSWORD = 'seven lanterns over the bay';
const DAY = 24 * 3600;

/** The code an authenticator app shows for `secret` at `timestamp` (RFC 6238: SHA-1, 6 digits, 30 s). */
function totpCode(secret: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate({ timestamp });
}

async function json(origin: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${origin}${route}`, {
    method,
    headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as Record<string, unknown> | null };
}

/** Registers `email` and confirms it with the token of the mail written to DATA_DIR/outbox. */
async function createAccount(server: FerryProcess, email: string, password: string): Promise<void> {
  expect(
    (await json(server.url, 'POST', '/api/auth/register', { email, password, firstname: 'Nina' })).status,
  ).toBe(202);
  const token = await verificationTokenFromOutbox(server.dataDir, email);
  expect((await json(server.url, 'POST', '/api/auth/verify-email', { token })).status).toBe(200);
}

async function me(page: Page): Promise<{ user: { email: string; displayName: string | null } | null }> {
  return page.evaluate(async () => (await fetch('/api/auth/me')).json());
}

async function cookie(context: BrowserContext, name: string) {
  return (await context.cookies()).find((c) => c.name === name);
}

async function scrollWidth(page: Page): Promise<number> {
  return page.evaluate(() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth));
}

/** The elements that stick out past the right edge (what to fix when the page scrolls sideways). */
async function overflowing(page: Page, width: number): Promise<string[]> {
  return page.evaluate(
    (limit) =>
      Array.from(document.querySelectorAll<HTMLElement>('body *'))
        .filter((e) => e.getBoundingClientRect().right > limit + 0.5)
        .map(
          (e) => `${e.tagName.toLowerCase()}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`,
        )
        .slice(0, 8),
    width,
  );
}

/** No sideways scrolling at this width; else which elements stick out. */
async function fitsWidth(page: Page, width: number): Promise<void> {
  expect(await scrollWidth(page), (await overflowing(page, width)).join('\n')).toBeLessThanOrEqual(width);
}

async function focused(page: Page): Promise<string | null> {
  return page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);
}

/** With SCREENSHOT_DIR set, a full-page screenshot there (to look at the pages; nothing is compared). */
async function shot(page: Page, name: string): Promise<void> {
  const dir = process.env.SCREENSHOT_DIR;
  if (!dir) return;
  await fs.mkdir(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, name), fullPage: true, animations: 'disabled' });
}

/** Signs in on /signin; `code` answers the second-factor step when it appears. */
async function signIn(page: Page, origin: string, password: string, code?: () => string) {
  await page.goto(`${origin}/signin?next=${encodeURIComponent('/account/security')}`);
  await page.getByTestId('signin-email').fill(EMAIL);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  if (code) {
    await page.getByTestId('signin-code').waitFor();
    expect(await focused(page)).toBe('signin-code');
    await page.keyboard.type(code());
    await page.keyboard.press('Enter');
  }
  await page.getByTestId('page-account-security').waitFor({ timeout: 15_000 });
}

async function signOut(page: Page) {
  await page.getByTestId('user-menu-button').click();
  await page.getByTestId('user-menu-signout').click();
  await page.getByTestId('header-signin').waitFor();
}

describe('account pages in Chromium: two-factor authentication, password change, hand-off, OpenID Connect', () => {
  const scenarios = useBrowser();
  let server: FerryProcess;
  let idp: TestIdp;

  beforeAll(async () => {
    idp = await startTestIdp();
    server = await FerryProcess.start({
      env: {
        OIDC_PROVIDERS: JSON.stringify({
          acme: {
            issuer: idp.issuer,
            clientId: 'ferry',
            clientSecret: 'acme-secret-0123456789',
            label: 'Acme SSO',
          },
        }),
      },
    });
    await idp.register({
      clientId: 'ferry',
      clientSecret: 'acme-secret-0123456789',
      redirectUris: [`${server.url}/api/auth/oidc/acme/callback`],
    });
    await createAccount(server, EMAIL, PASSWORD);
  });

  afterEach(async (context: TestContext) => {
    if (failed(context)) await saveArtifact(context, 'server.log', server.output);
  });

  afterAll(async () => {
    await server?.stop();
    await idp?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
  });

  it('sets up 2FA on a phone-sized page, then signs in with a TOTP code and a recovery code; a password change signs the other session out', async () => {
    const origin = server.url;
    const context = await scenarios.newContext({
      viewport: { width: 375, height: 812 },
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    await signIn(page, origin, PASSWORD);
    // Another device, signed in too.
    const other = await scenarios.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(other, origin, PASSWORD);

    // --- Set up: the QR code and the key as text; the code field has the focus; Enter confirms.
    await page.getByTestId('totp-status').waitFor();
    expect(await page.getByTestId('totp-status').textContent()).toBe('Off');
    await page.getByTestId('totp-setup').click();
    await page.getByTestId('totp-qr').waitFor();
    expect(await page.getByTestId('totp-qr').getAttribute('aria-label')).toContain('QR code');
    const qrBox = (await page.getByTestId('totp-qr').boundingBox())!;
    expect(qrBox.width).toBeGreaterThanOrEqual(150);
    await fitsWidth(page, 375);
    await shot(page, 'account-totp-setup-phone.png');
    const secret = (await page.getByTestId('totp-secret').inputValue()).replace(/\s+/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    expect(await focused(page)).toBe('totp-enable-input');
    const enabledAt = Date.now();
    await page.keyboard.type(totpCode(secret, enabledAt));
    await page.keyboard.press('Enter');
    await page.getByTestId('recovery-codes').waitFor();
    const codes = await page.getByTestId('recovery-code').allTextContents();
    expect(codes).toHaveLength(10);
    await fitsWidth(page, 375);
    await shot(page, 'account-recovery-codes-phone.png');
    const download = page.waitForEvent('download');
    await page.getByTestId('recovery-codes-download').click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('ferry-recovery-codes.txt');
    expect(await fs.readFile((await saved.path())!, 'utf8')).toContain(codes[0]);
    await page.getByTestId('recovery-codes-done').click();
    await waitFor(async () => (await page.getByTestId('totp-status').textContent()) === 'On', {
      what: '2FA on',
    });
    expect(await page.getByTestId('recovery-code').count()).toBe(0);

    // --- Change the password: the other device is signed out, this one stays.
    await page.getByTestId('password-current').fill(PASSWORD);
    await page.getByTestId('password-new').fill(NEW_PASSWORD);
    await page.getByTestId('password-submit').click();
    await page.getByText('Your password is changed. 1 other session was signed out.').waitFor();
    expect((await me(page)).user?.email).toBe(EMAIL);
    expect((await me(other)).user).toBeNull();

    // --- Sign in again: the second factor is asked; the app's next code (one step of drift is accepted,
    // and the step used to turn 2FA on is spent).
    await signOut(page);
    await signIn(page, origin, NEW_PASSWORD, () => totpCode(secret, enabledAt + 30_000));
    expect((await me(page)).user?.email).toBe(EMAIL);

    // --- And with a recovery code instead: one fewer is left.
    await signOut(page);
    await signIn(page, origin, NEW_PASSWORD, () => codes[3]!);
    await page.getByTestId('totp-codes-left').waitFor();
    expect(await page.getByTestId('totp-codes-left').textContent()).toBe('9 recovery codes left.');

    // --- Turn it off, with the password.
    await page.getByTestId('totp-disable').click();
    expect(await focused(page)).toBe('totp-disable-form-input');
    await page.keyboard.type(NEW_PASSWORD);
    await page.keyboard.press('Enter');
    await waitFor(async () => (await page.getByTestId('totp-status').textContent()) === 'Off', {
      what: '2FA off',
    });
  });

  it('signs in by hand-off: a custom token with staySignedIn on any page, leaving no token in the address', async () => {
    const origin = server.url;
    await createAccount(server, HANDOFF_EMAIL, PASSWORD);
    const signin = await json(origin, 'POST', '/api/auth/signin', {
      email: HANDOFF_EMAIL,
      password: PASSWORD,
    });
    const idToken = String(signin.body?.idToken);
    const context = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(
      `${origin}/account/profile?tab=1&customToken=${encodeURIComponent(idToken)}&staySignedIn=true`,
    );
    await page.getByTestId('page-account-profile').waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).search).toBe('?tab=1');
    expect(await page.getByTestId('profile-email').textContent()).toBe(HANDOFF_EMAIL);
    expect((await cookie(context, 'ferry_session'))?.expires).toBeGreaterThan(Date.now() / 1000 + 13.9 * DAY);
    const domain = await cookie(context, 'ferry_auth_domain');
    expect(domain?.value).toBe('127.0.0.1');
    expect(domain?.expires).toBeGreaterThan(Date.now() / 1000 + 89.9 * DAY);

    await shot(page, 'account-profile.png');
    // The profile: the first name is saved and becomes the display name.
    await page.getByTestId('profile-firstname').fill('Nina K.');
    await page.getByTestId('profile-save').click();
    await page.getByText('Your profile is saved.').waitFor();
    expect((await me(page)).user?.displayName).toBe('Nina K.');

    // A custom token that does not work: signed out to anonymous, and told.
    await page.goto(`${origin}/?customToken=not.a.token`);
    await page.getByText('This sign-in link did not work.', { exact: false }).waitFor();
    expect(new URL(page.url()).search).toBe('');
    expect((await me(page)).user).toBeNull();
  });

  it('signs in with an OpenID Connect provider and lands back on the page asked for; a cancel is told on /signin', async () => {
    const origin = server.url;
    idp.accounts.set('oidc-1', {
      email: 'omar.idp@people.example',
      email_verified: true,
      given_name: 'Omar',
    });
    idp.nextLogin = 'oidc-1';
    const page = await scenarios.newPage({ viewport: { width: 375, height: 812 }, isMobile: true });
    await page.goto(`${origin}/account/security`);
    await page.waitForURL(/\/signin\?next=%2Faccount%2Fsecurity$/);
    const button = page.getByTestId('oidc-provider');
    await button.waitFor();
    expect(await button.textContent()).toBe('Continue with Acme SSO');
    await fitsWidth(page, 375);
    await shot(page, 'auth-signin-providers-phone.png');
    // By keyboard: the link is focusable and Enter follows it.
    await button.focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('page-account-security').waitFor({ timeout: 20_000 });
    expect(new URL(page.url()).pathname).toBe('/account/security');
    expect((await me(page)).user?.email).toBe('omar.idp@people.example');

    // Someone else, in another browser, cancels at the provider.
    idp.nextLogin = null;
    const cancelled = await scenarios.newPage({ viewport: { width: 1280, height: 900 } });
    await cancelled.goto(`${origin}/signin`);
    await cancelled.getByTestId('oidc-provider').click();
    await cancelled.getByTestId('signin-oidc-error').waitFor({ timeout: 20_000 });
    expect(new URL(cancelled.url()).search).toBe('?error=cancelled');
    expect(await cancelled.getByTestId('signin-oidc-error').textContent()).toContain('cancelled');
    expect((await me(cancelled)).user).toBeNull();
    await shot(cancelled, 'auth-signin-oidc-cancelled.png');
    await cancelled.goto(`${origin}/register/enterprise`);
    await cancelled.getByTestId('enterprise-submit').click();
    expect(await cancelled.getByTestId('enterprise-name').getAttribute('aria-invalid')).toBe('true');
    await shot(cancelled, 'auth-enterprise-errors.png');
  });
});
