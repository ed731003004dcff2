import type { Permission } from '@ferry/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { api, randomFile, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Plans and subscriptions through the API (spec §3, §4, §7 /pay/*, issue 19): the catalogue, MANUAL checkout
 * paid by an operator, trials, cancelling at the period's end, prorated upgrades, dunning, an operator's plan
 * with an end date, and who may call what. Billing's clock is moved by the tests; the maintenance runs on demand.
 */
const DAY = 86_400_000;
let clock = new Date();
let sink: SmtpSink;
let ferry: TestFerry;
let n = 0;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let operator: Account;
let payer: Account;
let other: Account;
let manager: Account;
let billingMember: Account;
let plainMember: Account;
let otherManager: Account;

const OPERATOR = `ops-${process.pid}@ferry.example`;
const waitFor = (to: string) => sink.waitFor((m) => m.to.includes(to));
const account = (label: string, email = `${label}-${process.pid}-${++n}@subs.example`) =>
  signedInAccount(ferry.baseUrl, email, waitFor);
const as = (who: Account | null, path: string, init: Parameters<typeof api>[2] = {}) =>
  api(ferry.baseUrl, path, { ...init, headers: { ...(who?.bearer ?? {}), ...(init.headers ?? {}) } });
const state = async (who: Account) => (await as(who, '/api/auth/me')).body;
const limits = async (who: Account) => (await as(who, `/api/transfer/limits/${who.uid}`)).body;
const start = (who: Account, body: Record<string, unknown>) =>
  as(who, '/api/pay/subscriptions', {
    method: 'POST',
    json: { provider: 'MANUAL', countryCode: 'FR', frequency: 'ANNUAL', planCode: 'PREMIUM', ...body },
  });
