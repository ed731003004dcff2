// Ferry's upload and download flow (docs/api.md) on top of the shared bench HTTP client.
import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { download, request, uploadRange } from './http-client.mjs';
import { now } from './util.mjs';

const b64 = (value) => Buffer.from(value, 'utf8').toString('base64');

/** @param {string} what @param {{ status: number, body: string }} res @param {number} want */
function expectStatus(what, res, want) {
  if (res.status !== want)
    throw new Error(`${what}: HTTP ${res.status} (expected ${want}): ${res.body.slice(0, 500)}`);
}

/**
 * The JSON calls below go through the shared `jsonAgent` (16 sockets) unless given an `agent`: a load with hundreds
 * of concurrent clients brings its own, with a socket for each.
 * @typedef {{ agent?: import('node:http').Agent }} CallOptions
 */

/**
 * POST /api/transfer/transfers
 * @param {string} baseUrl
 * @param {Array<{ name: string, size: number }>} files
 * @param {Record<string, unknown>} [extra] more fields of the body
 * @param {CallOptions} [options]
 * @returns {Promise<{ transferId: string, uploadToken: string, uploadEndpoint: string, files: Array<{ id: string, name: string, size: number }> }>}
 */
export async function createTransfer(baseUrl, files, extra = {}, { agent } = {}) {
  const res = await request(`${baseUrl}/api/transfer/transfers`, {
    agent,
    method: 'POST',
    json: { ...extra, files },
  });
  expectStatus('create transfer', res, 201);
  return res.json;
}

/**
 * tus creation: POST <uploadEndpoint>; returns the absolute upload URL.
 * @param {string} baseUrl
 * @param {{ transferId: string, uploadToken: string, uploadEndpoint: string }} transfer
 * @param {string} fileId
 * @param {number} size
 * @param {CallOptions} [options]
 */
export async function tusCreate(baseUrl, transfer, fileId, size, { agent } = {}) {
  const endpoint = new URL(transfer.uploadEndpoint, baseUrl).toString();
  const res = await request(endpoint, {
    agent,
    method: 'POST',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Length': String(size),
      'Upload-Metadata': `transferId ${b64(transfer.transferId)},fileId ${b64(fileId)}`,
      'X-Upload-Token': transfer.uploadToken,
    },
  });
  expectStatus('tus create', res, 201);
  const location = res.headers.location;
  if (!location) throw new Error('tus create: no Location header');
  return new URL(location, `${endpoint}/`).toString();
}

/**
 * One tus PATCH carrying bytes [start, end] of `file` from offset 0; expects 204 and Upload-Sha256.
 * @param {string} uploadUrl
 * @param {string} uploadToken
 * @param {{ file: string, start: number, end: number }} range
 */
export async function tusPatch(uploadUrl, uploadToken, { file, start, end }) {
  const res = await uploadRange(uploadUrl, {
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
      'X-Upload-Token': uploadToken,
    },
    file,
    start,
    end,
  });
  expectStatus('tus PATCH', res, 204);
  const sha256 = res.headers['upload-sha256'];
  return { ms: res.ms, bytes: res.bytes, sha256: typeof sha256 === 'string' ? sha256 : null };
}

/**
 * One tus PATCH carrying `body` (a buffer in memory) from offset 0; answers the response as it came (the caller
 * checks the status and Upload-Sha256).
 * @param {string} uploadUrl
 * @param {string} uploadToken
 * @param {Buffer} body
 * @param {CallOptions} [options]
 */
export function tusPatchBuffer(uploadUrl, uploadToken, body, { agent } = {}) {
  return request(uploadUrl, {
    agent,
    method: 'PATCH',
    headers: {
      'Tus-Resumable': '1.0.0',
      'Upload-Offset': '0',
      'Content-Type': 'application/offset+octet-stream',
      'X-Upload-Token': uploadToken,
    },
    body,
  });
}

