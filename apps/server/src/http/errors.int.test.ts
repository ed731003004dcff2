import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, fetchBytes, randomFile, sendTransfer } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';

/** Sends raw bytes and returns the raw answer, for requests no HTTP client would send. */
function raw(baseUrl: string, request: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.on('data', (c) => {
      answer += c;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

const jsonOf = (answer: string) => JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));

describe('every error in the spec §8 shape', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    ferry = await startTestFerry();
  });
  afterAll(async () => {
    await ferry?.close();
  });

  it('covers malformed URLs and over-long path parameters that Fastify refuses before any route', async () => {
    const bad = await raw(
      ferry.baseUrl,
      'GET /api/transfer/downloads/blob/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(bad).toMatch(/^HTTP\/1.1 400/);
    expect(jsonOf(bad)).toMatchObject({ status: 400, error: 'Bad Request', codes: ['VALIDATION_FAILED'] });
    const long = await api(ferry.baseUrl, `/api/transfer/downloads/blob/${'a'.repeat(3000)}`);
    expect([400, 414]).toContain(long.status);
    expect(long.body).toMatchObject({
      status: long.status,
      message: expect.stringContaining('max param length'),
    });
    expect(long.body.codes).toHaveLength(1);
  });

  it('answers headers that are too large with 431 and a JSON body', async () => {
    const answer = await raw(
      ferry.baseUrl,
      `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1.1 431/);
    expect(jsonOf(answer)).toMatchObject({ status: 431, codes: ['HEADERS_TOO_LARGE'] });
  });

  it('answers a body over the limit with 413 and a content type no route reads with 415, in their own codes', async () => {
    const tooLarge = await raw(
      ferry.baseUrl,
      'POST /api/transfer/transfers HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        `Content-Length: ${64 * 1024 * 1024}\r\nConnection: close\r\n\r\n{}`,
    );
    expect(tooLarge).toMatch(/^HTTP\/1.1 413/);
    expect(jsonOf(tooLarge)).toMatchObject({ status: 413, codes: ['PAYLOAD_TOO_LARGE'] });
    const res = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml' },
      body: '<transfer/>',
    });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ status: 415, codes: ['UNSUPPORTED_MEDIA_TYPE'] });
  });

  it('refuses tus concatenation as a client error, not a server error', async () => {
    const res = await api(ferry.baseUrl, '/api/transfer/uploads', {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Concat': 'partial', 'Upload-Length': '10' },
    });
    expect(res.status).toBe(400);
    expect(res.body.codes).toEqual(['VALIDATION_FAILED']);
  });

  it('explains an unsatisfiable range in JSON', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.bin', data: randomFile(100) }]);
    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
    );
    const res = await fetchBytes(link.body.url, { range: 'bytes=500-' });
    expect(res.status).toBe(416);
    expect(JSON.parse(res.data.toString())).toMatchObject({ status: 416, codes: ['RANGE_NOT_SATISFIABLE'] });
  });

  it('marks every API answer, errors included, not to be stored, and leaves downloaded blobs their own caching', async () => {
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'a.bin', data: randomFile(100) }]);
    const info = `/api/transfer/downloads/info?transferId=${t.transferId}`;
    const link = await api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${t.transferId}`);
    await query(ferry, `UPDATE transfers SET status = 'DISABLED' WHERE id = $1`, [t.transferId]);
    const disabled = await api(ferry.baseUrl, info);
    expect(disabled.status).toBe(410);
    const answers = [
      disabled,
      await api(ferry.baseUrl, '/api/health'),
      await api(ferry.baseUrl, '/api/transfer/downloads/info?transferId=AAAAAAAAAAAAAAAA'),
      await api(ferry.baseUrl, '/api/no/such/route'),
      await api(ferry.baseUrl, '/api/user/users/nobody'),
      await api(ferry.baseUrl, '/api/transfer/transfers', { method: 'POST', json: {} }),
      await api(ferry.baseUrl, '/api/transfer/uploads/nothing', {
        method: 'HEAD',
        headers: { 'Tus-Resumable': '1.0.0' },
      }),
      await fetchBytes(link.body.url),
    ];
    expect(answers.map((a) => [a.status, a.headers.get('cache-control')])).toEqual([
      [410, 'no-store'],
      [200, 'no-store'],
      [404, 'no-store'],
      [404, 'no-store'],
      [401, 'no-store'],
      [400, 'no-store'],
      [expect.any(Number), 'no-store'],
      [410, 'no-store'],
    ]);
    const malformed = await raw(
      ferry.baseUrl,
      'GET /api/transfer/downloads/blob/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(malformed).toMatch(/\r\ncache-control: no-store\r\n/i);

    await query(ferry, `UPDATE transfers SET status = 'ENABLED' WHERE id = $1`, [t.transferId]);
    expect((await api(ferry.baseUrl, info)).headers.get('cache-control')).toBe('no-store');
    const blob = await fetchBytes(link.body.url);
    expect(blob.status).toBe(200);
    expect(blob.headers.get('cache-control')).toBe('private, no-transform');
  });

  it('refuses NUL characters in stored text with 400 instead of failing in the database', async () => {
    const res = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { name: 'a\u0000b', files: [{ name: 'a.txt', size: 1 }] },
    });
    expect(res.status).toBe(400);
    expect(res.body.codes).toEqual(['VALIDATION_FAILED']);
  });

  it('refuses line breaks, control and bidirectional characters in a sender name', async () => {
    for (const senderName of [
      'Erin\nBCC: all@example.com',
      'Erin\rSmith',
      'Erin\tSmith',
      'Erin\u2028x',
      'Erin\u202Ex',
    ]) {
      const res = await api(ferry.baseUrl, '/api/transfer/transfers', {
        method: 'POST',
        json: { senderName, files: [{ name: 'a.txt', size: 1 }] },
      });
      expect(res.status, JSON.stringify(senderName)).toBe(400);
      expect(res.body.codes).toEqual(['VALIDATION_FAILED']);
    }
    const fine = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { senderName: '  Zoë O’Brien  ', files: [{ name: 'a.txt', size: 1 }] },
    });
    expect(fine.status).toBe(201);
  });
});