const markPaid = (number: string) => ferry.billing.invoices.markPaid(number, operator.uid);
const tick = () => ferry.billing.dunning.tick();
/** Dunning mails (day 0, day 3, ended) an account received; invoice mails are others. */
const dunningMailsTo = (who: Account) =>
  sink.messages.filter(
    (m) => m.to.includes(who.email) && /did not go through|still due|has ended/.test(m.parsed.subject ?? ''),
  );

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      OPERATOR_EMAILS: OPERATOR,
    },
    now: () => clock,
  });
  operator = await account('ops', OPERATOR);
  payer = await account('payer');
  other = await account('other');
  manager = await account('manager');
  billingMember = await account('billing');
  plainMember = await account('plain');
  otherManager = await account('other-manager');
  const join = (member: Account, permissions: Permission[]) =>
    query(ferry, 'UPDATE users SET manager_id = $2, permissions = $3 WHERE id = $1', [
      member.uid,
      manager.uid,
      permissions,
    ]);
  await join(billingMember, ['BILLING']);
  await join(plainMember, ['TRANSFER_MANAGER']);
});
beforeEach(async () => {
  clock = new Date();
  await query(ferry, 'DELETE FROM subscriptions');
  await query(ferry, 'DELETE FROM billing_customers');
  await query(ferry, 'DELETE FROM transfers');
  await query(ferry, 'DELETE FROM invoices');
  await query(ferry, 'DELETE FROM operator_actions');
  await query(
    ferry,
    `UPDATE users SET plan_type = 'NONE', plan_code = NULL, plan_ends_at = NULL, limit_settings = '{}'`,
  );
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

describe('GET /api/pay/plans', () => {
  it('lists every self-service code with its storage and prices, CUSTOM by contract, without signing in', async () => {
    const res = await api(ferry.baseUrl, '/api/pay/plans');
    expect(res.status).toBe(200);
    const byCode = Object.fromEntries(res.body.plans.map((p: { planCode: string }) => [p.planCode, p]));
    expect(byCode.PREMIUM_2TB.storageGB).toBe(2000);
    expect(byCode.PREMIUM_10TB.storageGB).toBe(10000);
    expect(byCode.TEAM10.licences).toBe(10);
    expect(byCode.CUSTOM).toMatchObject({ selfService: false, prices: [], planType: 'ENTERPRISE' });
    const eur = (freq: string) =>
      byCode.PREMIUM.prices.find(
        (p: { frequency: string; currency: string }) => p.frequency === freq && p.currency === 'EUR',
      ).amount;
    // Annual is cheaper per month than monthly, biannual cheaper still.
    expect(eur('ANNUAL') / 12).toBeLessThan(eur('MONTHLY'));
    expect(eur('BIANNUAL') / 24).toBeLessThan(eur('ANNUAL') / 12);
    expect(res.body).toMatchObject({
      currencies: ['EUR', 'USD', 'GBP'],
      trialDays: 14,
      providers: ['MANUAL'],
    });
  });
});

describe('a newcomer buys PREMIUM annual by MANUAL invoice', () => {
  it('registers with the chosen plan, gets an open invoice, and has PREMIUM once an operator marks it paid', async () => {
    const email = `newcomer-${process.pid}@subs.example`;
    const reg = await api(ferry.baseUrl, '/api/auth/register', {
      method: 'POST',
      json: { email, password: 'correct horse battery', plan: { type: 'PREMIUM', frequency: 'ANNUAL' } },
    });
    expect(reg.status).toBe(202);
    const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(
      (await waitFor(email)).parsed.text || '',
    )?.[1];
    const verified = await api(ferry.baseUrl, '/api/auth/verify-email', { method: 'POST', json: { token } });
    const session = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
      headers: { 'id-token': verified.body.idToken },
    });
    const bearer = { authorization: `Bearer ${session.body.sessionCookie}` };
    const me = await api(ferry.baseUrl, '/api/auth/me', { headers: bearer });
    expect(me.body.chosenPlan).toMatchObject({ type: 'PREMIUM', frequency: 'ANNUAL' });
    const newcomer = { email, uid: me.body.user.uid as string, bearer };

    const started = await start(newcomer, { planCode: me.body.chosenPlan.type, frequency: 'ANNUAL' });
    expect(started.status).toBe(201);
    // 120.00 a year, and French VAT (20 %) for a consumer in France.
    expect(started.body).toMatchObject({
      status: 'incomplete',
      invoice: { amountDue: 14400, currency: 'EUR' },
    });
    expect(started.body.invoice.number).toMatch(/^FRY-\d{4}-\d{6}$/);
    // The plan chosen at sign-up has reached checkout.
    expect((await state(newcomer)).chosenPlan).toBeNull();
    expect((await state(newcomer)).planType).toBe('NONE');
    const infos = await as(newcomer, `/api/pay/customers/${newcomer.uid}/payment-infos`);
    expect(infos.body.subscription).toMatchObject({ status: 'incomplete', openedInvoicesAmount: 14400 });

    const pdf = await fetch(`${ferry.baseUrl}${started.body.invoice.pdfUrl}`, { headers: bearer });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toContain('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');

    // The operator marks it paid (what `ferry operator mark-paid` calls).
    const marked = await as(operator, `/api/operator/invoices/${started.body.invoice.number}/mark-paid`, {
      method: 'POST',
    });
    expect(marked.status).toBe(200);
    expect((await state(newcomer)).planType).toBe('PREMIUM');
    // The client's poll (spec §4): a fresh id token makes a session token whose claims carry the new plan.
    const idToken = await as(newcomer, '/api/auth/auth/id-token');
    const fresh = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
      headers: { 'id-token': idToken.body.idToken },
    });
    const claims = JSON.parse(Buffer.from(fresh.body.sessionCookie.split('.')[1], 'base64url').toString());
    expect(claims.plan_type).toBe('PREMIUM');
    expect((await limits(newcomer)).storage).toBe(1000e9);
    const current = (await as(newcomer, '/api/pay/subscriptions/current')).body.subscription;
    expect(current).toMatchObject({
      status: 'active',
      planCode: 'PREMIUM',
      frequency: 'ANNUAL',
      intentStatus: 'succeeded',
    });
    const year =
      new Date(current.currentPeriodEnd).getTime() - new Date(current.currentPeriodStart).getTime();
    expect(Math.round(year / DAY)).toBeGreaterThanOrEqual(365);
    const after = await as(newcomer, `/api/pay/customers/${newcomer.uid}/payment-infos`);
    expect(after.body).toMatchObject({
      subscription: { status: 'active', openedInvoicesAmount: 0, intentStatus: 'succeeded' },
      defaultPaymentMethod: null,
    });
    const customer = await as(newcomer, `/api/pay/customers/${newcomer.uid}`);
    expect(customer.body).toMatchObject({ id: newcomer.uid, email, countryCode: 'FR', provider: 'MANUAL' });
  });

  it('refuses a second live subscription, CUSTOM, and a provider that is not offered', async () => {
    expect((await start(payer, {})).status).toBe(201);
    expect((await start(payer, {})).status).toBe(409);
    const custom = await start(other, { planCode: 'CUSTOM' });
    expect(custom.status).toBe(400);
    const vat = await start(other, { countryCode: 'DE', vatNumber: 'DE12' });
    expect(vat.status).toBe(400);
    expect(vat.body.codes).toContain('INVALID_VAT_NUMBER');
    const stripe = await start(other, { provider: 'STRIPE' });
    expect(stripe.status).toBe(400);
    expect(stripe.body.error ?? stripe.body.codes).toBeDefined();
    expect(JSON.stringify(stripe.body)).toContain('PAYMENT_PROVIDER_NOT_AVAILABLE');
  });
});