/**
 * POST /api/transfer/transfers/{id}/complete, passing the client's SHA-256 of each file so Ferry checks them too.
 * @param {string} baseUrl
 * @param {{ transferId: string, uploadToken: string }} transfer
 * @param {Array<{ id: string, sha256?: string }>} files
 * @param {CallOptions} [options]
 */
export async function completeTransfer(baseUrl, transfer, files, { agent } = {}) {
  const res = await request(`${baseUrl}/api/transfer/transfers/${transfer.transferId}/complete`, {
    agent,
    method: 'POST',
    headers: { 'X-Upload-Token': transfer.uploadToken },
    json: { files },
  });
  expectStatus('complete', res, 200);
  return res.json;
}

/**
 * GET /api/transfer/downloads/link; without fileId the link is the whole transfer as a ZIP.
 * @param {string} baseUrl
 * @param {string} transferId
 * @param {string} [fileId]
 * @param {CallOptions} [options]
 * @returns {Promise<{ url: string, size: number, sha256: string | null, fileName: string }>}
 */
export async function downloadLink(baseUrl, transferId, fileId, { agent } = {}) {
  const query = new URLSearchParams({ transferId, ...(fileId ? { fileId } : {}) });
  const res = await request(`${baseUrl}/api/transfer/downloads/link?${query}`, { agent });
  expectStatus('download link', res, 200);
  return res.json;
}

/**
 * A whole transfer: create, one tus upload per file (all PATCHes at once), complete. Every server-side SHA-256 is
 * checked against the source. Times: `patchMs` from the first PATCH byte to the last 204, `totalMs` end to end.
 * @param {string} baseUrl
 * @param {string} file the source file
 * @param {Array<{ name: string, start: number, end: number, size: number, sha256: string }>} parts
 */
export async function uploadTransfer(baseUrl, file, parts) {
  const t0 = now();
  const transfer = await createTransfer(
    baseUrl,
    parts.map((p) => ({ name: p.name, size: p.size })),
  );
  const urls = await Promise.all(
    parts.map((p, i) =>
      tusCreate(baseUrl, transfer, /** @type {{ id: string }} */ (transfer.files[i]).id, p.size),
    ),
  );
  const tPatch = now();
  const results = await Promise.all(
    parts.map((p, i) => tusPatch(/** @type {string} */ (urls[i]), transfer.uploadToken, { file, ...p })),
  );
  const patchMs = now() - tPatch;
  results.forEach((result, i) => {
    const part = parts[i];
    if (result.sha256 !== part?.sha256)
      throw new Error(`Ferry's Upload-Sha256 of ${part?.name} is ${result.sha256}, expected ${part?.sha256}`);
  });
  const files = transfer.files.map((f, i) => ({ id: f.id, sha256: parts[i]?.sha256 }));
  await completeTransfer(baseUrl, transfer, files);
  const totalMs = now() - t0;
  return {
    transferId: transfer.transferId,
    files: transfer.files,
    patchMs,
    totalMs,
    perPatchMs: results.map((r) => r.ms),
  };
}

/**
 * Bytes per tus PATCH of the web app (`TUS_CHUNK_BYTES` in apps/web/src/features/uploader/tus-transport.ts), read
 * from its source so the bench follows it.
 */
export function webTusChunkBytes() {
  const source = fileURLToPath(
    new URL('../../apps/web/src/features/uploader/tus-transport.ts', import.meta.url),
  );
  const match = /export const TUS_CHUNK_BYTES = ([\d_ *]+);/.exec(readFileSync(source, 'utf8'));
  if (!match) throw new Error(`no TUS_CHUNK_BYTES = <number> [* <number>...] in ${source}`);
  const factors = (match[1] ?? '').split('*').map((f) => Number(f.trim().replaceAll('_', '')));
  const bytes = factors.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(bytes) || bytes <= 0)
    throw new Error(`TUS_CHUNK_BYTES in ${source}: ${match[1]}`);
  return bytes;
}

