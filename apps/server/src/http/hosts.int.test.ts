import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnsServer, type TestDnsServer } from '../test/dns-server.js';
import { api, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Subdomains of BASE_DOMAIN and custom domains (spec §2, §3 Theme, §4 hand-off): claims, the table every Host is
 * matched against, DNS proofs against a DNS server started here, the TLS ask, mail links and the sign-in hand-off.
 */
const BASE = 'ferry.test';
const MAIN = `http://${BASE}:8080`;
let sink: SmtpSink;
let dns: TestDnsServer;
let ferry: TestFerry;
let webDist: string;

type Account = Awaited<ReturnType<typeof signedInAccount>>;
let manager: Account;
let member: Account;
let other: Account;
let free: Account;

beforeAll(async () => {
  sink = await startSmtpSink();
  dns = await startDnsServer();
  webDist = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-hosts-web-'));
  await fs.writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><title>x</title></head><body><div id="root"></div></body></html>',
  );
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      PUBLIC_URL: MAIN,
      BASE_DOMAIN: BASE,
      DNS_RESOLVER: dns.address,
      WEB_DIST: webDist,
    },
  });
  manager = await account('manager');
  member = await account('member');
  other = await account('other');
  free = await account('free');
  await query(ferry, 'UPDATE users SET manager_id = $2 WHERE id = $1', [member.uid, manager.uid]);
});
beforeEach(async () => {
  await query(ferry, 'DELETE FROM host_claims');
  await query(ferry, `UPDATE users SET plan_type = 'TEAM' WHERE id = ANY($1)`, [
    [manager.uid, member.uid, other.uid],
  ]);
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
  await dns?.close();
  if (webDist) await fs.rm(webDist, { recursive: true, force: true });
});

