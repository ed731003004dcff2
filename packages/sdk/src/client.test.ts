import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FerryClient, normalizeServerUrl } from './client.js';
import { FerryApiError, FerryProtocolError } from './errors.js';

type Call = { url: string; init: RequestInit | undefined };

/** A fetch that answers from a list, recording each call. */
function fakeFetch(answers: Array<Response | Error>) {
  const calls: Call[] = [];
  const fetch = (async (url: string, init?: RequestInit) => {
    calls.push({ url, init });
    const answer = answers.shift();
    if (!answer) throw new Error('no more answers');
    if (answer instanceof Error) throw answer;
    return answer;
  }) as unknown as typeof globalThis.fetch;
  return { fetch, calls };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const netError = (code: string) =>
  new TypeError('fetch failed', { cause: Object.assign(new Error(code), { code }) });

const summary = {
  transferId: 'AbCdEfGh12345678',
  type: 'S2',
  status: 'UPLOADING',
  name: null,
  link: '/dl/AbCdEfGh12345678',
  expiresAt: '2030-01-01T00:00:00Z',
  totalSize: 1,
  files: [{ id: 'abc123', name: 'a', relativePath: null, size: 1, sha256: null, uploaded: false }],
  senderEmail: null,
  senderVerification: 'not_needed',
  sentAt: null,
  recipients: [],
  notifications: {
    downloadConfirmation: false,
    expiryReminder: false,
    summary: false,
    forceEmailWhenDownloadS2: false,
  },
};

describe('normalizeServerUrl', () => {
  it('keeps origin and base path, drops trailing slashes, query and fragment', () => {
    expect(normalizeServerUrl('https://h.example/ferry/?x=1#y')).toBe('https://h.example/ferry');
    expect(normalizeServerUrl('http://localhost:8080/')).toBe('http://localhost:8080');
    expect(() => normalizeServerUrl('ftp://x')).toThrow('not an http(s) URL');
    expect(() => normalizeServerUrl('localhost:8080')).toThrow();
  });
});

describe('FerryClient', () => {
  it('builds query strings with only the set values (spec §7)', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, { url: '/b/1', fileName: 'a', size: 1, sha256: null, expiresAt: '2030-01-01T00:00:00Z' }),
    ]);
    const client = new FerryClient({ server: 'http://h:1/base/', fetch });
    await client.getDownloadLink({ transferId: 'AbCdEfGh12345678', preview: false, password: 'p w' });
    expect(calls[0]?.url).toBe(
      'http://h:1/base/api/transfer/downloads/link?transferId=AbCdEfGh12345678&password=p+w',
    );
  });

  it('sends the upload token and the hashes when completing', async () => {
    const { fetch, calls } = fakeFetch([json(200, { ...summary, status: 'ENABLED' })]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    const result = await client.completeTransfer('AbCdEfGh12345678', 'tok', [
      { id: 'abc123', sha256: 'f'.repeat(64) },
    ]);
    expect(result.status).toBe('ENABLED');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(calls[0]?.init?.headers).toMatchObject({ 'x-upload-token': 'tok' });
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      files: [{ id: 'abc123', sha256: 'f'.repeat(64) }],
    });
  });

  it('throws a FerryApiError parsed per spec §8', async () => {
    const { fetch } = fakeFetch([
      json(410, { status: 410, error: 'Gone', message: 'Expired.', codes: ['TRANSFER_EXPIRED'] }),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    const error = await client.getDownloadInfo('AbCdEfGh12345678').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FerryApiError);
    expect((error as FerryApiError).codes).toEqual(['TRANSFER_EXPIRED']);
  });

  it('refuses an answer that does not match the schema', async () => {
    const { fetch } = fakeFetch([json(200, { hello: 'world' })]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    await expect(client.getUploadState('AbCdEfGh12345678', 't')).rejects.toThrow(FerryProtocolError);
  });

  it('retries reads while the server is unreachable, and a POST only when the connection was refused', async () => {
    const reads = fakeFetch([netError('ECONNRESET'), new Response('', { status: 503 }), json(200, summary)]);
    const client = new FerryClient({ server: 'http://h:1', fetch: reads.fetch, retryForMs: 10_000 });
    await expect(client.getUploadState('AbCdEfGh12345678', 't')).resolves.toMatchObject({
      status: 'UPLOADING',
    });
    expect(reads.calls).toHaveLength(3);

    const refused = fakeFetch([netError('ECONNREFUSED'), json(200, summary)]);
    const c2 = new FerryClient({ server: 'http://h:1', fetch: refused.fetch, retryForMs: 10_000 });
    await expect(c2.completeTransfer('AbCdEfGh12345678', 't', [])).resolves.toBeTruthy();
    expect(refused.calls).toHaveLength(2);

    const reset = fakeFetch([netError('ECONNRESET'), json(200, summary)]);
    const c3 = new FerryClient({ server: 'http://h:1', fetch: reset.fetch, retryForMs: 10_000 });
    await expect(c3.completeTransfer('AbCdEfGh12345678', 't', [])).rejects.toThrow('fetch failed');
    expect(reset.calls).toHaveLength(1);
  });

  it('gives up after retryForMs', async () => {
    const { fetch, calls } = fakeFetch([
      netError('ECONNREFUSED'),
      netError('ECONNREFUSED'),
      json(200, summary),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch, retryForMs: 0 });
    await expect(client.getUploadState('AbCdEfGh12345678', 't')).rejects.toThrow('fetch failed');
    expect(calls).toHaveLength(1);
  });

  it('reads a refused password check as WRONG_PASSWORD, and 429 as RATE_LIMITED (spec §8)', async () => {
    const { fetch } = fakeFetch([new Response('nope', { status: 400 }), new Response('', { status: 429 })]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    const wrong = (await client
      .checkPassword('AbCdEfGh12345678', 'x')
      .catch((e: unknown) => e)) as FerryApiError;
    expect(wrong.codes).toEqual(['WRONG_PASSWORD']);
    const limited = (await client
      .checkPassword('AbCdEfGh12345678', 'x')
      .catch((e: unknown) => e)) as FerryApiError;
    expect(limited.codes).toEqual(['RATE_LIMITED']);
  });

  it("checks an S1 transfer's password with the personal link's secret, and without one otherwise", async () => {
    const { fetch, calls } = fakeFetch([json(200, { ok: true }), json(200, { ok: true })]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    await client.checkPassword('AbCdEfGh12345678', 'pw', 's3cr3t');
    await client.checkPassword('AbCdEfGh12345678', 'pw');
    expect(calls.map((c) => JSON.parse(String(c.init?.body)))).toEqual([
      { transferId: 'AbCdEfGh12345678', password: 'pw', userSecret: 's3cr3t' },
      { transferId: 'AbCdEfGh12345678', password: 'pw' },
    ]);
  });

  it('creates an S1 transfer with its recipients, sender and verification token', async () => {
    const { fetch, calls } = fakeFetch([
      json(201, {
        ...summary,
        type: 'S1',
        uploadToken: 'tok',
        uploadEndpoint: '/api/transfer/uploads',
        senderVerification: 'verified',
      }),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    const created = await client.createTransfer({
      type: 'S1',
      recipients: ['bob@example.com'],
      senderEmail: 'ann@example.com',
      senderVerificationToken: 'proof',
      expiryReminder: false,
      files: [{ name: 'a', size: 1 }],
    });
    expect(created.senderVerification).toBe('verified');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      type: 'S1',
      recipients: ['bob@example.com'],
      senderEmail: 'ann@example.com',
      senderVerificationToken: 'proof',
      expiryReminder: false,
      files: [{ name: 'a', size: 1 }],
    });
  });

  it('verifies the sender, asks for a new code and changes notifications with the upload token', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, {
        transfer: { ...summary, senderVerification: 'verified' },
        senderVerificationToken: 'proof',
        expiresAt: '2031-01-01T00:00:00Z',
      }),
      json(202, { sentTo: 'ann@example.com', retryAfterSeconds: 60 }),
      json(200, summary),
      json(200, { kind: 'expiryReminder', transferName: null }),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    const verified = await client.verifySender('AbCdEfGh12345678', 'tok', '123456');
    expect(verified.senderVerificationToken).toBe('proof');
    expect(verified.transfer.senderVerification).toBe('verified');
    await expect(client.resendSenderCode('AbCdEfGh12345678', 'tok')).resolves.toEqual({
      sentTo: 'ann@example.com',
      retryAfterSeconds: 60,
    });
    await client.updateNotifications('AbCdEfGh12345678', 'tok', { downloadConfirmation: false });
    await expect(client.unsubscribe('u/t')).resolves.toEqual({ kind: 'expiryReminder', transferName: null });
    expect(calls.map((c) => `${c.init?.method} ${c.url}`)).toEqual([
      'POST http://h:1/api/transfer/transfers/AbCdEfGh12345678/sender-verification',
      'POST http://h:1/api/transfer/transfers/AbCdEfGh12345678/sender-verification/resend',
      'PATCH http://h:1/api/transfer/transfers/AbCdEfGh12345678/notifications',
      'POST http://h:1/api/transfer/notifications/unsubscribe?token=u%2Ft',
    ]);
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({ code: '123456' });
    expect(calls[1]?.init?.body).toBeUndefined();
    expect(JSON.parse(String(calls[2]?.init?.body))).toEqual({ downloadConfirmation: false });
    for (const call of calls.slice(0, 3))
      expect(call.init?.headers).toMatchObject({ 'x-upload-token': 'tok' });
  });

  it('reports a wrong code and a rate limit with their codes and wait', async () => {
    const { fetch } = fakeFetch([
      json(403, {
        status: 403,
        error: 'Forbidden',
        message: 'Wrong code.',
        codes: ['WRONG_VERIFICATION_CODE'],
      }),
      json(
        429,
        {
          status: 429,
          error: 'Too Many Requests',
          message: 'Later.',
          codes: ['RATE_LIMITED'],
          details: { retryAfterSeconds: 42 },
        },
        { 'retry-after': '42' },
      ),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    const wrong = (await client
      .verifySender('AbCdEfGh12345678', 't', '000000')
      .catch((e) => e)) as FerryApiError;
    expect(wrong.has('WRONG_VERIFICATION_CODE')).toBe(true);
    const limited = (await client.resendSenderCode('AbCdEfGh12345678', 't').catch((e) => e)) as FerryApiError;
    expect(limited.retryAfterSeconds).toBe(42);
    expect(limited.details?.retryAfterSeconds).toBe(42);
  });

  it('passes userSecret and downloaderEmail to download calls', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, { url: '/b/1', fileName: 'a', size: 1, sha256: null, expiresAt: '2030-01-01T00:00:00Z' }),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    await client.getDownloadLink({
      transferId: 'AbCdEfGh12345678',
      userSecret: 's3',
      downloaderEmail: 'dan@example.com',
    });
    expect(calls[0]?.url).toBe(
      'http://h:1/api/transfer/downloads/link?transferId=AbCdEfGh12345678&userSecret=s3&downloaderEmail=dan%40example.com',
    );
  });

  it('resolves relative URLs from the server against it', () => {
    const client = new FerryClient({ server: 'https://h.example/base' });
    expect(client.resolve('/api/transfer/uploads')).toBe('https://h.example/api/transfer/uploads');
    expect(client.resolve('https://cdn.example/x')).toBe('https://cdn.example/x');
  });
});

