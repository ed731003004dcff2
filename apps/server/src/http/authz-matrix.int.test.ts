import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * The authorization matrix: EVERY /api route the server registers, called by four callers, against an explicit
 * table of expected answers. A route missing from the table fails the test, so a new route must be added here.
 *
 * - `anon`: no credential, acting on Ann's resources (without her secrets: upload token, transfer password).
 * - `none`: Ann (plan NONE) on her own resources.
 * - `premium`: Pam (plan PREMIUM) on her own resources.
 * - `other`: Eve, signed in, acting on Ann's resources with her own credentials (her session, her own upload
 *   token). No answer to `anon` or `other` may carry Ann's data (address, uid, names, session, token, files).
 */
type Caller = 'anon' | 'none' | 'premium' | 'other';
const CALLERS: Caller[] = ['anon', 'none', 'premium', 'other'];
/** A status, or a status with the §8 code that must be in `codes`. */
type Expected = number | readonly [number, string];

interface Person {
  label: string;
  email: string;
  password: string;
  uid: string;
  /** Session token (Bearer). */
  token: string;
  sessionId: string;
  apiTokenId: string;
  /** A sent, password-protected S2 transfer. */
  sent: { transferId: string; fileId: string; password: string; fileName: string };
  /** A transfer still uploading: its upload token, and a tus upload half sent. */
  open: { transferId: string; fileId: string; uploadToken: string; uploadId: string };
}

interface Call {
  path: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** A raw body (tus PATCH). */
  raw?: Buffer;
}

interface Ctx {
  caller: Caller;
  /** Who calls (null: anonymous). */
  who: Person | null;
  /** Whose resources are acted on. */
  target: Person;
}

interface Row {
  expect: Record<Caller, Expected>;
  call(ctx: Ctx): Call | Promise<Call>;
}

let sink: SmtpSink;
let ferry: TestFerry;
let ann: Person;
let pam: Person;
let eve: Person;
let n = 0;
const fresh = (label: string) => `${label}-${process.pid}-${++n}@matrix.example`;
/** Refused without saying whether the transfer exists: a wrong or missing upload token, a forged link. */
const NF = [404, 'TRANSFER_NOT_FOUND'] as const;
const same = (e: Expected): Record<Caller, Expected> => ({ anon: e, none: e, premium: e, other: e });
/** Signed-in only, on the caller's own account (no target in the request). */
const own = (ok: Expected, other: Expected = ok): Record<Caller, Expected> => ({
  anon: 401,
  none: ok,
  premium: ok,
  other,
});
const owner = (ok: Expected): Record<Caller, Expected> => ({ anon: 401, none: ok, premium: ok, other: 404 });
const upload = (who: Person | null, extra: Record<string, string> = {}) => ({
  'tus-resumable': '1.0.0',
  ...(who ? { 'x-upload-token': who.open.uploadToken } : {}),
  ...extra,
});
const uploadToken = (who: Person | null): Record<string, string> =>
  who ? { 'x-upload-token': who.open.uploadToken } : {};
const b64 = (s: string) => Buffer.from(s).toString('base64');

