import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { api } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/** POST /api/sales/enterprise-contact: stored, mailed to SALES_EMAIL, acknowledged, rate limited. */
let sink: SmtpSink;
let ferry: TestFerry;
const SALES = 'sales@ferry.example';

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      SALES_EMAIL: SALES,
      // Each test is its own client (X-Forwarded-For), so their rate limits do not add up.
      TRUST_PROXY: '1',
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
    },
  });
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

let n = 0;
const address = (label: string) => `${label}-${process.pid}-${++n}@customer.example`;
const contact = (client: string, json: Record<string, unknown>) =>
  api(ferry.baseUrl, '/api/sales/enterprise-contact', {
    method: 'POST',
    headers: { 'x-forwarded-for': client },
    json: { name: 'Chloé Martin', company: 'Acme SA', ...json },
  });

describe('the enterprise contact form', () => {
  it('stores the request, mails it to SALES_EMAIL with Reply-To the person, and acknowledges in their language', async () => {
    const email = address('chloe');
    const message = 'We are 300 people.\nWe need SSO and a region lock.';
    // A line break in the company (a header injection attempt in the mail's subject) is refused outright.
    const injected = await contact('198.51.100.1', {
      email,
      company: 'Acme\r\nBcc: victim@example.com',
      locale: 'fr',
    });
    expect(injected.status).toBe(400);
    expect(JSON.stringify(injected.body)).toContain('company');
    const res = await contact('198.51.100.1', {
      email,
      phone: '+33 1 23 45 67 89',
      teamSize: 300,
      message,
      locale: 'fr',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
    const [row] = await query(ferry, 'SELECT * FROM enterprise_contacts WHERE id = $1', [res.body.id]);
    expect(row).toMatchObject({
      name: 'Chloé Martin',
      email,
      phone: '+33 1 23 45 67 89',
      team_size: 300,
      message,
      locale: 'fr',
      ip: '198.51.100.1',
    });

    const toSales = await sink.waitFor((m) => m.to.includes(SALES));
    expect(toSales.parsed.subject).toBe('Enterprise enquiry from Acme SA');
    expect(toSales.parsed.headers.get('bcc')).toBeUndefined();
    expect(toSales.to).toEqual([SALES]);
    expect(toSales.parsed.replyTo?.value[0]?.address).toBe(email);
    expect(toSales.parsed.text).toContain('Chloé Martin');
    expect(toSales.parsed.text).toContain('+33 1 23 45 67 89');
    expect(toSales.parsed.text).toContain('300');
    expect(toSales.parsed.text).toContain('> We need SSO and a region lock.');

    const ack = await sink.waitFor((m) => m.to.includes(email));
    expect(ack.parsed.subject).toBe('Nous avons bien reçu votre demande concernant Ferry');
    expect(ack.parsed.html).toContain('lang="fr"');
    // Nothing the form's author typed reaches the address they gave.
    expect(ack.parsed.text).not.toContain('SSO');
    expect(ack.parsed.text).not.toContain('Chloé');
  });

  it('refuses an incomplete form with 400 and stores nothing', async () => {
    const before = await query(ferry, 'SELECT count(*)::int AS n FROM enterprise_contacts');
    for (const json of [
      { email: 'not-an-address' },
      { email: address('x'), company: '' },
      { email: address('x'), teamSize: 0 },
    ]) {
      const res = await contact('198.51.100.2', json);
      expect([json, res.body.codes]).toEqual([json, ['VALIDATION_FAILED']]);
    }
    expect(await query(ferry, 'SELECT count(*)::int AS n FROM enterprise_contacts')).toEqual(before);
  });

  it('allows 5 requests an hour per client and 3 a day per address given (429 with Retry-After)', async () => {
    const client = '198.51.100.3';
    const victim = address('victim');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await contact(client, { email: victim })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await contact(client, { email: address('fifth') })).status).toBe(201);
    const sixth = await contact(client, { email: address('sixth') });
    expect(sixth.body).toMatchObject({ status: 429, codes: ['RATE_LIMITED'] });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not held up, but the address stays limited whoever asks.
    expect((await contact('198.51.100.4', { email: address('other') })).status).toBe(201);
    expect((await contact('198.51.100.4', { email: victim })).status).toBe(429);
    const stored = await query<{ n: number }>(
      ferry,
      'SELECT count(*)::int AS n FROM enterprise_contacts WHERE email = $1',
      [victim],
    );
    expect(stored[0]!.n).toBe(3);
  });

  it('mails the sales team at the From address when SALES_EMAIL is not set', () => {
    const env = { DATA_DIR: '/tmp/ferry-config-test' };
    expect(loadConfig({ ...env, MAIL_FROM: 'hello@ferry.example' }).mail.salesEmail).toBe(
      'hello@ferry.example',
    );
    expect(loadConfig({ ...env, PUBLIC_URL: 'https://send.example.org' }).mail.salesEmail).toBe(
      'no-reply@send.example.org',
    );
    expect(loadConfig({ ...env, SALES_EMAIL: 'deals@ferry.example' }).mail.salesEmail).toBe(
      'deals@ferry.example',
    );
    expect(() => loadConfig({ ...env, SALES_EMAIL: 'nope' })).toThrow(/SALES_EMAIL/);
  });
});