let n = 0;
function account(label: string) {
  return signedInAccount(ferry.baseUrl, `${label}-${process.pid}-${++n}@hosts.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
}

/** A request through the app with a Host header of the test's choosing (and optionally a forwarded one). */
async function at(
  host: string,
  url: string,
  init: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; headers?: Record<string, string>; json?: unknown } = {},
) {
  const response = await ferry.app.inject({
    method: init.method ?? 'GET',
    url,
    headers: { host, ...(init.json ? { 'content-type': 'application/json' } : {}), ...init.headers },
    ...(init.json ? { payload: JSON.stringify(init.json) } : {}),
  });
  const type = String(response.headers['content-type'] ?? '');
  return {
    status: response.statusCode,
    headers: response.headers,
    body: type.includes('json') ? response.json() : response.body,
    cookies: response.cookies,
  };
}

const claim = (who: Account, name: string) =>
  at(BASE, `/api/user/users/${who.uid}/domains/subdomain`, {
    method: 'PUT',
    headers: who.bearer,
    json: { name },
  });

describe('subdomain claims', () => {
  it.each([
    ['Acme', 'characters'],
    ['ünicode', 'characters'],
    ['аcme', 'characters'], // a Cyrillic а
    ['ab', 'length'],
    ['x'.repeat(64), 'length'],
    ['www', 'reserved'],
    ['api', 'reserved'],
    ['-acme', 'hyphen'],
    ['acme-', 'hyphen'],
    ['xn--80ak6aa92e', 'punycode'],
    ['acme.evil', 'characters'],
  ])('refuses %s (%s)', async (name, problem) => {
    const answer = await claim(manager, name);
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ codes: ['VALIDATION_FAILED'], details: { problem } });
  });

  it('claims a name, shows it with its address, moves it and releases it', async () => {
    const claimed = await claim(manager, 'acme');
    expect(claimed.status, JSON.stringify(claimed.body)).toBe(200);
    expect(claimed.body.subdomain).toEqual({
      name: 'acme',
      host: 'acme.ferry.test',
      url: 'http://acme.ferry.test:8080',
    });
    expect((await claim(manager, 'acme-two')).body.subdomain.name).toBe('acme-two');
    expect((await at('acme.ferry.test', '/api/hosts/current')).body.main).toBe(true);
    const released = await at(BASE, `/api/user/users/${manager.uid}/domains/subdomain`, {
      method: 'DELETE',
      headers: manager.bearer,
    });
    expect(released.body.subdomain).toBeNull();
  });

  it('gives a name to one owner only, even when two ask at once', async () => {
    const answers = await Promise.all([claim(manager, 'racing'), claim(other, 'racing')]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(answers.find((a) => a.status === 409)!.body.codes).toEqual(['HOST_TAKEN']);
    const owners = await query(ferry, `SELECT owner_id FROM host_claims WHERE host = 'racing.ferry.test'`);
    expect(owners).toHaveLength(1);
  });

  it('lets only the owner or team manager on a paid plan manage domains', async () => {
    await query(ferry, `UPDATE users SET plan_type = 'NONE' WHERE id = $1`, [free.uid]);
    const path = (uid: string) => `/api/user/users/${uid}/domains`;
    expect((await at(BASE, path(manager.uid))).status).toBe(401);
    expect((await at(BASE, path(manager.uid), { headers: other.bearer })).status).toBe(403);
    expect((await at(BASE, path(manager.uid), { headers: member.bearer })).status).toBe(403);
    expect((await at(BASE, path(member.uid), { headers: member.bearer })).status).toBe(403);
    const unpaid = await at(BASE, path(free.uid), { headers: free.bearer });
    expect(unpaid.body).toMatchObject({ status: 403, details: { reason: 'PLAN_REQUIRED' } });
    expect((await at(BASE, path(manager.uid), { headers: manager.bearer })).body).toEqual({
      baseDomain: BASE,
      subdomain: null,
      customDomains: [],
    });
  });
});

describe('hosts matched against the table', () => {
  it('knows a claimed subdomain by its Host, and nothing else', async () => {
    await claim(manager, 'acme');
    expect((await at('acme.ferry.test', '/api/hosts/current')).body).toEqual({
      main: false,
      host: 'acme.ferry.test',
      ownerId: manager.uid,
      authRedirect: null,
    });
    expect((await at('ACME.ferry.test:8080', '/api/hosts/current')).body.ownerId).toBe(manager.uid);
    for (const host of ['nobody.ferry.test', BASE, 'acme.ferry.test.evil.example', 'evil.example'])
      expect((await at(host, '/api/hosts/current')).body, host).toMatchObject({ main: true, ownerId: null });
  });

  it('ignores X-Forwarded-Host from a client that is not a trusted proxy', async () => {
    await claim(manager, 'acme');
    const forwarded = await at(BASE, '/api/hosts/current', {
      headers: { 'x-forwarded-host': 'acme.ferry.test' },
    });
    expect(forwarded.body.main).toBe(true);
  });

  it('believes X-Forwarded-Host from a TRUST_PROXY proxy, still only for a verified host', async () => {
    const behind = await startTestFerry({
      databaseUrl: ferry.databaseUrl,
      env: { PUBLIC_URL: MAIN, BASE_DOMAIN: BASE, TRUST_PROXY: '127.0.0.1', WEB_DIST: webDist },
    });
    try {
      await claim(manager, 'acme');
      const ask = (forwarded: string) =>
        behind.app.inject({
          url: '/api/hosts/current',
          headers: { host: BASE, 'x-forwarded-host': forwarded },
        });
      expect((await ask('acme.ferry.test')).json()).toMatchObject({ main: false, ownerId: manager.uid });
      expect((await ask('nobody.ferry.test')).json()).toMatchObject({ main: true, ownerId: null });
    } finally {
      await behind.close();
    }
  });

  it('serves the app with ownHost on a claimed host, and no marketing page there', async () => {
    await claim(manager, 'acme');
    for (const page of ['/', '/push', '/d/notfound', '/signin', '/dl/abcdef']) {
      const own = await at('acme.ferry.test', page);
      expect(own.body, page).toContain('"mainDomain":false,"ownHost":true');
    }
    const main = await at(BASE, '/push');
    expect(main.body).toContain('"mainDomain":true,"ownHost":false');
    expect((await at('nobody.ferry.test', '/push')).body).toContain('"ownHost":false');
    const about = await at('acme.ferry.test', '/about');
    expect(about.status).toBe(404);
    expect(about.body).toContain('"ownHost":true');
  });
});

describe('themes by host', () => {
  it("answers each owner's theme on its own host only; the theme's subdomainName claims through the same table", async () => {
    // The Theme's own field claims the name (PUT …/customization), as the domains API does.
    const saved = await at(BASE, `/api/user/users/${manager.uid}/customization`, {
      method: 'PUT',
      headers: manager.bearer,
      json: { subdomainName: 'acme', backgroundColor: '#263238' },
    });
    expect([saved.status, saved.body.subdomainName], JSON.stringify(saved.body)).toEqual([200, 'acme']);
    expect((await claim(other, 'bravo')).status).toBe(200);
    expect(
      (
        await at(BASE, `/api/user/users/${other.uid}/customization`, {
          method: 'PUT',
          headers: other.bearer,
          json: { backgroundColor: '#4A148C' },
        })
      ).status,
    ).toBe(200);
    // Taken by the manager: refused to another owner through the Theme as well.
    const taken = await at(BASE, `/api/user/users/${other.uid}/customization`, {
      method: 'PUT',
      headers: other.bearer,
      json: { subdomainName: 'acme' },
    });
    expect([taken.status, taken.body.codes]).toEqual([409, ['HOST_TAKEN']]);

    const theme = async (host: string, headers: Record<string, string> = {}) =>
      (await at(host, '/api/theme', { headers })).body;
    expect(await theme(`acme.${BASE}`)).toMatchObject({
      subdomainName: 'acme',
      domain: `acme.${BASE}`,
      backgroundColor: '#263238',
    });
    expect(await theme(`bravo.${BASE}`)).toMatchObject({
      domain: `bravo.${BASE}`,
      backgroundColor: '#4A148C',
    });
    // Signed in as the other owner on acme's host: still acme's theme, never theirs.
    expect((await theme(`acme.${BASE}`, other.bearer)).backgroundColor).toBe('#263238');
    // An unclaimed name, or a host outside Ferry's table, is the main host: no one's theme.
    for (const host of [`nobody.${BASE}`, 'evil.example'])
      expect(await theme(host)).toMatchObject({
        domain: null,
        subdomainName: null,
        backgroundColor: '#4052B5',
      });
  });
});

describe('custom domains', () => {
  const domains = (who: Account) => `/api/user/users/${who.uid}/domains`;
  const add = (who: Account, domain: string) =>
    at(BASE, domains(who), { method: 'POST', headers: who.bearer, json: { domain } });
  const verify = (who: Account, domain: string) =>
    at(BASE, `${domains(who)}/${domain}/verify`, { method: 'POST', headers: who.bearer });

  it('is proven by its DNS TXT record, looked up through DNS_RESOLVER', async () => {
    const added = await add(manager, 'Files.Acme.test');
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ domain: 'files.acme.test', status: 'pending' });
    const record = added.body.record;
    expect(record).toMatchObject({ name: '_ferry-challenge.files.acme.test', type: 'TXT' });
    expect(record.value).toMatch(/^ferry-verify=[A-Za-z0-9_-]{20,}$/);

    const missing = await verify(manager, 'files.acme.test');
    expect(missing.status).toBe(409);
    expect(missing.body).toMatchObject({ codes: ['DOMAIN_NOT_PROVEN'], details: { record } });
    expect(dns.asked(record.name)).toBeGreaterThan(0);

    dns.setTxt(record.name, ['ferry-verify=somebody-elses-token']);
    expect((await verify(manager, 'files.acme.test')).body.codes).toEqual(['DOMAIN_NOT_PROVEN']);
    expect((await at('files.acme.test', '/api/hosts/current')).body.main).toBe(true);

    dns.setTxt(record.name, ['v=spf1 -all', record.value]);
    const proven = await verify(manager, 'files.acme.test');
    expect(proven.status, JSON.stringify(proven.body)).toBe(200);
    expect(proven.body).toMatchObject({ status: 'verified', url: 'http://files.acme.test:8080' });
    expect((await at('files.acme.test', '/api/hosts/current')).body.ownerId).toBe(manager.uid);

    const taken = await add(other, 'files.acme.test');
    expect(taken.body).toMatchObject({ status: 409, codes: ['HOST_TAKEN'] });
    const listed = await at(BASE, domains(manager), { headers: manager.bearer });
    expect(listed.body.customDomains).toEqual([expect.objectContaining({ domain: 'files.acme.test' })]);

    expect(
      (await at(BASE, `${domains(manager)}/files.acme.test`, { method: 'DELETE', headers: manager.bearer }))
        .status,
    ).toBe(204);
    expect((await at('files.acme.test', '/api/hosts/current')).body.main).toBe(true);
    dns.setTxt(record.name, []);
  });

  it('refuses the service’s own domains and what is not a domain', async () => {
    for (const domain of [BASE, 'x.ferry.test', '10.0.0.1', 'localhost'])
      expect((await add(manager, domain)).status, domain).toBe(400);
  });

  it('is suspended by the daily check after its record is gone for 7 days', async () => {
    const added = await add(manager, 'dl.acme.test');
    dns.setTxt(added.body.record.name, [added.body.record.value]);
    expect((await verify(manager, 'dl.acme.test')).body.status).toBe('verified');
    dns.setTxt(added.body.record.name, []);
    // The first miss is noted; a miss noted 8 days ago suspends.
    await query(ferry, `UPDATE host_claims SET missing_since = now() - interval '8 days' WHERE host = $1`, [
      'dl.acme.test',
    ]);
    const checked = await ferry.app.inject({ method: 'GET', url: '/api/health' });
    expect(checked.statusCode).toBe(200);
    await ferry.jobs.send('maintenance.hosts-recheck', {});
    await expect
      .poll(async () => (await query(ferry, `SELECT status FROM host_claims WHERE host = 'dl.acme.test'`))[0])
      .toEqual({ status: 'suspended' });
    expect((await at('dl.acme.test', '/api/hosts/current')).body.main).toBe(true);
  });
});

describe('the TLS ask of the reverse proxy', () => {
  it('answers 200 only for verified hosts', async () => {
    await claim(manager, 'acme');
    const added = await at(BASE, `/api/user/users/${manager.uid}/domains`, {
      method: 'POST',
      headers: manager.bearer,
      json: { domain: 'pending.acme.test' },
    });
    expect(added.status).toBe(201);
    const ask = (domain: string) => at(BASE, `/api/hosts/tls-ask?domain=${encodeURIComponent(domain)}`);
    expect((await ask('acme.ferry.test')).status).toBe(200);
    expect((await ask('pending.acme.test')).status).toBe(404);
    expect((await ask('nobody.ferry.test')).status).toBe(404);
    expect((await ask('evil.example')).status).toBe(404);
  });

  it("treats a lapsed owner's host as the main one: no certificate, no theme, the name kept for them", async () => {
    expect((await claim(other, 'lapsing')).status).toBe(200);
    await query(ferry, `UPDATE users SET plan_type = 'NONE' WHERE id = $1`, [other.uid]);
    // The first look-up of this host happens after the lapse (looks-ups are kept 30 s per instance).
    expect((await at('lapsing.ferry.test', '/api/hosts/current')).body).toMatchObject({
      main: true,
      ownerId: null,
    });
    expect((await at(BASE, '/api/hosts/tls-ask?domain=lapsing.ferry.test')).status).toBe(404);
    expect(
      await query(ferry, 'SELECT owner_id FROM host_claims WHERE host = $1', ['lapsing.ferry.test']),
    ).toEqual([{ owner_id: other.uid }]);
    expect((await claim(manager, 'lapsing')).status).toBe(409);
  });
});

describe('links of transfers made on an own host', () => {
  it('mails the recipients links at the host the transfer was made on', async () => {
    await claim(manager, 'acme');
    const data = Buffer.from('hosted bytes');
    const send = async (host: string, recipient: string, sender: Account = manager) => {
      const created = await at(host, '/api/transfer/transfers', {
        method: 'POST',
        headers: sender.bearer,
        json: { type: 'S1', recipients: [recipient], files: [{ name: 'a.txt', size: data.length }] },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const { transferId, uploadToken, files } = created.body;
      await new TusTestClient(ferry.baseUrl, uploadToken).upload(transferId, files[0].id, data);
      const done = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/complete`, {
        method: 'POST',
        headers: { 'x-upload-token': uploadToken },
        json: { files: [{ id: files[0].id, sha256: sha256(data) }] },
      });
      expect(done.status).toBe(200);
      return { transferId: transferId as string, link: created.body.link as string };
    };
    const hosted = await send('acme.ferry.test', 'bob@recipients.example');
    expect(hosted.link).toMatch(/^http:\/\/acme\.ferry\.test:8080\/dl\//);
    const mail = await sink.waitFor((m) => m.to.includes('bob@recipients.example'));
    expect(mail.parsed.text).toContain(`http://acme.ferry.test:8080/dl/${hosted.transferId}`);

    const forged = await send('nobody.ferry.test', 'carol@recipients.example');
    expect(forged.link).toMatch(/^http:\/\/ferry\.test:8080\/dl\//);
    const plain = await sink.waitFor((m) => m.to.includes('carol@recipients.example'));
    expect(plain.parsed.text).toContain(`${MAIN}/dl/${forged.transferId}`);
    expect(plain.parsed.text).not.toContain('nobody.ferry.test');
    const rows = await query(ferry, 'SELECT id, host FROM transfers WHERE id = ANY($1) ORDER BY host', [
      [hosted.transferId, forged.transferId],
    ]);
    expect(rows).toEqual([
      { id: hosted.transferId, host: 'acme.ferry.test' },
      { id: forged.transferId, host: null },
    ]);

    // A stranger's transfer made on acme's host goes out on the main host: acme's branding never dresses it.
    const stranger = await send('acme.ferry.test', 'dave@recipients.example', other);
    expect(stranger.link).toMatch(/^http:\/\/ferry\.test:8080\/dl\//);
    const strangerMail = await sink.waitFor((m) => m.to.includes('dave@recipients.example'));
    expect(strangerMail.parsed.text).toContain(`${MAIN}/dl/${stranger.transferId}`);
    expect(strangerMail.parsed.text).not.toContain('acme.ferry.test');
    // A member of the team sends from the team's host as the manager does.
    const teammate = await send('acme.ferry.test', 'erin@recipients.example', member);
    expect(teammate.link).toMatch(/^http:\/\/acme\.ferry\.test:8080\/dl\//);
  });

  it("mails an inbox's owner the link at their host when the upload came there, the main one otherwise", async () => {
    await claim(manager, 'acme');
    const inboxOf = async (who: Account, slug: string) => {
      const made = await at(BASE, '/api/receive/inboxes', {
        method: 'POST',
        headers: who.bearer,
        json: { slug, title: `Files for ${slug}` },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
    };
    const ours = `acme-in-${process.pid}`;
    const theirs = `other-in-${process.pid}`;
    await inboxOf(manager, ours);
    await inboxOf(other, theirs);
    const data = Buffer.from('received on a host');
    const uploadAt = async (host: string, slug: string, name: string) => {
      const created = await at(host, '/api/receive/uploads', {
        method: 'POST',
        json: { target: { kind: 'inbox', slug }, files: [{ name, size: data.length }] },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const { transferId, uploadToken, files } = created.body;
      await new TusTestClient(ferry.baseUrl, uploadToken).upload(transferId, files[0].id, data);
      const done = await at(host, `/api/receive/uploads/${transferId}/complete`, {
        method: 'POST',
        headers: { 'x-upload-token': uploadToken },
        json: { files: [{ id: files[0].id, sha256: sha256(data) }] },
      });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      return transferId as string;
    };
    const mailAbout = (to: string, name: string) =>
      sink.waitFor((m) => m.to.includes(to) && (m.parsed.text ?? '').includes(name));

    const onOwnHost = await uploadAt('acme.ferry.test', ours, 'hosted.pdf');
    expect((await mailAbout(manager.email, 'hosted.pdf')).parsed.text).toContain(
      `http://acme.ferry.test:8080/dl/${onOwnHost}`,
    );
    const onMain = await uploadAt(BASE, ours, 'main.pdf');
    expect((await mailAbout(manager.email, 'main.pdf')).parsed.text).toContain(`${MAIN}/dl/${onMain}`);
    // Another owner's inbox reached through acme's host: its owner's mail is not sent to acme's host.
    const elsewhere = await uploadAt('acme.ferry.test', theirs, 'elsewhere.pdf');
    const theirMail = await mailAbout(other.email, 'elsewhere.pdf');
    expect(theirMail.parsed.text).toContain(`${MAIN}/dl/${elsewhere}`);
    expect(theirMail.parsed.text).not.toContain('acme.ferry.test');
    const rows = await query(ferry, 'SELECT id, host FROM transfers WHERE id = ANY($1) ORDER BY id', [
      [onOwnHost, onMain, elsewhere],
    ]);
    expect(new Map(rows.map((r) => [r.id, r.host]))).toEqual(
      new Map([
        [onOwnHost, 'acme.ferry.test'],
        [onMain, null],
        [elsewhere, null],
      ]),
    );
  });
});

describe('the cross-domain sign-in hand-off', () => {
  async function idToken(who: Account) {
    const signedIn = await api(ferry.baseUrl, '/api/auth/signin', {
      method: 'POST',
      json: { email: who.email, password: 'correct horse battery' },
    });
    expect(signedIn.status).toBe(200);
    return signedIn.body.idToken as string;
  }
  const sessionAt = async (host: string, who: Account, minutes = 1440) =>
    at(host, `/api/auth/auth/session-cookie?currentDomain=${host}&expiresInMinutes=${minutes}`, {
      headers: { 'id-token': await idToken(who) },
    });
  const redeem = (host: string, customToken: string) =>
    at(host, '/api/auth/auth/custom-token', { method: 'POST', json: { customToken } });

  it('sends a team member to the team’s host with a one-time token that works there only', async () => {
    await claim(manager, 'acme');
    const main = await sessionAt(BASE, member);
    expect(main.status).toBe(200);
    expect(main.body).toMatchObject({
      redirectDomain: 'acme.ferry.test',
      redirectOrigin: 'http://acme.ferry.test:8080',
    });
    const token = main.body.customToken as string;
    expect(main.cookies.find((c) => c.name === 'ferry_auth_domain')).toBeUndefined();

    expect((await redeem(BASE, token)).status).toBe(400);
    expect((await redeem('nobody.ferry.test', token)).status).toBe(400);
    const there = await redeem('acme.ferry.test', token);
    expect(there.status, JSON.stringify(there.body)).toBe(200);
    const cookie = there.cookies.find((c) => c.name === 'ferry_session');
    expect(cookie?.value).toBe(there.body.sessionCookie);
    const me = await at('acme.ferry.test', '/api/auth/me', {
      headers: { cookie: `ferry_session=${cookie!.value}` },
    });
    expect(me.body.user.uid).toBe(member.uid);
    const again = await redeem('acme.ferry.test', token);
    expect(again.body).toMatchObject({ status: 400, details: { reason: 'INVALID_CUSTOM_TOKEN' } });

    // Already at home: no hand-off; without a served host elsewhere: none either.
    expect((await sessionAt('acme.ferry.test', member)).body.redirectDomain).toBeUndefined();
    expect((await sessionAt(BASE, other)).body.redirectDomain).toBeUndefined();
  });

  it('remembers the home host for 90 days when the user stays signed in', async () => {
    await claim(manager, 'acme');
    const main = await sessionAt(BASE, manager, 20160);
    const remembered = main.cookies.find((c) => c.name === 'ferry_auth_domain');
    expect(remembered).toMatchObject({ value: 'acme.ferry.test', maxAge: 90 * 86400, httpOnly: true });
    const current = await at(BASE, '/api/hosts/current', {
      headers: { cookie: 'ferry_auth_domain=acme.ferry.test' },
    });
    expect(current.body.authRedirect).toBe('http://acme.ferry.test:8080');
    const unknown = await at(BASE, '/api/hosts/current', {
      headers: { cookie: 'ferry_auth_domain=evil.example' },
    });
    expect(unknown.body.authRedirect).toBeNull();
    const there = await redeem('acme.ferry.test', main.body.customToken);
    expect(there.body.sessionExpireTimestamp - Date.now()).toBeGreaterThan(13 * 86_400_000);
  });

  it('refuses a forged or expired token', async () => {
    await claim(manager, 'acme');
    const forged = await redeem('acme.ferry.test', 'eyJhbGciOiJIUzI1NiJ9.eyJ0eXAiOiJoYW5kb2ZmIn0.x');
    expect(forged.status).toBe(400);
  });
});