/**
 * An upload as the web app makes it: create the transfer, tus creation, then PATCHes of `chunkBytes` one after
 * the other over one keep-alive connection (tus-js-client's `chunkSize`), the client hashing the bytes as it sends
 * them and passing its SHA-256 at completion (the uploader's hasher). Checks every PATCH's new offset and Ferry's
 * Upload-Sha256 against the client's hash and the source's. `totalMs`: create to completion; `patchMs`: first PATCH
 * byte to the last 204; `gapsMs`: between one PATCH's 204 and the next PATCH (the client's turn-around).
 * @param {string} baseUrl
 * @param {string} file
 * @param {{ name: string, start: number, end: number, size: number, sha256: string }} part
 * @param {number} chunkBytes
 */
export async function uploadInChunks(baseUrl, file, part, chunkBytes) {
  const t0 = now();
  const transfer = await createTransfer(baseUrl, [{ name: part.name, size: part.size }]);
  const fileId = /** @type {{ id: string }} */ (transfer.files[0]).id;
  const url = await tusCreate(baseUrl, transfer, fileId, part.size);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const hash = createHash('sha256');
  /** @type {number[]} */
  const perPatchMs = [];
  /** @type {number[]} */
  const gapsMs = [];
  let serverSha256 = null;
  const tPatch = now();
  let lastEnd = tPatch;
  try {
    for (let offset = 0; offset < part.size; offset += chunkBytes) {
      const length = Math.min(chunkBytes, part.size - offset);
      const started = now();
      if (offset > 0) gapsMs.push(started - lastEnd);
      const res = await uploadRange(url, {
        method: 'PATCH',
        headers: {
          'Tus-Resumable': '1.0.0',
          'Upload-Offset': String(offset),
          'Content-Type': 'application/offset+octet-stream',
          'X-Upload-Token': transfer.uploadToken,
        },
        file,
        start: part.start + offset,
        end: part.start + offset + length - 1,
        hash,
        agent,
      });
      lastEnd = now();
      expectStatus(`tus PATCH at ${offset}`, res, 204);
      if (Number(res.headers['upload-offset']) !== offset + length)
        throw new Error(
          `tus PATCH at ${offset}: Upload-Offset ${res.headers['upload-offset']}, expected ${offset + length}`,
        );
      perPatchMs.push(res.ms);
      const sha = res.headers['upload-sha256'];
      if (typeof sha === 'string') serverSha256 = sha;
    }
  } finally {
    agent.destroy();
  }
  const patchMs = now() - tPatch;
  const clientSha256 = hash.digest('hex');
  if (clientSha256 !== part.sha256)
    throw new Error(`client hash of ${part.name} is ${clientSha256}, the source's ${part.sha256}`);
  if (serverSha256 !== part.sha256)
    throw new Error(`Ferry's Upload-Sha256 of ${part.name} is ${serverSha256}, expected ${part.sha256}`);
  await completeTransfer(baseUrl, transfer, [{ id: fileId, sha256: clientSha256 }]);
  return { transferId: transfer.transferId, fileId, totalMs: now() - t0, patchMs, perPatchMs, gapsMs };
}

/**
 * A download as the download page makes it: the page's info call, the link (with the page visit's browser code and
 * the order of the download in it), then the blob, which the client hashes. `ms`: from the info call to the last
 * byte; `apiMs`: the two API calls.
 * @param {string} baseUrl
 * @param {string} transferId
 * @param {string} fileId
 */
export async function downloadLikeWebApp(baseUrl, transferId, fileId) {
  const t0 = now();
  const info = await request(`${baseUrl}/api/transfer/downloads/info?transferId=${transferId}`);
  expectStatus('download info', info, 200);
  if (!info.json.files.some((/** @type {{ id: string }} */ f) => f.id === fileId))
    throw new Error(`download info lists no file ${fileId}`);
  const query = new URLSearchParams({ transferId, fileId, browserCode: randomUUID(), orderId: '1' });
  const link = await request(`${baseUrl}/api/transfer/downloads/link?${query}`);
  expectStatus('download link', link, 200);
  const apiMs = now() - t0;
  const res = await download(new URL(link.json.url, baseUrl).toString());
  return { ...res, ms: now() - t0, apiMs, link: link.json };
}