async function signIn(p: Pick<Person, 'email' | 'password'>): Promise<string> {
  const res = await api(ferry.baseUrl, '/api/auth/signin', {
    method: 'POST',
    json: { email: p.email, password: p.password },
  });
  if (res.status !== 200) throw new Error(`signin ${res.status}`);
  return res.body.idToken;
}
/** A new session of this person (for calls that end one). */
async function newSession(p: Person): Promise<{ token: string; id: string }> {
  const res = await api(ferry.baseUrl, '/api/auth/auth/session-cookie', {
    headers: { 'id-token': await signIn(p) },
  });
  const sid = JSON.parse(Buffer.from(res.body.sessionCookie.split('.')[1], 'base64url').toString()).sid;
  return { token: res.body.sessionCookie, id: sid };
}
async function createTransfer(p: Person, body: Record<string, unknown>) {
  const res = await api(ferry.baseUrl, '/api/transfer/transfers', {
    method: 'POST',
    headers: { authorization: `Bearer ${p.token}` },
    json: body,
  });
  if (res.status !== 201) throw new Error(`create ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as { transferId: string; uploadToken: string; files: Array<{ id: string }> };
}
/** A transfer of `p` with one 10-byte file whose tus upload has 5 bytes in. */
async function halfUploaded(p: Person) {
  const t = await createTransfer(p, { files: [{ name: 'half.bin', size: 10 }] });
  const tus = new TusTestClient(ferry.baseUrl, t.uploadToken);
  const created = await tus.create(t.transferId, t.files[0]!.id, 10);
  const patched = await tus.patch(created.location!, 0, Buffer.alloc(5, 1));
  if (patched.status !== 204) throw new Error(`patch ${patched.status}`);
  return {
    transferId: t.transferId,
    fileId: t.files[0]!.id,
    uploadToken: t.uploadToken,
    uploadId: created.location!.split('/').at(-1)!,
  };
}

/** A fresh, uploaded and completed transfer of `p` (for dashboard actions that change it for good). */
async function completed(p: Person): Promise<string> {
  const t = await createTransfer(p, { files: [{ name: 'done.txt', size: 4 }] });
  await new TusTestClient(ferry.baseUrl, t.uploadToken).upload(
    t.transferId,
    t.files[0]!.id,
    Buffer.from('done'),
  );
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${t.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': t.uploadToken },
    json: { files: [] },
  });
  if (done.status !== 200) throw new Error(`complete ${done.status}`);
  return t.transferId;
}
const mine = (caller: Caller) => caller === 'none' || caller === 'premium';
/** An addition of one file (not uploaded) to `p`'s sent transfer; its id. */
async function addition(p: Person): Promise<string> {
  const res = await api(ferry.baseUrl, `/api/transfer/transfers/${p.sent.transferId}/files`, {
    method: 'POST',
    headers: { authorization: `Bearer ${p.token}` },
    json: { files: [{ name: 'added.txt', size: 3 }] },
  });
  if (res.status !== 201) throw new Error(`add files ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.additionId;
}

/** A contact of `p`'s address book and a group holding it, made once, left in place (others must not reach it). */
const books = new Map<string, { contactId: string; groupId: string }>();
/** A webhook of `p` (made once) with one delivery in its log, for the webhook routes. */
const hooks = new Map<string, { hookId: string; deliveryId: string }>();
async function newHook(p: Person): Promise<string> {
  const res = await api(ferry.baseUrl, '/api/user/webhooks', {
    method: 'POST',
    headers: { authorization: `Bearer ${p.token}` },
    json: { url: 'https://93.184.216.34/matrix', events: ['EXPIRED'] },
  });
  if (res.status !== 201) throw new Error(`webhook ${res.status}`);
  return res.body.id as string;
}
async function hookOf(p: Person): Promise<{ hookId: string; deliveryId: string }> {
  const known = hooks.get(p.uid);
  if (known) return known;
  const hookId = await newHook(p);
  const deliveryId = `whd_matrix_${p.label}`;
  await query(
    ferry,
    `INSERT INTO webhook_deliveries (id, webhook_id, event, body, status, attempts, next_attempt_at)
     VALUES ($1, $2, 'EXPIRED', '{}'::jsonb, 'failed', 7, NULL)`,
    [deliveryId, hookId],
  );
  const hook = { hookId, deliveryId };
  hooks.set(p.uid, hook);
  return hook;
}

async function bookOf(p: Person): Promise<{ contactId: string; groupId: string }> {
  const known = books.get(p.uid);
  if (known) return known;
  const contact = await freshContact(p);
  const group = await api(ferry.baseUrl, '/api/user/contact-groups', {
    method: 'POST',
    headers: { authorization: `Bearer ${p.token}` },
    json: { name: `${p.label} group`, contactIds: [contact] },
  });
  if (group.status !== 201) throw new Error(`group ${group.status}`);
  const book = { contactId: contact, groupId: group.body.id as string };
  books.set(p.uid, book);
  return book;
}
/** A new contact of `p` (for calls that delete one). */
async function freshContact(p: Person): Promise<string> {
  const res = await api(ferry.baseUrl, '/api/user/contacts', {
    method: 'POST',
    headers: { authorization: `Bearer ${p.token}` },
    json: { email: fresh('contact') },
  });
  if (res.status !== 201) throw new Error(`contact ${res.status}`);
  return res.body.id;
}

/** `p`'s receive points, made once: a password-protected request, an inbox with a widget, and an upload into it. */
interface Points {
  requestId: string;
  requestPassword: string;
  inboxId: string;
  slug: string;
  widgetId: string;
  received: { transferId: string; uploadToken: string };
}
const pointsBy = new Map<string, Points>();
async function as(p: Person, method: string, path: string, json?: unknown): Promise<Record<string, string>> {
  const res = await api(ferry.baseUrl, path, {
    method,
    headers: { authorization: `Bearer ${p.token}` },
    json,
  });
  if (res.status >= 300) throw new Error(`${method} ${path} ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as Record<string, string>;
}
async function freshInbox(p: Person): Promise<string> {
  const inbox = await as(p, 'POST', '/api/receive/inboxes', {
    slug: `in-${process.pid}-${++n}`,
    title: 'Inbox',
  });
  return inbox.inboxId;
}
async function pointsOf(p: Person): Promise<Points> {
  const known = pointsBy.get(p.uid);
  if (known) return known;
  const requestPassword = `${p.label}-request-password`;
  const request = await as(p, 'POST', '/api/receive/requests', {
    senderName: 'The requester',
    subject: 'Documents, please',
    password: requestPassword,
  });
  const inbox = await as(p, 'POST', '/api/receive/inboxes', {
    slug: `box-${process.pid}-${++n}`,
    title: 'Box',
  });
  const widget = await as(p, 'POST', `/api/receive/inboxes/${inbox.inboxId}/widgets`, { name: 'Site' });
  const started = await api(ferry.baseUrl, '/api/receive/uploads', {
    method: 'POST',
    json: { target: { kind: 'inbox', slug: inbox.slug }, files: [{ name: 'in.txt', size: 2 }] },
  });
  if (started.status !== 201) throw new Error(`upload ${started.status}`);
  await new TusTestClient(ferry.baseUrl, started.body.uploadToken).upload(
    started.body.transferId,
    started.body.files[0].id,
    Buffer.from('in'),
  );
  const points = {
    requestId: request.requestId,
    requestPassword,
    inboxId: inbox.inboxId,
    slug: inbox.slug,
    widgetId: widget.widgetId,
    received: { transferId: started.body.transferId, uploadToken: started.body.uploadToken },
  };
  pointsBy.set(p.uid, points);
  return points;
}

/** A theme asset (a logo) uploaded by `p` (a paid account); `fresh` makes another one. */
const themeAssets = new Map<string, string>();
const tinyPng = () =>
  sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
async function themeAssetOf(p: Person, fresh = false): Promise<string> {
  const known = themeAssets.get(p.uid);
  if (known && !fresh) return known;
  const res = await api(ferry.baseUrl, `/api/user/users/${p.uid}/customization/assets?kind=wallpaper`, {
    method: 'POST',
    headers: { authorization: `Bearer ${p.token}`, 'content-type': 'image/png' },
    body: await tinyPng(),
  });
  if (res.status !== 201) throw new Error(`theme asset ${res.status}: ${JSON.stringify(res.body)}`);
  if (!fresh) themeAssets.set(p.uid, res.body.assetId);
  return res.body.assetId as string;
}
/** Only a paid account's own theme: free plans are told why, others learn nothing. */
const paidOwner = (ok: Expected): Record<Caller, Expected> => ({
  anon: 401,
  none: [403, 'FORBIDDEN'],
  premium: ok,
  other: 404,
});

/** An open MANUAL invoice of `p`, issued once (others must not read, pay or void it). */
const invoicesOf = new Map<string, string>();
async function invoiceOf(p: Person): Promise<string> {
  const known = invoicesOf.get(p.uid);
  if (known) return known;
  const invoice = await ferry.invoices.issue({
    buyer: { userId: p.uid, email: p.email, name: p.label, companyName: null, address: null, locale: 'en' },
    currency: 'EUR',
    lines: [{ description: 'Ferry PREMIUM, monthly', quantity: 1, unitAmount: 1000 }],
    tax: {
      countryCode: 'FR',
      rate: 20,
      reverseCharge: false,
      vatNumber: null,
      vatNumberValid: null,
      vatCheck: 'none',
    },
    provider: 'MANUAL',
    status: 'open',
  });
  invoicesOf.set(p.uid, invoice.number);
  return invoice.number;
}

async function person(label: string, plan: 'NONE' | 'PREMIUM'): Promise<Person> {
  const email = fresh(label);
  const password = `${label} has a long password`;
  const account = await signedInAccount(
    ferry.baseUrl,
    email,
    (to) => sink.waitFor((m) => m.to.includes(to)),
    password,
  );
  const token = account.bearer.authorization.slice('Bearer '.length);
  await query(ferry, 'UPDATE users SET plan_type = $2, firstname = $3 WHERE id = $1', [
    account.uid,
    plan,
    `${label}-firstname`,
  ]);
  const sessions = await api(ferry.baseUrl, '/api/auth/sessions', { headers: account.bearer });
  const apiToken = await api(ferry.baseUrl, '/api/auth/tokens', {
    method: 'POST',
    headers: account.bearer,
    json: { name: `${label}-token` },
  });
  const p = { label, email, password, uid: account.uid, token, sessionId: sessions.body[0].id } as Person;
  p.apiTokenId = apiToken.body.id;
  const fileName = `${label}-private-plan.pdf`;
  const sent = await createTransfer(p, {
    files: [{ name: fileName, size: 4 }],
    password: `${label}-transfer-password`,
  });
  await new TusTestClient(ferry.baseUrl, sent.uploadToken).upload(
    sent.transferId,
    sent.files[0]!.id,
    Buffer.from('data'),
  );
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${sent.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': sent.uploadToken },
    json: { files: [] },
  });
  if (done.status !== 200) throw new Error(`complete ${done.status}`);
  p.sent = {
    transferId: sent.transferId,
    fileId: sent.files[0]!.id,
    password: `${label}-transfer-password`,
    fileName,
  };
  p.open = await halfUploaded(p);
  return p;
}

/** Every `METHOD /path` the app routes under /api (HEAD only where it is not GET's twin). */
function registeredRoutes(app: FastifyInstance): string[] {
  const routes = new Map<string, Set<string>>();
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /^([│ ]*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    // Two routes with different parameter names at one place print as `:a|:b`: keep the first name.
    const path = `${stack[depth - 1] ?? ''}${m[2]!.replace(/(:\w+)(?:\|:\w+)+/g, '$1')}`;
    stack[depth] = path;
    if (!m[3]) continue;
    const methods = routes.get(path) ?? new Set<string>();
    for (const method of m[3].split(', ')) methods.add(method);
    routes.set(path, methods);
  }
  return [...routes]
    .filter(([path]) => path.startsWith('/api'))
    .flatMap(([path, methods]) =>
      [...methods].filter((m) => m !== 'HEAD' || !methods.has('GET')).map((m) => `${m} ${path}`),
    );
}

const forged = (p: Person) => {
  // Ann's claims under a signature that is not the server's.
  const claims = Buffer.from(JSON.stringify({ typ: 'id', user_id: p.uid, email: p.email })).toString(
    'base64url',
  );
  return `eyJhbGciOiJIUzI1NiJ9.${claims}.c2lnbmF0dXJl`;
};

/** The expected answers, one row per route. */
const TABLE: Record<string, Row> = {
  // --- public: documentation, health ---
  'GET /api/docs': { expect: same(200), call: () => ({ path: '/api/docs' }) },
  'GET /api/docs/': { expect: same(200), call: () => ({ path: '/api/docs/' }) },
  'GET /api/docs/static/index.html': {
    expect: same(302),
    call: () => ({ path: '/api/docs/static/index.html' }),
  },
  'GET /api/docs/static/swagger-initializer.js': {
    expect: same(200),
    call: () => ({ path: '/api/docs/static/swagger-initializer.js' }),
  },
  'GET /api/docs/*': { expect: same(200), call: () => ({ path: '/api/docs/static/swagger-ui.css' }) },
  'GET /api/docs/json': { expect: same(200), call: () => ({ path: '/api/docs/json' }) },
  'GET /api/docs/yaml': { expect: same(200), call: () => ({ path: '/api/docs/yaml' }) },
  'GET /api/health': { expect: same(200), call: () => ({ path: '/api/health' }) },
  'GET /api/ready': { expect: same(200), call: () => ({ path: '/api/ready' }) },

  // --- accounts: public calls answer alike whoever asks about whom ---
  'POST /api/auth/register': {
    expect: same(202),
    call: () => ({
      path: '/api/auth/register',
      body: { email: fresh('newcomer'), password: 'a long enough password' },
    }),
  },
  'POST /api/auth/verify-email': {
    expect: same([401, 'INVALID_TOKEN']),
    call: () => ({ path: '/api/auth/verify-email', body: { token: 'not-a-real-link-token' } }),
  },
  'POST /api/auth/signin': {
    expect: {
      anon: [401, 'INVALID_CREDENTIALS'],
      none: 200,
      premium: 200,
      other: [401, 'INVALID_CREDENTIALS'],
    },
    call: ({ caller, target }) => ({
      path: '/api/auth/signin',
      body: {
        email: target.email,
        password: caller === 'none' || caller === 'premium' ? target.password : 'a guess',
      },
    }),
  },
  'POST /api/auth/password/forgot': {
    expect: same(202),
    call: ({ target }) => ({ path: '/api/auth/password/forgot', body: { email: target.email } }),
  },
  'POST /api/auth/password/reset': {
    expect: same([401, 'INVALID_TOKEN']),
    call: () => ({
      path: '/api/auth/password/reset',
      body: { token: 'not-a-real-link', password: 'x'.repeat(12) },
    }),
  },
  'POST /api/auth/password/change': {
    // Eve tries Ann's password as her own current one.
    expect: own(200, [401, 'INVALID_CREDENTIALS']),
    call: ({ target }) => ({
      path: '/api/auth/password/change',
      body: { currentPassword: target.password, newPassword: target.password },
    }),
  },
  'GET /api/auth/auth/session-cookie': {
    expect: { anon: [400, 'VALIDATION_FAILED'], none: 200, premium: 200, other: [400, 'VALIDATION_FAILED'] },
    call: async ({ caller, target }) => ({
      path: '/api/auth/auth/session-cookie',
      headers: {
        'id-token': caller === 'none' || caller === 'premium' ? await signIn(target) : forged(target),
      },
    }),
  },
  'GET /api/auth/auth/set-session': {
    expect: { anon: 400, none: 200, premium: 200, other: 400 },
    call: async ({ caller, target }) => ({
      path: '/api/auth/auth/set-session',
      headers: {
        'session-token':
          caller === 'none' || caller === 'premium' ? (await newSession(target)).token : forged(target),
      },
    }),
  },
  'GET /api/auth/auth/sign-out': {
    expect: same(200),
    // Each caller ends a session of their own, made for it; Ann's sessions must survive (checked after).
    call: async ({ who, target }) => {
      const session = who ? await newSession(who) : null;
      return {
        path: `/api/auth/auth/sign-out?deviceId=${target.sessionId}`,
        headers: session ? { authorization: `Bearer ${session.token}` } : ({} as Record<string, string>),
      };
    },
  },
  'GET /api/auth/auth/id-token': { expect: own(200), call: () => ({ path: '/api/auth/auth/id-token' }) },
  'GET /api/auth/me': { expect: same(200), call: () => ({ path: '/api/auth/me' }) },
  'GET /api/auth/sessions': { expect: own(200), call: () => ({ path: '/api/auth/sessions' }) },
  'DELETE /api/auth/sessions/:id': {
    expect: { anon: 401, none: 204, premium: 204, other: 404 },
    call: async ({ caller, target }) => ({
      path: `/api/auth/sessions/${caller === 'none' || caller === 'premium' ? (await newSession(target)).id : target.sessionId}`,
    }),
  },
  'GET /api/auth/tokens': { expect: own(200), call: () => ({ path: '/api/auth/tokens' }) },
  'POST /api/auth/tokens': {
    expect: own(201),
    call: () => ({ path: '/api/auth/tokens', body: { name: 'matrix' } }),
  },
  'DELETE /api/auth/tokens/:id': {
    expect: { anon: 401, none: 204, premium: 204, other: 404 },
    call: async ({ caller, target }) => {
      let id = target.apiTokenId;
      if (caller === 'none' || caller === 'premium') {
        const res = await api(ferry.baseUrl, '/api/auth/tokens', {
          method: 'POST',
          headers: { authorization: `Bearer ${target.token}` },
          json: { name: 'to revoke' },
        });
        id = res.body.id;
      }
      return { path: `/api/auth/tokens/${id}` };
    },
  },
  // Hosts: public look-ups, and an account's own subdomain and custom domains (paid plans, the owner alone).
  'GET /api/hosts/current': { expect: same(200), call: () => ({ path: '/api/hosts/current' }) },
  'GET /api/hosts/tls-ask': {
    expect: same(404),
    call: () => ({ path: '/api/hosts/tls-ask?domain=nobody.matrix.test' }),
  },
  'POST /api/auth/auth/custom-token': {
    expect: same([400, 'VALIDATION_FAILED']),
    call: () => ({ path: '/api/auth/auth/custom-token', body: { customToken: 'a.b.c' } }),
  },
  'GET /api/user/users/:id/domains': {
    expect: { anon: 401, none: [403, 'FORBIDDEN'], premium: 200, other: [403, 'FORBIDDEN'] },
    call: ({ target }) => ({ path: `/api/user/users/${target.uid}/domains` }),
  },
  'PUT /api/user/users/:id/domains/subdomain': {
    expect: { anon: 401, none: [403, 'FORBIDDEN'], premium: 200, other: [403, 'FORBIDDEN'] },
    call: ({ target }) => ({
      path: `/api/user/users/${target.uid}/domains/subdomain`,
      body: { name: `site-${target.label}` },
    }),
  },
  'DELETE /api/user/users/:id/domains/subdomain': {
    expect: { anon: 401, none: [403, 'FORBIDDEN'], premium: 200, other: [403, 'FORBIDDEN'] },
    call: ({ target }) => ({ path: `/api/user/users/${target.uid}/domains/subdomain` }),
  },
  'POST /api/user/users/:id/domains': {
    expect: { anon: 401, none: [403, 'FORBIDDEN'], premium: 201, other: [403, 'FORBIDDEN'] },
    call: ({ target }) => ({
      path: `/api/user/users/${target.uid}/domains`,
      body: { domain: `files.${target.label}.example` },
    }),
  },
  'POST /api/user/users/:id/domains/:domain/verify': {
    // A domain never added: Pam learns that (no DNS look-up is made); the others are refused before.
    expect: { anon: 401, none: [403, 'FORBIDDEN'], premium: [404, 'NOT_FOUND'], other: [403, 'FORBIDDEN'] },
    call: ({ target }) => ({
      path: `/api/user/users/${target.uid}/domains/never.${target.label}.example/verify`,
    }),
  },
  'DELETE /api/user/users/:id/domains/:domain': {
    expect: { anon: 401, none: [403, 'FORBIDDEN'], premium: 204, other: [403, 'FORBIDDEN'] },
    call: async ({ caller, target }) => {
      const domain = `gone.${target.label}.example`;
      if (caller === 'premium')
        await api(ferry.baseUrl, `/api/user/users/${target.uid}/domains`, {
          method: 'POST',
          headers: { authorization: `Bearer ${target.token}` },
          json: { domain },
        });
      return { path: `/api/user/users/${target.uid}/domains/${domain}` };
    },
  },
  'GET /api/user/webhooks': { expect: own(200), call: () => ({ path: '/api/user/webhooks' }) },
  'POST /api/user/webhooks': {
    expect: own(201),
    call: () => ({
      path: '/api/user/webhooks',
      body: { url: 'https://93.184.216.34/matrix', events: ['EXPIRED'] },
    }),
  },
  'DELETE /api/user/webhooks/:id': {
    expect: { anon: 401, none: 204, premium: 204, other: 404 },
    call: async ({ caller, target }) => ({
      path: `/api/user/webhooks/${caller === 'none' || caller === 'premium' ? await newHook(target) : (await hookOf(target)).hookId}`,
    }),
  },
  'GET /api/user/webhooks/:id/deliveries': {
    expect: owner(200),
    call: async ({ target }) => ({ path: `/api/user/webhooks/${(await hookOf(target)).hookId}/deliveries` }),
  },
  'POST /api/user/webhooks/deliveries/:deliveryId/replay': {
    expect: owner(200),
    call: async ({ target }) => ({
      path: `/api/user/webhooks/deliveries/${(await hookOf(target)).deliveryId}/replay`,
    }),
  },
  'GET /api/auth/totp': { expect: own(200), call: () => ({ path: '/api/auth/totp' }) },
  'POST /api/auth/totp/setup': { expect: own(200), call: () => ({ path: '/api/auth/totp/setup' }) },
  'POST /api/auth/totp/enable': {
    expect: own([401, 'SECOND_FACTOR_REQUIRED']),
    call: async ({ who }) => {
      if (who)
        await api(ferry.baseUrl, '/api/auth/totp/setup', {
          method: 'POST',
          headers: { authorization: `Bearer ${who.token}` },
        });
      return { path: '/api/auth/totp/enable', body: { code: '000000' } };
    },
  },
  'POST /api/auth/totp/recovery-codes': {
    expect: own([409, 'CONFLICT']),
    call: () => ({ path: '/api/auth/totp/recovery-codes', body: { code: '000000' } }),
  },
  'POST /api/auth/totp/disable': {
    expect: own(204, [401, 'INVALID_CREDENTIALS']),
    call: ({ target }) => ({ path: '/api/auth/totp/disable', body: { password: target.password } }),
  },
  'GET /api/auth/providers/users/:email/by-email': {
    expect: same(200),
    call: ({ target }) => ({
      path: `/api/auth/providers/users/${encodeURIComponent(target.email)}/by-email`,
    }),
  },
  'GET /api/user/auth/has-active-account/:email': {
    expect: same(200),
    call: ({ target }) => ({ path: `/api/user/auth/has-active-account/${encodeURIComponent(target.email)}` }),
  },
  'GET /api/auth/oidc/providers': { expect: same(200), call: () => ({ path: '/api/auth/oidc/providers' }) },
  'GET /api/auth/oidc/:name/start': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/auth/oidc/nope/start' }),
  },
  'GET /api/auth/oidc/:name/callback': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/auth/oidc/nope/callback?code=x&state=y' }),
  },
  'POST /api/auth/oidc/:name/callback': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({
      path: '/api/auth/oidc/nope/callback',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      raw: Buffer.from('code=x&state=y'),
    }),
  },

  // --- the account's own data: another account's is not found ---
  'GET /api/user/users/:id': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/user/users/${target.uid}` }),
  },
  'PATCH /api/user/users/:id': {
    expect: owner(200),
    call: ({ caller, target }) => ({
      path: `/api/user/users/${target.uid}`,
      body: { info: { firstname: caller === 'other' ? 'Eve was here' : `${target.label}-firstname` } },
    }),
  },
  'PUT /api/user/users/:id/uploader-settings': {
    expect: owner(200),
    call: async ({ target }) => ({
      path: `/api/user/users/${target.uid}/uploader-settings`,
      body: (
        await api(ferry.baseUrl, `/api/user/users/${target.uid}`, {
          headers: { authorization: `Bearer ${target.token}` },
        })
      ).body.uploaderSettings,
    }),
  },
  'GET /api/theme': { expect: same(200), call: () => ({ path: '/api/theme' }) },
  'GET /api/theme/assets/:assetId': {
    expect: same(200),
    call: async () => ({ path: `/api/theme/assets/${await themeAssetOf(pam)}` }),
  },
  'GET /api/user/users/:id/customization': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/user/users/${target.uid}/customization` }),
  },
  'PUT /api/user/users/:id/customization': {
    expect: paidOwner(200),
    call: ({ target }) => ({
      path: `/api/user/users/${target.uid}/customization`,
      body: { actionColor: '#1A237E', uploader: { subject: `${target.label} files` } },
    }),
  },
  'POST /api/user/users/:id/customization/assets': {
    expect: paidOwner(201),
    call: async ({ target }) => ({
      path: `/api/user/users/${target.uid}/customization/assets?kind=logo`,
      headers: { 'content-type': 'image/png' },
      raw: await tinyPng(),
    }),
  },
  'DELETE /api/user/users/:id/customization/assets/:assetId': {
    // Ann (free) has no asset: hers is not found; Pam deletes a fresh one of hers.
    expect: { anon: 401, none: 404, premium: 204, other: 404 },
    call: async ({ caller, target }) => ({
      path: `/api/user/users/${target.uid}/customization/assets/${
        caller === 'premium' ? await themeAssetOf(pam, true) : await themeAssetOf(pam)
      }`,
    }),
  },
  'GET /api/user/teams/:teamId/uploader-settings': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/uploader-settings` }),
  },
  'GET /api/user/teams/:teamId/members/:uid': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/members/${target.uid}` }),
  },
  // --- a team's security log: its manager (an account without a team: its own) or a USER_MANAGER member ---
  'GET /api/team/:teamId/security-logs': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/security-logs` }),
  },
  'GET /api/team/:teamId/security-logs/export': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/security-logs/export?format=json` }),
  },
  'GET /api/team/:teamId/security-log-settings': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/security-log-settings` }),
  },
  'PUT /api/team/:teamId/security-log-settings': {
    expect: owner(200),
    call: ({ target }) => ({
      path: `/api/team/${target.uid}/security-log-settings`,
      body: { retentionDays: 365 },
    }),
  },
  // Team members: the manager or a USER_MANAGER member, with a team plan (NONE and PREMIUM have none: 403).
  // The team roles (manager, USER_MANAGER, plain member, another team) are in team-members.int.test.ts.
  'GET /api/user/teams/:teamId/members': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/members` }),
  },
  'POST /api/user/teams/:teamId/invitations': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({
      path: `/api/user/teams/${target.uid}/invitations`,
      body: { emails: ['someone@example.com'] },
    }),
  },
  'DELETE /api/user/teams/:teamId/invitations/:invitationId': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/invitations/none` }),
  },
  'PATCH /api/user/teams/:teamId/members/:uid': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({
      path: `/api/user/teams/${target.uid}/members/${target.uid}`,
      body: { permissions: [] },
    }),
  },
  'DELETE /api/user/teams/:teamId/members/:uid': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/members/${target.uid}` }),
  },
  'GET /api/user/teams/:teamId/groups': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/groups` }),
  },
  'POST /api/user/teams/:teamId/groups': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/groups`, body: { name: 'Group' } }),
  },
  'PATCH /api/user/teams/:teamId/groups/:groupId': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/groups/none`, body: { name: 'Group' } }),
  },
  'DELETE /api/user/teams/:teamId/groups/:groupId': {
    expect: { ...owner([403, 'FORBIDDEN']) },
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/groups/none` }),
  },
  'GET /api/user/team-invitations/:token': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/user/team-invitations/not-an-invitation' }),
  },
  'POST /api/user/team-invitations/accept': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/user/team-invitations/accept', body: { token: 'not-an-invitation' } }),
  },
  'GET /api/team/:teamId/overview': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/overview` }),
  },
  // A team's transfers: its manager (an account without a team: its own) or a TRANSFER_MANAGER member; the team
  // roles are in team-transfers.int.test.ts.
  'GET /api/user/teams/:teamId/transfers': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/user/teams/${target.uid}/transfers` }),
  },
  'GET /api/team/:teamId/authentication-policy': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/authentication-policy` }),
  },
  'PUT /api/team/:teamId/authentication-policy': {
    expect: owner(200),
    call: ({ target }) => ({
      path: `/api/team/${target.uid}/authentication-policy`,
      body: { allowedEmailDomains: [], requireSecondFactor: false, signInMethods: null },
    }),
  },
  // Team tokens: the manager of a team plan only (NONE and PREMIUM have no team: 404); the team roles are in
  // team-tokens.int.test.ts.
  'GET /api/team/:teamId/tokens': {
    expect: owner([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/tokens` }),
  },
  'POST /api/team/:teamId/tokens': {
    expect: owner([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/tokens`, body: { name: 'team bot' } }),
  },
  'DELETE /api/team/:teamId/tokens/:id': {
    expect: owner([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/team/${target.uid}/tokens/none` }),
  },
  'POST /api/auth/second-factor-setup/start': {
    expect: same([401, 'INVALID_TOKEN']),
    call: () => ({ path: '/api/auth/second-factor-setup/start', body: { setupToken: 'a.b.c' } }),
  },
  'POST /api/auth/second-factor-setup/finish': {
    expect: same([401, 'INVALID_TOKEN']),
    call: () => ({
      path: '/api/auth/second-factor-setup/finish',
      body: { setupToken: 'a.b.c', code: '000000' },
    }),
  },
  'GET /api/user/locations/country': {
    expect: same(200),
    call: () => ({ path: '/api/user/locations/country' }),
  },
  'GET /api/transfer/limits/:id': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/transfer/limits/${target.uid}` }),
  },
  'PUT /api/transfer/limits/:id/by-user': {
    expect: owner(200),
    call: ({ target }) => ({
      path: `/api/transfer/limits/${target.uid}/by-user`,
      body: { disableSSEC: false },
    }),
  },

  // --- transfers: creating is open (plan limits apply); the rest needs the transfer's upload token ---
  'POST /api/transfer/transfers': {
    // 30 days: past NONE's 7 (anonymous callers are NONE), within PREMIUM's 365.
    expect: {
      anon: [400, 'LIMIT_EXCEEDED'],
      none: [400, 'LIMIT_EXCEEDED'],
      premium: 201,
      other: [400, 'LIMIT_EXCEEDED'],
    },
    call: () => ({
      path: '/api/transfer/transfers',
      body: { files: [{ name: 'a.txt', size: 1 }], expiresInDays: 30 },
    }),
  },
  'GET /api/transfer/transfers/:transferId/upload-state': {
    expect: { anon: NF, none: 200, premium: 200, other: NF },
    call: ({ who, target }) => ({
      path: `/api/transfer/transfers/${target.open.transferId}/upload-state`,
      headers: uploadToken(who),
    }),
  },
  'GET /api/transfer/transfers/:transferId/events': {
    expect: { anon: NF, none: 200, premium: 200, other: NF },
    call: ({ who, target }) => ({
      path: `/api/transfer/transfers/${target.open.transferId}/events`,
      headers: uploadToken(who),
    }),
  },
  'POST /api/transfer/transfers/:transferId/complete': {
    // The owner's is refused for its state (a file is half sent), not for who asks.
    expect: { anon: NF, none: [409, 'UPLOAD_INCOMPLETE'], premium: [409, 'UPLOAD_INCOMPLETE'], other: NF },
    call: ({ who, target }) => ({
      path: `/api/transfer/transfers/${target.open.transferId}/complete`,
      headers: uploadToken(who),
      body: { files: [] },
    }),
  },
  'POST /api/transfer/transfers/:transferId/sender-verification': {
    expect: { anon: NF, none: [409, 'CONFLICT'], premium: [409, 'CONFLICT'], other: NF },
    call: ({ who, target }) => ({
      path: `/api/transfer/transfers/${target.open.transferId}/sender-verification`,
      headers: uploadToken(who),
      body: { code: '123456' },
    }),
  },
  'POST /api/transfer/transfers/:transferId/sender-verification/resend': {
    expect: { anon: NF, none: [409, 'CONFLICT'], premium: [409, 'CONFLICT'], other: NF },
    call: ({ who, target }) => ({
      path: `/api/transfer/transfers/${target.open.transferId}/sender-verification/resend`,
      headers: uploadToken(who),
    }),
  },
  'PATCH /api/transfer/transfers/:transferId/notifications': {
    expect: { anon: NF, none: 200, premium: 200, other: NF },
    call: ({ who, target }) => ({
      path: `/api/transfer/transfers/${target.open.transferId}/notifications`,
      headers: uploadToken(who),
      body: { downloadConfirmation: false },
    }),
  },
  'POST /api/transfer/notifications/unsubscribe': {
    expect: same(NF),
    call: () => ({ path: '/api/transfer/notifications/unsubscribe?token=forged-token' }),
  },
  'POST /api/transfer/uploads': {
    expect: { anon: NF, none: 201, premium: 201, other: NF },
    call: async ({ caller, who, target }) => {
      // The owner starts the upload of a fresh transfer; the others try to (re)start Ann's.
      const mine = caller === 'none' || caller === 'premium';
      const t = mine ? await createTransfer(target, { files: [{ name: 'b.bin', size: 10 }] }) : null;
      const [transferId, fileId] = t
        ? [t.transferId, t.files[0]!.id]
        : [target.open.transferId, target.open.fileId];
      return {
        path: '/api/transfer/uploads',
        headers: upload(who, {
          ...(t ? { 'x-upload-token': t.uploadToken } : {}),
          'upload-length': '10',
          'upload-metadata': `transferId ${b64(transferId)},fileId ${b64(fileId)}`,
        }),
      };
    },
  },
  'HEAD /api/transfer/uploads': {
    expect: same(404),
    call: ({ who }) => ({ path: '/api/transfer/uploads', headers: upload(who) }),
  },
  'PATCH /api/transfer/uploads': {
    expect: same(404),
    call: ({ who }) => ({ path: '/api/transfer/uploads', headers: upload(who) }),
  },
  'DELETE /api/transfer/uploads': {
    expect: same(404),
    call: ({ who }) => ({ path: '/api/transfer/uploads', headers: upload(who) }),
  },
  'OPTIONS /api/transfer/uploads': { expect: same(204), call: () => ({ path: '/api/transfer/uploads' }) },
  'POST /api/transfer/uploads/:uploadId': {
    expect: { anon: NF, none: 201, premium: 201, other: NF },
    call: async ({ caller, who, target }) => {
      const mine = caller === 'none' || caller === 'premium';
      const t = mine ? await createTransfer(target, { files: [{ name: 'c.bin', size: 10 }] }) : null;
      const [transferId, fileId] = t
        ? [t.transferId, t.files[0]!.id]
        : [target.open.transferId, target.open.fileId];
      return {
        path: `/api/transfer/uploads/${target.open.uploadId}`,
        headers: upload(who, {
          ...(t ? { 'x-upload-token': t.uploadToken } : {}),
          'upload-length': '10',
          'upload-metadata': `transferId ${b64(transferId)},fileId ${b64(fileId)}`,
        }),
      };
    },
  },
  'HEAD /api/transfer/uploads/:uploadId': {
    expect: { anon: 404, none: 200, premium: 200, other: 404 },
    call: ({ who, target }) => ({
      path: `/api/transfer/uploads/${target.open.uploadId}`,
      headers: upload(who),
    }),
  },
  'PATCH /api/transfer/uploads/:uploadId': {
    expect: { anon: NF, none: 204, premium: 204, other: NF },
    call: async ({ caller, who, target }) => {
      // The owner finishes a fresh half-sent upload; the others try Ann's.
      const open = caller === 'none' || caller === 'premium' ? await halfUploaded(target) : target.open;
      return {
        path: `/api/transfer/uploads/${open.uploadId}`,
        headers: {
          ...upload(who),
          ...(caller === 'none' || caller === 'premium' ? { 'x-upload-token': open.uploadToken } : {}),
          'upload-offset': '5',
          'content-type': 'application/offset+octet-stream',
        },
        raw: Buffer.alloc(5, 2),
      };
    },
  },
  'DELETE /api/transfer/uploads/:uploadId': {
    expect: { anon: NF, none: 204, premium: 204, other: NF },
    call: async ({ caller, who, target }) => {
      const open = caller === 'none' || caller === 'premium' ? await halfUploaded(target) : target.open;
      return {
        path: `/api/transfer/uploads/${open.uploadId}`,
        headers: {
          ...upload(who),
          ...(caller === 'none' || caller === 'premium' ? { 'x-upload-token': open.uploadToken } : {}),
        },
      };
    },
  },
  'OPTIONS /api/transfer/uploads/:uploadId': {
    expect: same(204),
    call: ({ target }) => ({ path: `/api/transfer/uploads/${target.open.uploadId}` }),
  },

  // --- the dashboard: signed in; a transfer is its owner's (or their team manager's), others are told 404 ---
  'GET /api/transfer/transfers': { expect: own(200), call: () => ({ path: '/api/transfer/transfers' }) },
  'GET /api/transfer/transfers/:transferId/detail': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: ({ target }) => ({ path: `/api/transfer/transfers/${target.sent.transferId}/detail` }),
  },
  'PATCH /api/transfer/transfers/:transferId': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}`,
      body: { allowPreview: true },
    }),
  },
  'GET /api/transfer/transfers/:transferId/open-graph': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: ({ target }) => ({ path: `/api/transfer/transfers/${target.sent.transferId}/open-graph` }),
  },
  'PUT /api/transfer/transfers/:transferId/open-graph': {
    // A link preview of one's own is for paid plans.
    expect: { anon: 401, none: [403, 'FORBIDDEN'], premium: 200, other: NF },
    call: ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/open-graph`,
      body: { title: 'Matrix preview' },
    }),
  },
  'POST /api/transfer/transfers/:transferId/recipients': {
    // The owner's is refused for its type (recipients are for S1), not for who asks.
    expect: { anon: 401, none: [400, 'VALIDATION_FAILED'], premium: [400, 'VALIDATION_FAILED'], other: NF },
    call: ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/recipients`,
      body: { emails: ['someone@matrix.example'] },
    }),
  },
  'DELETE /api/transfer/transfers/:transferId/recipients/:email': {
    expect: { anon: 401, none: [404, 'NOT_FOUND'], premium: [404, 'NOT_FOUND'], other: NF },
    call: ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/recipients/someone%40matrix.example`,
    }),
  },
  'POST /api/transfer/transfers/:transferId/enable': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: ({ target }) => ({ path: `/api/transfer/transfers/${target.sent.transferId}/enable` }),
  },
  'POST /api/transfer/transfers/:transferId/disable': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: async ({ caller, target }) => ({
      path: `/api/transfer/transfers/${mine(caller) ? await completed(target) : target.sent.transferId}/disable`,
    }),
  },
  'DELETE /api/transfer/transfers/:transferId': {
    expect: { anon: 401, none: 204, premium: 204, other: NF },
    call: async ({ caller, target }) => ({
      path: `/api/transfer/transfers/${mine(caller) ? await completed(target) : target.sent.transferId}`,
    }),
  },
  'PATCH /api/transfer/transfers/:transferId/files/:fileId': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/files/${target.sent.fileId}`,
      body: { name: target.sent.fileName },
    }),
  },
  'DELETE /api/transfer/transfers/:transferId/files/:fileId': {
    // Its only file: refused for that (409), whoever owns it.
    expect: { anon: 401, none: [409, 'CONFLICT'], premium: [409, 'CONFLICT'], other: NF },
    call: ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/files/${target.sent.fileId}`,
    }),
  },
  'POST /api/transfer/transfers/:transferId/clone': {
    expect: { anon: 401, none: 201, premium: 201, other: NF },
    call: ({ target }) => ({ path: `/api/transfer/transfers/${target.sent.transferId}/clone`, body: {} }),
  },
  'POST /api/transfer/transfers/:transferId/files': {
    expect: { anon: 401, none: 201, premium: 201, other: NF },
    call: ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/files`,
      body: { files: [{ name: 'more.txt', size: 4 }] },
    }),
  },
  'POST /api/transfer/transfers/:transferId/additions/:additionId/complete': {
    // The owner's is refused for its state (its file is not uploaded), not for who asks.
    expect: { anon: 401, none: [409, 'UPLOAD_INCOMPLETE'], premium: [409, 'UPLOAD_INCOMPLETE'], other: NF },
    call: async ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/additions/${await addition(target)}/complete`,
      body: {},
    }),
  },
  'DELETE /api/transfer/transfers/:transferId/additions/:additionId': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: async ({ target }) => ({
      path: `/api/transfer/transfers/${target.sent.transferId}/additions/${await addition(target)}`,
    }),
  },

  // --- downloads: the link is the capability; the password guards the files, whoever is signed in ---
  'GET /api/transfer/downloads/info': {
    expect: same(200),
    call: ({ target }) => ({ path: `/api/transfer/downloads/info?transferId=${target.sent.transferId}` }),
  },
  // Buying a priced transfer is public, like its page; the target's transfer is free: nothing to buy, for anyone.
  'POST /api/pay/purchases': {
    expect: same([400, 'VALIDATION_FAILED']),
    call: ({ target }) => ({
      path: '/api/pay/purchases',
      body: { transferId: target.sent.transferId, email: 'buyer@matrix.example', countryCode: 'FR' },
    }),
  },
  // A purchase is found by its id alone (the buyer's secret); an unknown one is not found by anyone.
  'GET /api/pay/purchases/:purchaseId': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: `/api/pay/purchases/${'Zz'.repeat(12)}` }),
  },
  'GET /api/transfer/downloads/link': {
    expect: same([401, 'PASSWORD_REQUIRED']),
    call: ({ target }) => ({
      path: `/api/transfer/downloads/link?transferId=${target.sent.transferId}&fileId=${target.sent.fileId}`,
    }),
  },
  'POST /api/transfer/downloads/check-password': {
    expect: { anon: [403, 'WRONG_PASSWORD'], none: 200, premium: 200, other: [403, 'WRONG_PASSWORD'] },
    call: ({ caller, target }) => ({
      path: '/api/transfer/downloads/check-password',
      body: {
        transferId: target.sent.transferId,
        password: caller === 'none' || caller === 'premium' ? target.sent.password : 'a guess',
      },
    }),
  },
  'GET /api/transfer/downloads/blob/:token': {
    expect: same(NF),
    call: () => ({ path: '/api/transfer/downloads/blob/forged.token' }),
  },
  // Thumbnails: the download's checks (the password first, whoever is signed in); renditions by signed URL only.
  'POST /api/transfer/downloads/thumbnail-links': {
    expect: same([401, 'PASSWORD_REQUIRED']),
    call: ({ target }) => ({
      path: `/api/transfer/downloads/thumbnail-links?transferId=${target.sent.transferId}`,
      body: { fileIds: [target.sent.fileId], format: 'web' },
    }),
  },
  'GET /api/transfer/downloads/renditions/:token': {
    expect: same(NF),
    call: () => ({ path: '/api/transfer/downloads/renditions/forged.token' }),
  },

  // --- the address book and contact groups: the account's own; another account's are not found ---
  'GET /api/user/contacts': {
    // Listing one group: the target's own, which another account must not find.
    expect: owner(200),
    call: async ({ target }) => ({
      path: `/api/user/contacts?q=contact&groupId=${(await bookOf(target)).groupId}`,
    }),
  },
  'POST /api/user/contacts': {
    expect: own(201),
    call: () => ({ path: '/api/user/contacts', body: { email: fresh('added') } }),
  },
  'POST /api/user/contacts/import': {
    expect: own(200),
    call: () => ({ path: '/api/user/contacts/import', body: { content: `email\n${fresh('imported')}\n` } }),
  },
  'GET /api/user/contacts/export': {
    expect: own(200),
    call: () => ({ path: '/api/user/contacts/export?format=vcard' }),
  },
  'GET /api/user/contacts/:contactId': {
    expect: owner(200),
    call: async ({ target }) => ({ path: `/api/user/contacts/${(await bookOf(target)).contactId}` }),
  },
  'PATCH /api/user/contacts/:contactId': {
    expect: owner(200),
    call: async ({ target }) => ({
      path: `/api/user/contacts/${(await bookOf(target)).contactId}`,
      body: { notes: 'kept' },
    }),
  },
  'DELETE /api/user/contacts/:contactId': {
    expect: { anon: 401, none: 204, premium: 204, other: 404 },
    call: async ({ caller, target }) => ({
      path: `/api/user/contacts/${mine(caller) ? await freshContact(target) : (await bookOf(target)).contactId}`,
    }),
  },
  'GET /api/user/contact-groups': { expect: own(200), call: () => ({ path: '/api/user/contact-groups' }) },
  'POST /api/user/contact-groups': {
    expect: own(201),
    call: () => ({ path: '/api/user/contact-groups', body: { name: fresh('group') } }),
  },
  'GET /api/user/contact-groups/:groupId': {
    expect: owner(200),
    call: async ({ target }) => ({ path: `/api/user/contact-groups/${(await bookOf(target)).groupId}` }),
  },
  'PATCH /api/user/contact-groups/:groupId': {
    expect: owner(200),
    call: async ({ target }) => ({
      path: `/api/user/contact-groups/${(await bookOf(target)).groupId}`,
      body: { name: `${target.label} group` },
    }),
  },
  'DELETE /api/user/contact-groups/:groupId': {
    expect: { anon: 401, none: 204, premium: 204, other: 404 },
    call: async ({ caller, target }) => {
      if (!mine(caller)) return { path: `/api/user/contact-groups/${(await bookOf(target)).groupId}` };
      const res = await api(ferry.baseUrl, '/api/user/contact-groups', {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}` },
        json: { name: fresh('doomed') },
      });
      return { path: `/api/user/contact-groups/${res.body.id}` };
    },
  },
  'POST /api/user/contact-groups/:groupId/members': {
    expect: owner(200),
    call: async ({ target }) => {
      const book = await bookOf(target);
      return {
        path: `/api/user/contact-groups/${book.groupId}/members`,
        body: { contactIds: [book.contactId] },
      };
    },
  },
  'DELETE /api/user/contact-groups/:groupId/members/:contactId': {
    expect: { anon: 401, none: 200, premium: 200, other: 404 },
    call: async ({ caller, target }) => {
      const book = await bookOf(target);
      if (!mine(caller))
        return { path: `/api/user/contact-groups/${book.groupId}/members/${book.contactId}` };
      const member = await freshContact(target);
      await api(ferry.baseUrl, `/api/user/contact-groups/${book.groupId}/members`, {
        method: 'POST',
        headers: { authorization: `Bearer ${target.token}` },
        json: { contactIds: [member] },
      });
      return { path: `/api/user/contact-groups/${book.groupId}/members/${member}` };
    },
  },

  // --- receiving (S3): requests and inboxes are their owner's; their public pages and uploads are anyone's ---
  'POST /api/receive/requests': {
    expect: own(201),
    call: () => ({ path: '/api/receive/requests', body: { subject: 'Anything' } }),
  },
  'GET /api/receive/requests': { expect: own(200), call: () => ({ path: '/api/receive/requests' }) },
  'GET /api/receive/requests/:requestId': {
    expect: { ...owner(200), other: [404, 'NOT_FOUND'] },
    call: async ({ target }) => ({ path: `/api/receive/requests/${(await pointsOf(target)).requestId}` }),
  },
  'POST /api/receive/requests/:requestId/close': {
    expect: { anon: 401, none: 200, premium: 200, other: [404, 'NOT_FOUND'] },
    call: async ({ caller, target }) => ({
      path: `/api/receive/requests/${
        mine(caller)
          ? (await as(target, 'POST', '/api/receive/requests', {})).requestId
          : (await pointsOf(target)).requestId
      }/close`,
    }),
  },
  'GET /api/receive/points/request/:requestId': {
    expect: same(200),
    call: async ({ target }) => ({
      path: `/api/receive/points/request/${(await pointsOf(target)).requestId}`,
    }),
  },
  'GET /api/receive/points/inbox/:slug': {
    expect: same(200),
    call: async ({ target }) => ({ path: `/api/receive/points/inbox/${(await pointsOf(target)).slug}` }),
  },
  'GET /api/receive/points/widget/:widgetId': {
    expect: same(200),
    call: async ({ target }) => ({ path: `/api/receive/points/widget/${(await pointsOf(target)).widgetId}` }),
  },
  'GET /api/receive/push': {
    // By the owner's address: their default inbox, whoever asks (its title, never their address).
    expect: same(200),
    call: async ({ target }) => {
      await pointsOf(target);
      return { path: `/api/receive/push?to=${encodeURIComponent(target.email)}` };
    },
  },
  'POST /api/receive/check-password': {
    expect: { anon: [403, 'WRONG_PASSWORD'], none: 200, premium: 200, other: [403, 'WRONG_PASSWORD'] },
    call: async ({ caller, target }) => {
      const points = await pointsOf(target);
      return {
        path: '/api/receive/check-password',
        body: {
          target: { kind: 'request', requestId: points.requestId },
          password: mine(caller) ? points.requestPassword : 'a guess',
        },
      };
    },
  },
  'POST /api/receive/uploads': {
    expect: same(201),
    call: async ({ target }) => ({
      path: '/api/receive/uploads',
      body: {
        target: { kind: 'inbox', slug: (await pointsOf(target)).slug },
        files: [{ name: 'x.txt', size: 1 }],
      },
    }),
  },
  'GET /api/receive/uploads/:transferId': {
    // The upload token is the capability (the uploader's).
    expect: { anon: NF, none: 200, premium: 200, other: NF },
    call: async ({ caller, target }) => {
      const { received } = await pointsOf(target);
      return {
        path: `/api/receive/uploads/${received.transferId}`,
        headers: mine(caller) ? { 'x-upload-token': received.uploadToken } : uploadToken(null),
      };
    },
  },
  'POST /api/receive/uploads/:transferId/complete': {
    expect: { anon: NF, none: 200, premium: 200, other: NF },
    call: async ({ caller, who, target }) => {
      const { received } = await pointsOf(target);
      return {
        path: `/api/receive/uploads/${received.transferId}/complete`,
        headers: mine(caller) ? { 'x-upload-token': received.uploadToken } : uploadToken(who),
        body: { files: [] },
      };
    },
  },
  'GET /api/receive/received/:transferId': {
    expect: { anon: 401, none: 200, premium: 200, other: NF },
    call: async ({ target }) => {
      const { received } = await pointsOf(target);
      // Completed by its uploader first (the row above may not have run yet).
      await api(ferry.baseUrl, `/api/receive/uploads/${received.transferId}/complete`, {
        method: 'POST',
        headers: { 'x-upload-token': received.uploadToken },
        json: { files: [] },
      });
      return { path: `/api/receive/received/${received.transferId}` };
    },
  },
  'GET /api/receive/inboxes': { expect: own(200), call: () => ({ path: '/api/receive/inboxes' }) },
  'POST /api/receive/inboxes': {
    expect: own(201),
    call: () => ({ path: '/api/receive/inboxes', body: { slug: `new-${process.pid}-${++n}`, title: 'New' } }),
  },
  'GET /api/receive/inboxes/:inboxId': {
    expect: { ...owner(200), other: [404, 'NOT_FOUND'] },
    call: async ({ target }) => ({ path: `/api/receive/inboxes/${(await pointsOf(target)).inboxId}` }),
  },
  'PATCH /api/receive/inboxes/:inboxId': {
    expect: { ...owner(200), other: [404, 'NOT_FOUND'] },
    call: async ({ target }) => ({
      path: `/api/receive/inboxes/${(await pointsOf(target)).inboxId}`,
      body: { title: 'Box' },
    }),
  },
  'DELETE /api/receive/inboxes/:inboxId': {
    expect: { anon: 401, none: 204, premium: 204, other: [404, 'NOT_FOUND'] },
    call: async ({ caller, target }) => ({
      path: `/api/receive/inboxes/${mine(caller) ? await freshInbox(target) : (await pointsOf(target)).inboxId}`,
    }),
  },
  'GET /api/receive/inboxes/:inboxId/widgets': {
    expect: { ...owner(200), other: [404, 'NOT_FOUND'] },
    call: async ({ target }) => ({
      path: `/api/receive/inboxes/${(await pointsOf(target)).inboxId}/widgets`,
    }),
  },
  'POST /api/receive/inboxes/:inboxId/widgets': {
    expect: { ...owner(201), other: [404, 'NOT_FOUND'] },
    call: async ({ target }) => ({
      path: `/api/receive/inboxes/${(await pointsOf(target)).inboxId}/widgets`,
      body: { name: 'Another' },
    }),
  },
  'GET /api/receive/widgets/:widgetId': {
    expect: { ...owner(200), other: [404, 'NOT_FOUND'] },
    call: async ({ target }) => ({ path: `/api/receive/widgets/${(await pointsOf(target)).widgetId}` }),
  },
  'PATCH /api/receive/widgets/:widgetId': {
    expect: { ...owner(200), other: [404, 'NOT_FOUND'] },
    call: async ({ target }) => ({
      path: `/api/receive/widgets/${(await pointsOf(target)).widgetId}`,
      body: { name: 'Site' },
    }),
  },
  'DELETE /api/receive/widgets/:widgetId': {
    expect: { anon: 401, none: 204, premium: 204, other: [404, 'NOT_FOUND'] },
    call: async ({ caller, target }) => {
      const points = await pointsOf(target);
      const id = mine(caller)
        ? (await as(target, 'POST', `/api/receive/inboxes/${points.inboxId}/widgets`, {})).widgetId
        : points.widgetId;
      return { path: `/api/receive/widgets/${id}` };
    },
  },

  // --- operator console: nobody here is an operator, so it does not exist for any of them ---
  'GET /api/operator/me': { expect: same([404, 'NOT_FOUND']), call: () => ({ path: '/api/operator/me' }) },
  'GET /api/operator/users': {
    expect: same([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/operator/users?search=${encodeURIComponent(target.email)}` }),
  },
  'GET /api/operator/users/:uid': {
    expect: same([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/operator/users/${target.uid}` }),
  },
  'POST /api/operator/users/:uid/suspend': {
    expect: same([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/operator/users/${target.uid}/suspend` }),
  },
  'POST /api/operator/users/:uid/unsuspend': {
    expect: same([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/operator/users/${target.uid}/unsuspend` }),
  },
  'GET /api/operator/figures': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/operator/figures' }),
  },
  'GET /api/operator/actions': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/operator/actions' }),
  },

  // --- moderation: anyone reports what they can see (202 either way); the queue is the operators' only ---
  'POST /api/transfer/reports': {
    expect: same(202),
    call: ({ target }) => ({
      path: '/api/transfer/reports',
      body: { transferId: target.sent.transferId, reason: 'spam', details: 'matrix' },
    }),
  },
  'GET /api/operator/moderation': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/operator/moderation' }),
  },
  'GET /api/operator/moderation/:transferId': {
    expect: same([404, 'NOT_FOUND']),
    call: ({ target }) => ({ path: `/api/operator/moderation/${target.sent.transferId}` }),
  },
  ...Object.fromEntries(
    (['hold', 'release', 'retain', 'dismiss'] as const).map((decision) => [
      `POST /api/operator/moderation/:transferId/${decision}`,
      {
        expect: same([404, 'NOT_FOUND']),
        call: ({ target }: Ctx) => ({
          path: `/api/operator/moderation/${target.sent.transferId}/${decision}`,
          body: { note: 'matrix' },
        }),
      },
    ]),
  ),

  // --- sales ---
  'POST /api/sales/enterprise-contact': {
    expect: same(201),
    call: () => ({
      path: '/api/sales/enterprise-contact',
      body: { name: 'Buyer', email: fresh('buyer'), company: 'Acme' },
    }),
  },
  'POST /api/sales/contact': {
    expect: same(201),
    call: () => ({
      path: '/api/sales/contact',
      body: { name: 'Visitor', email: fresh('visitor'), subject: 'Hello', message: 'A question.' },
    }),
  },
  'GET /api/pay/subscriptions/tax-rates': {
    expect: same(200),
    call: () => ({ path: '/api/pay/subscriptions/tax-rates?countryCode=DE&vatNumber=DE123456789' }),
  },
  'GET /api/pay/invoices': {
    // Each caller's own invoices (Eve's list is hers, empty).
    expect: own(200),
    call: () => ({ path: '/api/pay/invoices' }),
  },
  'GET /api/pay/invoices/:number/pdf': {
    expect: owner(200),
    call: async ({ target }) => ({ path: `/api/pay/invoices/${await invoiceOf(target)}/pdf` }),
  },
  // Operator routes: nobody here is an operator (OPERATOR_EMAILS is empty), so they do not exist.
  'GET /api/operator/invoices': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/operator/invoices?open=true' }),
  },
  'POST /api/operator/invoices/:number/mark-paid': {
    expect: same([404, 'NOT_FOUND']),
    call: async ({ target }) => ({ path: `/api/operator/invoices/${await invoiceOf(target)}/mark-paid` }),
  },
  'POST /api/operator/invoices/:number/void': {
    expect: same([404, 'NOT_FOUND']),
    call: async ({ target }) => ({ path: `/api/operator/invoices/${await invoiceOf(target)}/void` }),
  },

  // --- plans and subscriptions (/pay/*): the paying account only; operators' routes do not exist for others ---
  'GET /api/pay/plans': { expect: same(200), call: () => ({ path: '/api/pay/plans' }) },
  'POST /api/pay/subscriptions': {
    // CUSTOM is never sold through checkout: signed in, the request is read and refused; nothing is bought.
    expect: own(400),
    call: () => ({
      path: '/api/pay/subscriptions',
      body: { planCode: 'CUSTOM', frequency: 'ANNUAL', provider: 'MANUAL', countryCode: 'FR' },
    }),
  },
  'GET /api/pay/subscriptions/current': {
    expect: own(200),
    call: () => ({ path: '/api/pay/subscriptions/current' }),
  },
  'PATCH /api/pay/subscriptions/:id': {
    // The target's subscription waits for its first payment: its owner is told to pay first.
    expect: owner(409),
    call: async ({ target }) => ({
      path: `/api/pay/subscriptions/${await liveSubscription(target)}`,
      body: { frequency: 'MONTHLY' },
    }),
  },
  'POST /api/pay/subscriptions/:id/cancel': {
    expect: owner(200),
    call: async ({ target }) => ({ path: `/api/pay/subscriptions/${await liveSubscription(target)}/cancel` }),
  },
  'POST /api/pay/subscriptions/:id/resume': {
    expect: owner(200),
    call: async ({ target }) => ({ path: `/api/pay/subscriptions/${await liveSubscription(target)}/resume` }),
  },
  'GET /api/pay/customers/:managerId': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/pay/customers/${target.uid}` }),
  },
  'GET /api/pay/customers/:managerId/payment-infos': {
    expect: owner(200),
    call: ({ target }) => ({ path: `/api/pay/customers/${target.uid}/payment-infos` }),
  },
  'PUT /api/operator/users/:uid/plan': {
    expect: same(404),
    call: ({ target }) => ({ path: `/api/operator/users/${target.uid}/plan`, body: { planCode: 'TEAM25' } }),
  },
  'GET /api/operator/subscriptions': {
    expect: same(404),
    call: () => ({ path: '/api/operator/subscriptions' }),
  },

  // --- payment providers' webhooks: neither provider is configured here, so neither route exists for anyone;
  // with a provider, only its signature counts (payments/stripe.int.test.ts, paypal.int.test.ts) ---
  'POST /api/pay/webhooks/stripe': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({ path: '/api/pay/webhooks/stripe', body: { id: 'evt_matrix', type: 'invoice.paid' } }),
  },
  'POST /api/pay/webhooks/paypal': {
    expect: same([404, 'NOT_FOUND']),
    call: () => ({
      path: '/api/pay/webhooks/paypal',
      body: { id: 'WH-MATRIX', event_type: 'PAYMENT.SALE.COMPLETED' },
    }),
  },
};

