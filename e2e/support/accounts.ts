import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import type { MailSink } from './mail.js';

/**
 * Accounts for the browser suites, made as a person makes them: signed up through the API, confirmed through the
 * link of the mail the SMTP sink received, signed in on the /signin page.
 */

/** Signs `email` up (with `firstname` when given) and confirms it with the token of its verification mail. */
export async function registerAndVerify(
  origin: string,
  sink: MailSink,
  email: string,
  password: string,
  firstname?: string,
): Promise<void> {
  const registered = await fetch(`${origin}/api/auth/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email, password, ...(firstname === undefined ? {} : { firstname }) }),
  });
  expect(registered.status).toBe(202);
  const mail = await sink.waitFor(`the verification mail of ${email}`, (m) => m.to.includes(email));
  const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text ?? '')?.[1];
  expect(token, `a confirmation link in the mail to ${email}`).toBeTruthy();
  const verified = await fetch(`${origin}/api/auth/verify-email`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  expect(verified.status).toBe(200);
}

/**
 * Signs `email` in on the /signin page (with `?next=` when given) and waits to be sent on from it.
 */
export async function signInInPage(
  page: Page,
  origin: string,
  email: string,
  password: string,
  next?: string,
): Promise<void> {
  await page.goto(`${origin}/signin${next === undefined ? '' : `?next=${encodeURIComponent(next)}`}`);
  await page.getByTestId('signin-email').fill(email);
  await page.getByTestId('signin-password').fill(password);
  await page.getByTestId('signin-submit').click();
  await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 15_000 });
}
