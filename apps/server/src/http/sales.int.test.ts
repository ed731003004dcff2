import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { api } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * The contact forms: POST /api/sales/enterprise-contact (mailed to SALES_EMAIL) and POST /api/sales/contact
 * (mailed to SUPPORT_EMAIL, else SALES_EMAIL): stored, mailed, acknowledged, rate limited.
 */
let sink: SmtpSink;
let ferry: TestFerry;
const SALES = 'sales@ferry.example';
const SUPPORT = 'support@ferry.example';

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      SALES_EMAIL: SALES,
      SUPPORT_EMAIL: SUPPORT,
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

const write = (client: string, json: Record<string, unknown>, on: TestFerry = ferry) =>
  api(on.baseUrl, '/api/sales/contact', {
    method: 'POST',
    headers: { 'x-forwarded-for': client },
    json: {
      name: 'Jonas Berg',
      subject: 'Question about retention',
      message: 'How long are files kept?',
      ...json,
    },
  });
const repliesTo = (email: string) => (m: { parsed: { replyTo?: { value: { address?: string }[] } } }) =>
  m.parsed.replyTo?.value[0]?.address === email;

describe('the contact form', () => {
  it('stores the message, mails it to SUPPORT_EMAIL with Reply-To the person, and acknowledges in their language', async () => {
    const email = address('jonas');
    const message = 'How long are files kept?\nAnd can a recipient ask for more time?';
    const res = await write('198.51.100.11', { email, message, locale: 'de' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9]{16}$/) });
    const [row] = await query(ferry, 'SELECT * FROM contact_messages WHERE id = $1', [res.body.id]);
    expect(row).toMatchObject({
      name: 'Jonas Berg',
      email,
      subject: 'Question about retention',
      message,
      locale: 'de',
      ip: '198.51.100.11',
      created_at: expect.any(Date),
    });

    const toSupport = await sink.waitFor(repliesTo(email));
    expect(toSupport.to).toEqual([SUPPORT]);
    expect(toSupport.parsed.subject).toBe('Contact form: Question about retention');
    expect(toSupport.parsed.text).toContain('Jonas Berg');
    expect(toSupport.parsed.text).toContain('Question about retention');
    expect(toSupport.parsed.text).toContain('> And can a recipient ask for more time?');

    const ack = await sink.waitFor((m) => m.to.includes(email));
    expect(ack.parsed.subject).toBe('Wir haben Ihre Nachricht an Ferry erhalten');
    expect(ack.parsed.html).toContain('lang="de"');
    expect(ack.parsed.replyTo).toBeUndefined();
    // Nothing the form's author typed reaches the address they gave, not even the subject.
    expect(ack.parsed.text).not.toContain('retention');
    expect(ack.parsed.text).not.toContain('Jonas');
    // The sales team gets nothing of it.
    expect(sink.messages.filter((m) => m.to.includes(SALES) && repliesTo(email)(m))).toEqual([]);
  });

  it('acknowledges in English when the language is unknown or not given', async () => {
    for (const locale of ['xx', undefined]) {
      const email = address('nolocale');
      expect((await write('198.51.100.12', { email, ...(locale ? { locale } : {}) })).status).toBe(201);
      const ack = await sink.waitFor((m) => m.to.includes(email));
      expect(ack.parsed.subject).toBe('We received your message to Ferry');
    }
  });

  it('refuses a bad field with 400 naming it and stores nothing; takes the bounds', async () => {
    const before = await query(ferry, 'SELECT count(*)::int AS n FROM contact_messages');
    const cases: Array<[string, Record<string, unknown>]> = [
      ['email', { email: 'not-an-address' }],
      ['name', { email: address('x'), name: '' }],
      ['name', { email: address('x'), name: 'x'.repeat(201) }],
      ['subject', { email: address('x'), subject: ' ' }],
      ['subject', { email: address('x'), subject: 's'.repeat(201) }],
      // A line break in the subject (a header injection attempt in the mail's subject) is refused outright.
      ['subject', { email: address('x'), subject: 'Hello\r\nBcc: victim@example.com' }],
      ['message', { email: address('x'), message: '  ' }],
      ['message', { email: address('x'), message: 'm'.repeat(5001) }],
      ['message', { email: address('x'), message: 'NUL \u0000 here' }],
      ['message', { email: address('x'), message: undefined }],
      ['locale', { email: address('x'), locale: 'l'.repeat(36) }],
    ];
    for (const [field, json] of cases) {
      const res = await write('198.51.100.13', json);
      expect([field, res.status, res.body.codes]).toEqual([field, 400, ['VALIDATION_FAILED']]);
      const paths = res.body.details.issues.map((issue: { path: unknown }) => String(issue.path));
      expect([field, [...new Set(paths)]]).toEqual([field, [`/${field}`]]);
    }
    // At the bounds, accepted.
    const ok = await write('198.51.100.13', {
      email: address('bounds'),
      name: 'n'.repeat(200),
      subject: 's'.repeat(200),
      message: 'm'.repeat(5000),
    });
    expect(ok.status).toBe(201);
    const after = await query<{ n: number }>(ferry, 'SELECT count(*)::int AS n FROM contact_messages');
    expect(after[0]!.n).toBe((before[0] as { n: number }).n + 1);
  });

  it('allows 5 messages an hour per client and 3 a day per address, counted apart from the enterprise form', async () => {
    const client = '198.51.100.14';
    const victim = address('victim');
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await write(client, { email: victim })).status);
    expect(statuses).toEqual([201, 201, 201, 429]);
    expect((await write(client, { email: address('fifth') })).status).toBe(201);
    const sixth = await write(client, { email: address('sixth') });
    expect(sixth.body).toMatchObject({ status: 429, codes: ['RATE_LIMITED'] });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another client is not held up, but the address stays limited whoever asks.
    expect((await write('198.51.100.15', { email: address('other') })).status).toBe(201);
    expect((await write('198.51.100.15', { email: victim })).status).toBe(429);
    const stored = await query<{ n: number }>(
      ferry,
      'SELECT count(*)::int AS n FROM contact_messages WHERE email = $1',
      [victim],
    );
    expect(stored[0]!.n).toBe(3);
    // The enterprise form keeps its own counts, for the client and for the address.
    expect((await contact(client, { email: victim })).status).toBe(201);
  });

  it('mails SALES_EMAIL when SUPPORT_EMAIL is not set', async () => {
    const second = await startTestFerry({
      databaseUrl: ferry.databaseUrl,
      env: {
        SMTP_URL: sink.url,
        SALES_EMAIL: SALES,
        TRUST_PROXY: '1',
        MAIL_RETRY_DELAY_SECONDS: '1',
        MAINTENANCE_CRON: '0 0 1 1 *',
      },
    });
    try {
      const email = address('fallback');
      expect((await write('198.51.100.16', { email }, second)).status).toBe(201);
      const toSales = await sink.waitFor(repliesTo(email));
      expect(toSales.to).toEqual([SALES]);
      expect(toSales.parsed.subject).toBe('Contact form: Question about retention');
    } finally {
      await second.close();
    }
    const env = { DATA_DIR: '/tmp/ferry-config-test' };
    expect(loadConfig({ ...env, SUPPORT_EMAIL: 'help@ferry.example' }).mail.supportEmail).toBe(
      'help@ferry.example',
    );
    expect(
      loadConfig({ ...env, SUPPORT_EMAIL: 'help@ferry.example', SALES_EMAIL: 'deals@ferry.example' }).mail
        .supportEmail,
    ).toBe('help@ferry.example');
    expect(loadConfig({ ...env, SALES_EMAIL: 'deals@ferry.example' }).mail.supportEmail).toBe(
      'deals@ferry.example',
    );
    expect(loadConfig({ ...env, MAIL_FROM: 'hello@ferry.example' }).mail.supportEmail).toBe(
      'hello@ferry.example',
    );
    expect(() => loadConfig({ ...env, SUPPORT_EMAIL: 'nope' })).toThrow(/SUPPORT_EMAIL/);
  });
});