/** The id of the person's live subscription, started (MANUAL, waiting for payment) when there is none. */
async function liveSubscription(p: Person): Promise<string> {
  const headers = { authorization: `Bearer ${p.token}` };
  const current = await api(ferry.baseUrl, '/api/pay/subscriptions/current', { headers });
  if (current.body?.subscription) return current.body.subscription.id;
  const started = await api(ferry.baseUrl, '/api/pay/subscriptions', {
    method: 'POST',
    headers,
    json: { planCode: 'PREMIUM', frequency: 'ANNUAL', provider: 'MANUAL', countryCode: 'FR' },
  });
  if (started.status !== 201)
    throw new Error(`subscription ${started.status}: ${JSON.stringify(started.body)}`);
  return started.body.subscriptionId;
}

/** Ann's data, which no answer to anyone else may carry (JWT payloads in answers are decoded first). */
function leaks(body: string, p: Person): string[] {
  const decoded = body.replace(/eyJ[\w-]+\.([\w-]+)\.[\w-]+/g, (jwt, payload: string) => {
    try {
      return `${jwt} ${Buffer.from(payload, 'base64url').toString()}`;
    } catch {
      return jwt;
    }
  });
  return [
    p.email,
    p.uid,
    p.sessionId,
    p.apiTokenId,
    p.sent.fileName,
    `${p.label}-firstname`,
    `${p.label}-token`,
  ].filter((secret) => decoded.includes(secret));
}

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      BASE_DOMAIN: 'matrix.test',
    },
  });
  ann = await person('ann', 'NONE');
  pam = await person('pam', 'PREMIUM');
  eve = await person('eve', 'NONE');
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