describe('trials', () => {
  it('start the plan at once for TRIAL_DAYS, once per account ever', async () => {
    const res = await start(payer, { trial: true });
    expect(res.body).toMatchObject({ status: 'trialing', invoice: null });
    expect((await state(payer)).planType).toBe('PREMIUM');
    const sub = (await as(payer, '/api/pay/subscriptions/current')).body.subscription;
    const days = (new Date(sub.trialEndsAt).getTime() - clock.getTime()) / DAY;
    expect(Math.round(days)).toBe(14);
    await as(payer, `/api/pay/subscriptions/${res.body.subscriptionId}/cancel`, { method: 'POST' });
    clock = new Date(clock.getTime() + 15 * DAY);
    await tick();
    expect((await state(payer)).planType).toBe('NONE');
    const again = await start(payer, { trial: true });
    expect(again.status).toBe(409);
  });
});

describe('cancel at the period end', () => {
  it('keeps the plan until the end, then NONE; resume undoes a cancel', async () => {
    const res = await start(payer, { frequency: 'MONTHLY' });
    await markPaid(res.body.invoice.number);
    const id = res.body.subscriptionId;
    const canceled = await as(payer, `/api/pay/subscriptions/${id}/cancel`, { method: 'POST' });
    expect(canceled.body.subscription).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' });
    const resumed = await as(payer, `/api/pay/subscriptions/${id}/resume`, { method: 'POST' });
    expect(resumed.body.subscription.cancelAtPeriodEnd).toBe(false);
    // The renewal invoice comes 7 days ahead; cancelling voids it.
    const end = new Date(resumed.body.subscription.currentPeriodEnd).getTime();
    clock = new Date(end - 6 * DAY);
    expect((await tick()).invoiced).toBe(1);
    const open = async () =>
      (await as(payer, `/api/pay/customers/${payer.uid}/payment-infos`)).body.subscription
        .openedInvoicesAmount;
    expect(await open()).toBe(1440);
    await as(payer, `/api/pay/subscriptions/${id}/cancel`, { method: 'POST' });
    expect(await open()).toBe(0);
    expect((await state(payer)).planType).toBe('PREMIUM');

    clock = new Date(end - DAY);
    await tick();
    expect((await state(payer)).planType).toBe('PREMIUM');
    clock = new Date(end + 60_000);
    await tick();
    expect((await state(payer)).planType).toBe('NONE');
    expect((await as(payer, '/api/pay/subscriptions/current')).body.subscription).toBeNull();
  });
});

