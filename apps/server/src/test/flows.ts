import { createHash, randomBytes } from 'node:crypto';
import type { TransferCreateRequest, TransferCreateResponse } from '@ferry/core';
import yauzl from 'yauzl';
import { TusTestClient } from './tus-client.js';

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

export async function api(baseUrl: string, path: string, init: RequestInit & { json?: unknown } = {}) {
  const { json, ...rest } = init;
  const res = await fetch(`${baseUrl}${path}`, {
    ...rest,
    headers: {
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(rest.headers ?? {}),
    },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  const text = await res.text();
  // biome-ignore lint/suspicious/noExplicitAny: a test helper; each test reads the fields it expects of the body
  let body: any = null;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    body = text;
  }
  return { status: res.status, headers: res.headers, body };
}

export async function createTransfer(baseUrl: string, request: TransferCreateRequest) {
  const res = await api(baseUrl, '/api/transfer/transfers', { method: 'POST', json: request });
  if (res.status !== 201) throw new Error(`create ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body as TransferCreateResponse;
}

/** Creates, uploads and completes a transfer of the given files; returns it with its file ids. */
export async function sendTransfer(
  baseUrl: string,
  files: Array<{ name: string; data: Buffer; relativePath?: string }>,
  options: Partial<TransferCreateRequest> = {},
) {
  const created = await createTransfer(baseUrl, {
    ...options,
    files: files.map((f) => ({ name: f.name, size: f.data.length, relativePath: f.relativePath })),
  });
  const tus = new TusTestClient(baseUrl, created.uploadToken);
  for (const [i, f] of files.entries()) await tus.upload(created.transferId, created.files[i]!.id, f.data);
  const done = await api(baseUrl, `/api/transfer/transfers/${created.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { files: files.map((f, i) => ({ id: created.files[i]!.id, sha256: sha256(f.data) })) },
  });
  if (done.status !== 200) throw new Error(`complete ${done.status}: ${JSON.stringify(done.body)}`);
  return created;
}

export const randomFile = (size: number) => randomBytes(size);

export async function fetchBytes(url: string, headers: Record<string, string> = {}) {
  const res = await fetch(url, { headers });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

/** Every entry of a ZIP held in memory, by name (test archives are small). */
export async function readZip(data: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(data, { lazyEntries: true }, (err, z) => (err || !z ? reject(err) : resolve(z))),
  );
  const out = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', () => resolve());
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (err, stream) => {
        if (err || !stream) return reject(err);
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          out.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  return out;
}

/**
 * Registers an account, verifies it through the link mailed to it (caught by `waitForMail`) and opens a
 * session; returns the address, uid and the session token to send as `Authorization: Bearer …`.
 */
export async function signedInAccount(
  baseUrl: string,
  email: string,
  waitForMail: (to: string) => Promise<{ parsed: { text?: string | false } }>,
  password = 'correct horse battery',
) {
  const reg = await api(baseUrl, '/api/auth/register', { method: 'POST', json: { email, password } });
  if (reg.status !== 202) throw new Error(`register ${reg.status}: ${JSON.stringify(reg.body)}`);
  const mail = await waitForMail(email);
  const token = /\/verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.parsed.text || '')?.[1];
  const verified = await api(baseUrl, '/api/auth/verify-email', { method: 'POST', json: { token } });
  if (verified.status !== 200) throw new Error(`verify ${verified.status}: ${JSON.stringify(verified.body)}`);
  const session = await api(baseUrl, '/api/auth/auth/session-cookie', {
    headers: { 'id-token': verified.body.idToken },
  });
  if (session.status !== 200) throw new Error(`session ${session.status}: ${JSON.stringify(session.body)}`);
  const bearer = { authorization: `Bearer ${session.body.sessionCookie}` };
  const me = await api(baseUrl, '/api/auth/me', { headers: bearer });
  return { email, uid: me.body.user.uid as string, bearer };
}