describe('FerryClient accounts and sessions', () => {
  const authState = {
    user: { uid: 'u1', email: 'ann@example.com', displayName: null, locale: 'fr' },
    planType: 'PREMIUM',
    payingUser: true,
    managerId: null,
    lastLogin: null,
    currentSignInProvider: 'password',
    authorization: { managerId: null, permissions: [] },
    sessionExpireTimestamp: 1_900_000_000_000,
    chosenPlan: null,
  };
  const headersOf = (call: Call | undefined) => (call?.init?.headers ?? {}) as Record<string, string>;

  it('signs in, trades the id token for a 14-day session (header id-token, deviceId), then sends it as Bearer', async () => {
    const { fetch, calls } = fakeFetch([
      json(200, { idToken: 'a.b.c', expiresAt: '2030-01-01T00:00:00Z' }),
      json(200, { sessionCookie: 's.e.s', sessionExpireTimestamp: 1_900_000_000_000 }),
      json(200, authState),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch });
    const id = await client.signIn({ email: 'ann@example.com', password: 'correct horse' });
    expect(calls[0]?.url).toBe('http://h:1/api/auth/signin');
    expect(calls[0]?.init?.method).toBe('POST');
    expect(JSON.parse(String(calls[0]?.init?.body))).toEqual({
      email: 'ann@example.com',
      password: 'correct horse',
    });
    expect(headersOf(calls[0]).authorization).toBeUndefined();

    const uuid = '0b5e5c2a-3c1f-4d57-9a42-6f1a2b3c4d5e';
    const session = await client.sessionCookie(id.idToken, { deviceId: uuid });
    expect(calls[1]?.url).toBe(
      `http://h:1/api/auth/auth/session-cookie?expiresInMinutes=20160&deviceId=${uuid}`,
    );
    expect(calls[1]?.init?.method).toBe('GET');
    expect(headersOf(calls[1])['id-token']).toBe('a.b.c');

    client.credential = session.sessionCookie;
    await expect(client.me()).resolves.toMatchObject({ planType: 'PREMIUM', user: { uid: 'u1' } });
    expect(calls[2]?.url).toBe('http://h:1/api/auth/me');
    expect(headersOf(calls[2]).authorization).toBe('Bearer s.e.s');
  });

  it('signs out the current session or all of them, and reads the count', async () => {
    const { fetch, calls } = fakeFetch([json(200, { revoked: 1 }), json(200, { revoked: 3 }), json(200, {})]);
    const client = new FerryClient({ server: 'http://h:1', fetch, credential: 's.e.s' });
    await expect(client.signOut({ deviceId: 'd' })).resolves.toEqual({ revoked: 1 });
    expect(calls[0]?.url).toBe('http://h:1/api/auth/auth/sign-out?deviceId=d');
    await expect(client.signOut({ revokeAllSessions: true })).resolves.toEqual({ revoked: 3 });
    expect(calls[1]?.url).toBe('http://h:1/api/auth/auth/sign-out?revokeAllSessions=true');
    await expect(client.signOut()).rejects.toThrow(FerryProtocolError);
  });

  it('lists, creates and revokes API tokens (204 without a body), and checks each listed item', async () => {
    const info = {
      id: 't1',
      name: 'ci',
      prefix: 'fry_ab12',
      scopes: ['transfers:read'],
      createdAt: '2030-01-01T00:00:00Z',
      lastUsedAt: null,
    };
    const { fetch, calls } = fakeFetch([
      json(200, [info]),
      json(201, { ...info, token: 'fry_secret' }),
      new Response(null, { status: 204 }),
      json(200, [info, { id: 't2' }]),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch, credential: 's.e.s' });
    await expect(client.listTokens()).resolves.toEqual([info]);
    await expect(client.createToken('ci', ['transfers:read'])).resolves.toMatchObject({
      token: 'fry_secret',
    });
    expect(JSON.parse(String(calls[1]?.init?.body))).toEqual({ name: 'ci', scopes: ['transfers:read'] });
    await expect(client.revokeToken('t/1')).resolves.toBeUndefined();
    expect(calls[2]?.url).toBe('http://h:1/api/auth/tokens/t%2F1');
    expect(calls[2]?.init?.method).toBe('DELETE');
    await expect(client.listTokens()).rejects.toThrow(/unexpected answer from GET \/auth\/tokens \(1\.name/);
  });

  it('tells when the server refuses the credential it sent, and only then', async () => {
    const invalid = () =>
      json(401, { status: 401, error: 'Unauthorized', message: 'Ended.', codes: ['INVALID_TOKEN'] });
    const rejected: FerryApiError[] = [];
    const { fetch } = fakeFetch([invalid(), invalid(), invalid()]);
    const signedIn = new FerryClient({
      server: 'http://h:1',
      fetch,
      credential: 'old.ses.sion',
      onCredentialRejected: (e) => rejected.push(e),
    });
    await expect(signedIn.me()).rejects.toThrow('Ended.');
    expect(rejected).toHaveLength(1);
    // An id token refused at session-cookie is not the client's credential… unless it sent one.
    const anonymous = new FerryClient({
      server: 'http://h:1',
      fetch,
      onCredentialRejected: (e) => rejected.push(e),
    });
    await expect(anonymous.sessionCookie('x.y.z')).rejects.toThrow('Ended.');
    expect(rejected).toHaveLength(1);
    await expect(signedIn.sessionCookie('x.y.z')).rejects.toBeInstanceOf(FerryApiError);
    expect(rejected).toHaveLength(2);
  });

  it('sends no Authorization with tus uploads or blob downloads (they may go to another host)', async () => {
    const { fetch, calls } = fakeFetch([
      new Response('abc', { status: 200, headers: { 'content-length': '3' } }),
    ]);
    const client = new FerryClient({ server: 'http://h:1', fetch, credential: 's.e.s' });
    const dir = await mkdtemp(path.join(tmpdir(), 'ferry-client-'));
    try {
      await client.download({
        url: 'https://blobs.example/x',
        dest: path.join(dir, 'x'),
        size: 3,
        sha256: null,
      });
      expect(JSON.stringify(calls[0]?.init?.headers ?? {})).not.toContain('s.e.s');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