describe('authorization matrix', () => {
  it('has a row for every /api route the server registers, and none for routes it does not', () => {
    const registered = registeredRoutes(ferry.app);
    expect(registered.length).toBeGreaterThan(50);
    expect(registered.filter((route) => !(route in TABLE))).toEqual([]);
    expect(Object.keys(TABLE).filter((route) => !registered.includes(route))).toEqual([]);
  });

  it('answers every route as the table says, for anonymous, NONE, PREMIUM and another user', async () => {
    const mismatches: string[] = [];
    for (const route of registeredRoutes(ferry.app)) {
      const row = TABLE[route];
      if (!row) continue; // reported by the test above
      const method = route.split(' ')[0]!;
      for (const caller of CALLERS) {
        const who = { anon: null, none: ann, premium: pam, other: eve }[caller];
        const target = caller === 'premium' ? pam : ann;
        const call = await row.call({ caller, who, target });
        const res = await fetch(`${ferry.baseUrl}${call.path}`, {
          method,
          redirect: 'manual',
          headers: {
            ...(who ? { authorization: `Bearer ${who.token}` } : {}),
            ...(call.body !== undefined ? { 'content-type': 'application/json' } : {}),
            ...call.headers,
          },
          body: call.raw ?? (call.body !== undefined ? JSON.stringify(call.body) : undefined),
        });
        const text = await res.text();
        const expected = row.expect[caller];
        const [status, code] = typeof expected === 'number' ? [expected, null] : expected;
        let codes: unknown = null;
        try {
          codes = JSON.parse(text).codes ?? null;
        } catch {}
        if (res.status !== status || (code && !(Array.isArray(codes) && codes.includes(code))))
          mismatches.push(
            `${route} as ${caller}: expected ${status}${code ? ` ${code}` : ''}, got ${res.status} ${text.slice(0, 200)}`,
          );
        if (caller === 'anon' || caller === 'other') {
          const leaked = leaks(text, ann);
          if (leaked.length > 0)
            mismatches.push(`${route} as ${caller}: the answer carries Ann's ${leaked.join(', ')}`);
        }
        if (caller === 'premium' && leaks(text, ann).length > 0)
          mismatches.push(`${route} as premium: the answer carries Ann's data`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it("leaves Ann's account as it was after everything the others tried", async () => {
    const asAnn = { authorization: `Bearer ${ann.token}` };
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: asAnn })).body.user.email).toBe(ann.email);
    const apiTokens = await api(ferry.baseUrl, '/api/auth/tokens', { headers: asAnn });
    expect(apiTokens.body.map((t: { id: string }) => t.id)).toContain(ann.apiTokenId);
    const sessions = await api(ferry.baseUrl, '/api/auth/sessions', { headers: asAnn });
    expect(sessions.body.map((s: { id: string }) => s.id)).toContain(ann.sessionId);
    const [row] = await query<{ firstname: string; totp_enabled_at: Date | null }>(
      ferry,
      'SELECT firstname, totp_enabled_at FROM users WHERE id = $1',
      [ann.uid],
    );
    expect(row).toEqual({ firstname: 'ann-firstname', totp_enabled_at: null });
    const book = await bookOf(ann);
    const group = await api(ferry.baseUrl, `/api/user/contact-groups/${book.groupId}`, { headers: asAnn });
    expect([group.status, group.body.name, group.body.members.map((m: { id: string }) => m.id)]).toEqual([
      200,
      'ann group',
      [book.contactId],
    ]);

    expect(
      (
        await api(ferry.baseUrl, '/api/auth/signin', {
          method: 'POST',
          json: { email: ann.email, password: ann.password },
        })
      ).status,
    ).toBe(200);
    const upload = await fetch(`${ferry.baseUrl}/api/transfer/uploads/${ann.open.uploadId}`, {
      method: 'HEAD',
      headers: { 'tus-resumable': '1.0.0', 'x-upload-token': ann.open.uploadToken },
    });
    expect([upload.status, upload.headers.get('upload-offset')]).toEqual([200, '5']);
  });
});

describe('what a personal API token may not do', () => {
  it('creates no other token, mints no browser session and changes no second factor; its own reads still work', async () => {
    const email = fresh('tia');
    const password = 'tia has a long password';
    const tia = await signedInAccount(
      ferry.baseUrl,
      email,
      (to) => sink.waitFor((m) => m.to.includes(to)),
      password,
    );
    const created = await api(ferry.baseUrl, '/api/auth/tokens', {
      method: 'POST',
      headers: tia.bearer,
      json: { name: 'tia-cli' },
    });
    const asToken = { authorization: `Bearer ${created.body.token}` };
    const refused = [
      ['POST', '/api/auth/tokens', { name: 'minted by a token' }],
      ['GET', '/api/auth/auth/id-token', undefined],
      ['POST', '/api/auth/totp/setup', undefined],
      ['POST', '/api/auth/totp/enable', { code: '123456' }],
      ['POST', '/api/auth/totp/recovery-codes', { code: '123456' }],
      ['POST', '/api/auth/totp/disable', { password }],
    ] as const;
    const answers = [];
    for (const [method, path, json] of refused) {
      const res = await api(ferry.baseUrl, path, { method, headers: asToken, ...(json ? { json } : {}) });
      answers.push([method, path, res.status, res.body?.codes, res.body?.details?.reason]);
    }
    expect(answers).toEqual(
      refused.map(([method, path]) => [method, path, 403, ['FORBIDDEN'], 'API_TOKEN_NOT_ALLOWED']),
    );
    // Nor does it become a session handed over from another domain.
    const handed = await api(ferry.baseUrl, '/api/auth/auth/set-session', {
      headers: { 'session-token': created.body.token },
    });
    expect(handed.status).toBe(400);
    expect(handed.headers.get('set-cookie')).toBeNull();

    const tokens = await api(ferry.baseUrl, '/api/auth/tokens', { headers: asToken });
    expect(tokens.body.map((t: { id: string }) => t.id)).toEqual([created.body.id]);
    const [row] = await query<{ totp_secret: string | null }>(
      ferry,
      'SELECT totp_secret FROM users WHERE id = $1',
      [tia.uid],
    );
    expect(row!.totp_secret).toBeNull();
    expect((await api(ferry.baseUrl, '/api/auth/me', { headers: asToken })).body.user.email).toBe(email);
  });
});
