import fs from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { StripeStandin, TEST_CARDS } from '../../apps/server/src/test/stripe-standin.js';
import { registerAndVerify } from '../support/accounts.js';
import { failed, saveArtifact } from '../support/artifacts.js';
import { useBrowser } from '../support/browser.js';
import { runFerry } from '../support/cli.js';
import { sha256File, writeRandomFile } from '../support/files.js';
import { type MailSink, startMailSink } from '../support/mail.js';
import { FerryProcess, tempDir } from '../support/server.js';

/**
 * Issue 19's "done when", in Chromium through the real pages against the built server on its embedded default:
 * a newcomer signs up from /register?type=PREMIUM&frequency=ANNUAL, gets a MANUAL invoice as a PDF, an operator
 * marks it paid with `ferry operator mark-paid`, and `ferry whoami` says PREMIUM; then the same path with STRIPE
 * against the Stripe stand-in (its Stripe.js stand-in served to the page), with a card that asks for 3-D Secure.
 */
const PASSWORD = 'lighthouse keeper sings';
const OPERATOR = 'ops@ferry-billing.example';

async function signUpInPage(page: Page, origin: string, sink: MailSink, email: string, query: string) {
  await page.goto(`${origin}/register?${query}`);
  await page.getByTestId('register-email').fill(email);
  await page.getByTestId('register-password').fill(PASSWORD);
  await page.getByTestId('register-submit').click();
  await page.getByTestId('register-sent').waitFor();
  const mail = await sink.waitFor(`the verification mail of ${email}`, (m) => m.to.includes(email));
  const link = new RegExp(`${origin}/verify-email\\?token=[A-Za-z0-9_-]+`).exec(mail.parsed.text ?? '')?.[0];
  expect(link, 'a verification link').toBeTruthy();
  await page.goto(link!);
  // Signed in, the account still on NONE with a chosen plan: on to checkout.
  await page.waitForURL(/\/account\/subscriptions/, { timeout: 15_000 });
  await page.getByTestId('checkout').waitFor();
}

async function planOf(page: Page): Promise<string> {
  return page.evaluate(async () => (await (await fetch('/api/auth/me')).json()).planType);
}