describe('upgrades', () => {
  it('PREMIUM → PREMIUM_2TB half-way through the year: the unused half is credited, the new plan holds once paid', async () => {
    const res = await start(payer, { frequency: 'ANNUAL' });
    await markPaid(res.body.invoice.number);
    const sub = (await as(payer, '/api/pay/subscriptions/current')).body.subscription;
    const startAt = new Date(sub.currentPeriodStart).getTime();
    const endAt = new Date(sub.currentPeriodEnd).getTime();
    clock = new Date(startAt + (endAt - startAt) / 2);
    const changed = await as(payer, `/api/pay/subscriptions/${res.body.subscriptionId}`, {
      method: 'PATCH',
      json: { planCode: 'PREMIUM_2TB' },
    });
    expect(changed.status).toBe(200);
    // 200.00 for the new year less 60.00 unused of the old one, plus 20 % VAT.
    expect(changed.body.invoice.amountDue).toBe((20000 - 6000) * 1.2);
    expect((await limits(payer)).storage).toBe(1000e9);
    // Four transfers of 250 GB fill PREMIUM's 1 000 GB: a fifth is refused until the upgrade is paid.
    const declare = () =>
      as(payer, '/api/transfer/transfers', {
        method: 'POST',
        json: { type: 'S2', files: [{ name: 'big.bin', size: 250e9 }], expiresInDays: 30 },
      });
    for (let i = 0; i < 4; i++) expect((await declare()).status).toBe(201);
    const refused = await declare();
    expect(refused.status).toBe(400);
    expect(refused.body.limitErrors).toEqual([expect.objectContaining({ limit: 'storage', max: 1000e9 })]);
    await markPaid(changed.body.invoice.number);
    expect((await limits(payer)).storage).toBe(2000e9);
    expect((await declare()).status).toBe(201);

    const after = (await as(payer, '/api/pay/subscriptions/current')).body.subscription;
    expect(after).toMatchObject({ planCode: 'PREMIUM_2TB', amount: 20000 });
    expect(new Date(after.currentPeriodStart).getTime()).toBe(clock.getTime());

    // Back to NONE: nothing is deleted, and new uploads are held to NONE's 100 GB.
    await as(operator, `/api/operator/users/${payer.uid}/plan`, {
      method: 'PUT',
      json: { planCode: 'NONE' },
    });
    expect((await query(ferry, 'SELECT id FROM transfers WHERE owner_id = $1', [payer.uid])).length).toBe(5);
    const small = await as(payer, '/api/transfer/transfers', {
      method: 'POST',
      json: { type: 'S2', files: [{ name: 'small.bin', size: 1 }], expiresInDays: 1 },
    });
    expect(small.body.limitErrors).toEqual([expect.objectContaining({ limit: 'storage', max: 100e9 })]);
  });
});

describe('changes waiting', () => {
  it('a second upgrade replaces the first (its invoice voided); going back drops it; a downgrade waits', async () => {
    const res = await start(payer, { frequency: 'ANNUAL' });
    await markPaid(res.body.invoice.number);
    const path = `/api/pay/subscriptions/${res.body.subscriptionId}`;
    const patch = (json: Record<string, unknown>) => as(payer, path, { method: 'PATCH', json });
    const first = (await patch({ planCode: 'PREMIUM_2TB' })).body.invoice.number;
    const second = (await patch({ planCode: 'PREMIUM_5TB' })).body.invoice.number;
    const status = async (number: string) =>
      (await query<{ status: string }>(ferry, 'SELECT status FROM invoices WHERE number = $1', [number]))[0]
        ?.status;
    expect([await status(first), await status(second)]).toEqual(['void', 'open']);
    const back = await patch({ planCode: 'PREMIUM' });
    expect(back.body.invoice).toBeNull();
    expect(await status(second)).toBe('void');
    expect(
      (await as(payer, `/api/pay/customers/${payer.uid}/payment-infos`)).body.subscription
        .openedInvoicesAmount,
    ).toBe(0);

    // Another frequency of the same plan waits for the next period: the year paid runs out first.
    const monthly = await patch({ frequency: 'MONTHLY' });
    expect(monthly.body).toMatchObject({
      invoice: null,
      subscription: { frequency: 'ANNUAL', planCode: 'PREMIUM' },
    });
  });
});

