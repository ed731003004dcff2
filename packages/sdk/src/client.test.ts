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

  it('resolves relative URLs from the server against it', () => {
    const client = new FerryClient({ server: 'https://h.example/base' });
    expect(client.resolve('/api/transfer/uploads')).toBe('https://h.example/api/transfer/uploads');
    expect(client.resolve('https://cdn.example/x')).toBe('https://cdn.example/x');
  });
});