describe('plans people can get, in Chromium and with the ferry CLI', () => {
  const scenarios = useBrowser();
  let sink: MailSink;
  let standin: StripeStandin;
  let server: FerryProcess;
  let work: string;

  const ferry = (args: string[]) =>
    runFerry(args, { FERRY_STATE_DIR: path.join(work, 'state'), FERRY_SERVER: server.url });

  beforeAll(async () => {
    sink = await startMailSink();
    standin = await StripeStandin.start();
    work = await tempDir('billing');
    server = await FerryProcess.start({
      env: {
        ...standin.env(),
        PAYMENT_PROVIDERS: 'MANUAL,STRIPE',
        SMTP_URL: sink.url,
        MAIL_FROM: 'no-reply@ferry.example',
        MAIL_RETRY_DELAY_SECONDS: '1',
        OPERATOR_EMAILS: OPERATOR,
        SELLER_NAME: 'Ferry Test SAS',
        SELLER_ADDRESS: '1 rue de la Paix, 75002 Paris',
        SELLER_VAT_ID: 'FR40303265045',
        SELLER_BANK_DETAILS: 'IBAN FR76 3000 6000 0112 3456 7890 189\\nBIC AGRIFRPP',
      },
    });
    standin.webhookUrl = `${server.url}/api/pay/webhooks/stripe`;
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
    await standin?.close();
    await sink?.close();
    if (server) await fs.rm(server.dataDir, { recursive: true, force: true });
    if (work) await fs.rm(work, { recursive: true, force: true });
  });

  it('MANUAL: sign-up from the prices link, an invoice as a PDF, paid by an operator with the CLI, then PREMIUM', async () => {
    const email = 'nora@billing.example';
    const context = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signUpInPage(page, server.url, sink, email, 'type=PREMIUM&frequency=ANNUAL');
    expect(await page.getByTestId('checkout-plan').inputValue()).toBe('PREMIUM');
    await page.getByTestId('checkout-country').selectOption('FR');
    await page.getByTestId('provider-MANUAL').check();
    await page.getByTestId('checkout-submit').click();
    await page.getByTestId('checkout-invoice').waitFor();
    await page.getByTestId('checkout-starts-when-paid').waitFor();

    // The invoice is a PDF, served to its owner.
    const href = await page.getByTestId('checkout-invoice-pdf').getAttribute('href');
    const number = /invoices\/([A-Z0-9-]+)\/pdf/.exec(href ?? '')?.[1];
    expect(number).toMatch(/^FRY-\d{4}-\d{6}$/);
    const pdf = await page.request.get(`${server.url}${href}`);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
    expect(await planOf(page)).toBe('NONE');

    // An operator marks it paid from the command line.
    await registerAndVerify(server.url, sink, OPERATOR, PASSWORD);
    const login = await ferry(['login', '--email', OPERATOR, '--password', PASSWORD]);
    expect(login.code, login.stderr).toBe(0);
    const open = await ferry(['operator', 'invoices', '--open', '--json']);
    expect(open.code, open.stderr).toBe(0);
    expect(JSON.parse(open.stdout)).toEqual([
      expect.objectContaining({ number, email, status: 'open', currency: 'EUR' }),
    ]);
    const marked = await ferry(['operator', 'mark-paid', number!]);
    expect(marked.code, marked.stderr).toBe(0);

    // The newcomer's own CLI says PREMIUM at once.
    await ferry(['logout']);
    expect((await ferry(['login', '--email', email, '--password', PASSWORD])).code).toBe(0);
    const who = await ferry(['whoami']);
    expect(who.code, who.stderr).toBe(0);
    expect(who.stdout).toBe(`${email} PREMIUM\n`);
    await page.goto(`${server.url}/account/subscriptions`);
    await page.getByTestId('subscription-status').waitFor();
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Active');
    expect(await planOf(page)).toBe('PREMIUM');
    // The operator, signed in from another state folder, sees her plan in the console's list.
    const ops = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'ops-state'), FERRY_SERVER: server.url });
    expect((await ops(['login', '--email', OPERATOR, '--password', PASSWORD])).code).toBe(0);
    const listed = await ops(['operator', 'users', '--search', 'nora', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ email, planType: 'PREMIUM', planCode: 'PREMIUM', suspended: false }),
    ]);
    await context.close();
  });

  it('selling files: ferry send --price, ferry get exits 5 with the page to buy at, a buyer pays in Chromium and downloads with the mailed link', async () => {
    // Nora (PREMIUM since the operator marked her invoice paid) is the CLI's signed-in account.
    const source = path.join(work, 'stems.wav');
    const digest = await writeRandomFile(source, 300_000);
    const sent = await ferry(['send', source, '--price', '12.50', '--currency', 'EUR', '--name', 'Stems']);
    expect(sent.code, sent.stderr).toBe(0);
    const link = sent.stdout.trim();
    const id = /\/dl\/([A-Za-z0-9]{16})$/.exec(link)?.[1];
    expect(id).toBeTruthy();

    // Without a purchase: exit 5 and the page to buy at (Nora's own CLI would download freely: use another state).
    const stranger = (args: string[]) =>
      runFerry(args, { FERRY_STATE_DIR: path.join(work, 'buyer-state'), FERRY_SERVER: server.url });
    const refused = await stranger(['get', link, '--out', path.join(work, 'nope')]);
    expect(refused.code, refused.stderr).toBe(5);
    expect(refused.stderr).toContain(`${server.url}/dl/${id}#buy`);
    expect(refused.stderr).toContain('12.50 EUR');

    // A buyer pays on the download page.
    const buyer = 'paula@buyer.example';
    const context = await scenarios.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(link);
    await page.getByTestId('purchase').waitFor();
    expect(await page.getByTestId('download-all').isDisabled()).toBe(true);
    await page.getByTestId('purchase-email').fill(buyer);
    await page.getByTestId('purchase-country').selectOption('FR');
    await page.getByLabel('Card number').fill(TEST_CARDS.succeeds);
    await page
      .getByLabel('Expiration date (MM / YY)')
      .fill(`12 / ${(new Date().getUTCFullYear() + 3) % 100}`);
    await page.getByLabel('Security code (CVC)').fill('123');
    expect((await page.getByTestId('purchase-total').textContent())?.replace(/\s/g, ' ')).toContain('15.00');
    await page.getByTestId('purchase-pay').click();
    // The page waits for the payment to be taken, then unlocks the downloads.
    await page.waitForFunction(
      () =>
        (document.querySelector('[data-testid="download-all"]') as HTMLButtonElement | null)?.disabled ===
        false,
      null,
      { timeout: 20_000 },
    );
    expect(await page.getByTestId('purchase').count()).toBe(0);
    expect(await page.getByTestId('purchase-waiting').count()).toBe(0);
    await context.close();

    // The receipt mail carries the personal link; the CLI downloads with it.
    const receipt = await sink.waitFor('the purchase receipt', (m) => m.to.includes(buyer));
    const personal = new RegExp(`${server.url}/dl/${id}\\?purchase=[A-Za-z0-9._%-]+`).exec(
      receipt.parsed.text ?? '',
    )?.[0];
    expect(personal, 'a personal link in the receipt').toBeTruthy();
    const got = await stranger(['get', decodeURIComponent(personal!), '--out', path.join(work, 'bought')]);
    expect(got.code, got.stderr).toBe(0);
    expect(await sha256File(path.join(work, 'bought', 'stems.wav'))).toBe(digest);
  });

  it('STRIPE: the card asks for 3-D Secure, the page confirms it, and the plan is active once Stripe says paid', async () => {
    const email = 'omar@billing.example';
    const context = await scenarios.newContext({ viewport: { width: 375, height: 800 } });
    const page = await context.newPage();
    await signUpInPage(page, server.url, sink, email, 'type=PREMIUM&frequency=MONTHLY');
    await page.getByTestId('checkout-country').selectOption('DE');
    await page.getByTestId('provider-STRIPE').check();
    // The Stripe.js stand-in, served by the Stripe stand-in at STRIPE_JS_URL, draws the card inputs.
    await page.getByLabel('Card number').fill(TEST_CARDS.requiresAuthentication);
    await page
      .getByLabel('Expiration date (MM / YY)')
      .fill(`12 / ${(new Date().getUTCFullYear() + 3) % 100}`);
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByTestId('checkout-submit').click();
    await page.getByRole('dialog').getByRole('button', { name: 'Complete authentication' }).click();
    await page.getByTestId('checkout-success').waitFor({ timeout: 20_000 });
    expect(await planOf(page)).toBe('PREMIUM');
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll).toBeLessThanOrEqual(375);

    // A paid Ferry invoice with German VAT, listed for its owner.
    await page.goto(`${server.url}/account/invoices`);
    await page.getByTestId('invoice-table').waitFor();
    const invoices = await page.evaluate(
      async () => (await (await fetch('/api/pay/invoices')).json()).invoices,
    );
    expect(invoices).toEqual([expect.objectContaining({ status: 'paid', taxRate: 19, provider: 'STRIPE' })]);
    await context.close();
  });
});
