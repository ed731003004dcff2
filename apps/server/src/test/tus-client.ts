import { Readable } from 'node:stream';

/** Raw tus 1.0 calls, so tests control exactly which bytes reach the server and when. */
export class TusTestClient {
  constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  async create(
    transferId: string,
    fileId: string,
    size: number,
  ): Promise<{ status: number; location: string | null; body: string }> {
    const meta = `transferId ${b64(transferId)},fileId ${b64(fileId)},filename ${b64('x')}`;
    const res = await fetch(`${this.baseUrl}/api/transfer/uploads`, {
      method: 'POST',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Length': String(size),
        'Upload-Metadata': meta,
        'X-Upload-Token': this.token,
      },
    });
    const location = res.headers.get('location');
    return {
      status: res.status,
      location: location ? new URL(location, `${this.baseUrl}/api/transfer/uploads`).toString() : null,
      body: await res.text(),
    };
  }

  async offset(location: string): Promise<number> {
    const res = await fetch(location, {
      method: 'HEAD',
      headers: { 'Tus-Resumable': '1.0.0', 'X-Upload-Token': this.token },
    });
    if (res.status !== 200) throw new Error(`HEAD ${res.status}`);
    return Number(res.headers.get('upload-offset'));
  }

  async patch(location: string, offset: number, body: Buffer | Readable, token = this.token) {
    const res = await fetch(location, {
      method: 'PATCH',
      headers: {
        'Tus-Resumable': '1.0.0',
        'Upload-Offset': String(offset),
        'Content-Type': 'application/offset+octet-stream',
        'X-Upload-Token': token,
      },
      body: body instanceof Readable ? (Readable.toWeb(body) as ReadableStream) : body,
      duplex: 'half',
    } as RequestInit);
    return {
      status: res.status,
      offset: Number(res.headers.get('upload-offset')),
      sha256: res.headers.get('upload-sha256'),
      body: await res.text(),
    };
  }

  /** Creates and sends a whole file in one PATCH; returns the server's SHA-256. */
  async upload(transferId: string, fileId: string, data: Buffer): Promise<string> {
    const created = await this.create(transferId, fileId, data.length);
    if (created.status !== 201 || !created.location)
      throw new Error(`create ${created.status}: ${created.body}`);
    if (data.length === 0) return '';
    const done = await this.patch(created.location, 0, data);
    if (done.status !== 204) throw new Error(`patch ${done.status}: ${done.body}`);
    return done.sha256 ?? '';
  }
}

const b64 = (s: string) => Buffer.from(s).toString('base64');