async function upload(who: Account) {
  const data = randomFile(2048);
  const created = await as(who, '/api/transfer/transfers', {
    method: 'POST',
    json: { type: 'S2', files: [{ name: 'kept.bin', size: data.length }], expiresInDays: 30 },
  });
  expect(created.status).toBe(201);
  const tus = new TusTestClient(ferry.baseUrl, created.body.uploadToken);
  await tus.upload(created.body.transferId, created.body.files[0].id, data);
  const done = await as(who, `/api/transfer/transfers/${created.body.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.body.uploadToken },
    json: { files: [{ id: created.body.files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  return created.body.transferId as string;
}

describe('dunning', () => {
  it('mails on days 0, 3 and 7 of an unpaid MANUAL renewal, then falls back to NONE and keeps the files', async () => {
    const res = await start(payer, { frequency: 'MONTHLY' });
    await markPaid(res.body.invoice.number);
    const transferId = await upload(payer);
    const sub = (await as(payer, '/api/pay/subscriptions/current')).body.subscription;
    const end = new Date(sub.currentPeriodEnd).getTime();
    const before = dunningMailsTo(payer).length;
    const open = async () =>
      (await as(payer, `/api/pay/customers/${payer.uid}/payment-infos`)).body.subscription
        .openedInvoicesAmount;
    const openBefore = await open();

    clock = new Date(end - 5 * DAY);
    expect((await tick()).invoiced).toBe(1);
    expect((await tick()).invoiced).toBe(0);
    // The renewal invoice, issued ahead of the period's end.
    expect((await open()) - openBefore).toBe(1440);

    clock = new Date(end + 60_000);
    expect((await tick()).pastDue).toBe(1);
    await sink.waitFor(
      (m) => m.to.includes(payer.email) && /did not go through/.test(m.parsed.subject ?? ''),
    );
    expect((await as(payer, '/api/pay/subscriptions/current')).body.subscription.status).toBe('past_due');
    expect((await state(payer)).planType).toBe('PREMIUM');

    clock = new Date(end + 3 * DAY + 120_000);
    expect((await tick()).dunned).toBe(1);
    await sink.waitFor((m) => m.to.includes(payer.email) && /still due/.test(m.parsed.subject ?? ''));
    expect((await state(payer)).planType).toBe('PREMIUM');

    clock = new Date(end + 7 * DAY + 120_000);
    expect((await tick()).dunned).toBe(1);
    const ended = await sink.waitFor(
      (m) => m.to.includes(payer.email) && /has ended/.test(m.parsed.subject ?? ''),
    );
    expect(ended.parsed.text).toContain('Nothing was deleted');
    expect(dunningMailsTo(payer).length - before).toBe(3);
    expect((await state(payer)).planType).toBe('NONE');
    expect((await as(payer, '/api/pay/subscriptions/current')).body.subscription).toBeNull();
    const kept = await query(ferry, 'SELECT status FROM transfers WHERE id = $1', [transferId]);
    expect(kept).toEqual([{ status: 'ENABLED' }]);
    expect((await limits(payer)).storageUsed).toBe(2048);
    // The renewal it did not pay for is not owed: voided.
    expect(await ferry.billing.invoices.openAmount(payer.uid)).toBe(openBefore);
  });
});

describe('an operator sets a plan', () => {
  const setPlan = (who: Account, uid: string, json: Record<string, unknown>) =>
    as(who, `/api/operator/users/${uid}/plan`, { method: 'PUT', json });

  it('with an end date: raised limits now, NONE once the day has passed, one journal row', async () => {
    const until = new Date(clock.getTime() + 10 * DAY).toISOString().slice(0, 10);
    const res = await setPlan(operator, payer.uid, { planCode: 'PREMIUM_5TB', until });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ uid: payer.uid, planType: 'PREMIUM', planCode: 'PREMIUM_5TB' });
    expect(res.body.planEndsAt).toBe(`${until}T23:59:59.999Z`);
    expect((await state(payer)).planType).toBe('PREMIUM');
    expect((await limits(payer)).storage).toBe(5000e9);
    const journal = await query(
      ferry,
      `SELECT action, target, details FROM operator_actions WHERE target_user_id = $1`,
      [payer.uid],
    );
    expect(journal).toEqual([
      expect.objectContaining({
        action: 'set-plan',
        target: payer.email,
        details: expect.objectContaining({ planCode: 'PREMIUM_5TB' }),
      }),
    ]);
    clock = new Date(clock.getTime() + 11 * DAY);
    await tick();
    expect((await state(payer)).planType).toBe('NONE');
    expect((await limits(payer)).storage).toBe(100e9);
  });

  it('CUSTOM with seats; seats for another code are refused; NONE cancels a running subscription', async () => {
    const custom = await setPlan(operator, other.uid, { planCode: 'CUSTOM', seats: 12 });
    expect(custom.body).toMatchObject({ planType: 'ENTERPRISE', planCode: 'CUSTOM', licences: 12 });
    expect((await setPlan(operator, other.uid, { planCode: 'TEAM10', seats: 3 })).status).toBe(400);
    expect((await setPlan(operator, other.uid, { planCode: 'TEAM10', until: '2020-01-01' })).status).toBe(
      400,
    );

    const res = await start(payer, {});
    await markPaid(res.body.invoice.number);
    const none = await setPlan(operator, payer.uid, { planCode: 'NONE' });
    expect(none.body).toMatchObject({ planType: 'NONE', planCode: null });
    expect((await as(payer, '/api/pay/subscriptions/current')).body.subscription).toBeNull();
    const list = await as(operator, '/api/operator/subscriptions');
    expect(list.body.subscriptions).toEqual([
      expect.objectContaining({
        uid: payer.uid,
        email: payer.email,
        status: 'canceled',
        planCode: 'PREMIUM',
      }),
    ]);
  });
});

describe('who may call what', () => {
  it('operator routes are 404 to everyone else, signed in or not', async () => {
    for (const who of [payer, manager, null]) {
      const put = await as(who, `/api/operator/users/${payer.uid}/plan`, {
        method: 'PUT',
        json: { planCode: 'PREMIUM' },
      });
      expect(put.status).toBe(404);
      expect((await as(who, '/api/operator/subscriptions')).status).toBe(404);
    }
    expect((await as(operator, '/api/operator/subscriptions')).status).toBe(200);
  });

  it("a team member needs BILLING: their purchase is the team's; other teams' customers are not found", async () => {
    expect((await start(plainMember, {})).status).toBe(403);
    expect((await as(plainMember, '/api/pay/subscriptions/current')).status).toBe(403);
    expect((await as(plainMember, `/api/pay/customers/${manager.uid}`)).status).toBe(404);
    expect((await as(plainMember, `/api/pay/customers/${manager.uid}/payment-infos`)).status).toBe(404);

    const bought = await start(billingMember, { planCode: 'TEAM10' });
    expect(bought.status).toBe(201);
    await markPaid(bought.body.invoice.number);
    expect((await state(manager)).planType).toBe('TEAM');
    expect((await state(plainMember)).planType).toBe('TEAM');
    expect(
      (await as(billingMember, `/api/pay/customers/${manager.uid}/payment-infos`)).body.subscription,
    ).toMatchObject({
      planCode: 'TEAM10',
    });
    const sub = (await as(manager, '/api/pay/subscriptions/current')).body.subscription;
    expect(sub.planCode).toBe('TEAM10');

    for (const path of [
      `/api/pay/customers/${manager.uid}`,
      `/api/pay/customers/${manager.uid}/payment-infos`,
    ])
      expect((await as(otherManager, path)).status).toBe(404);
    expect((await as(billingMember, `/api/pay/customers/${otherManager.uid}`)).status).toBe(404);
    expect((await as(billingMember, `/api/pay/customers/${billingMember.uid}`)).status).toBe(404);
    for (const action of ['cancel', 'resume'])
      expect(
        (await as(otherManager, `/api/pay/subscriptions/${sub.id}/${action}`, { method: 'POST' })).status,
      ).toBe(404);
    const patch = await as(plainMember, `/api/pay/subscriptions/${sub.id}`, {
      method: 'PATCH',
      json: { planCode: 'TEAM25' },
    });
    expect(patch.status).toBe(403);
  });

  it('signed out: 401 for every subscription route, the catalogue stays public', async () => {
    expect((await start({ bearer: {} } as Account, {})).status).toBe(401);
    expect((await as(null, '/api/pay/subscriptions/current')).status).toBe(401);
    expect((await as(null, `/api/pay/customers/${payer.uid}`)).status).toBe(401);
    expect((await as(null, '/api/pay/subscriptions/x/cancel', { method: 'POST' })).status).toBe(401);
    expect((await as(null, '/api/pay/plans')).status).toBe(200);
  });
});
