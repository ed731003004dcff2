import net from 'node:net';
import type { Readable } from 'node:stream';

/** Where clamd listens: a local (Unix) socket, or a TCP host and port. */
export type ClamdAddress = { socket: string } | { host: string; port: number };

/** What clamd said of one stream. */
export type ScanVerdict =
  | { result: 'clean' }
  | { result: 'infected'; signature: string }
  /** The stream passed clamd's StreamMaxLength: nothing is known about the file. */
  | { result: 'too-large' };

/** clamd could not be reached or answered something else than a verdict: the scan is to be tried again. */
export class ClamdUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ClamdUnavailableError';
  }
}

/** Reads clamd's one-line answer to INSTREAM (null-terminated with the z prefix). */
export function parseInstreamReply(reply: string): ScanVerdict {
  const line = reply.replace(/\0/g, '').trim();
  if (line === 'stream: OK') return { result: 'clean' };
  const found = /^stream: (.+) FOUND$/.exec(line);
  if (found?.[1]) return { result: 'infected', signature: found[1] };
  if (/INSTREAM size limit exceeded/i.test(line)) return { result: 'too-large' };
  throw new ClamdUnavailableError(`clamd answered: ${line || '(nothing)'}`);
}

/**
 * clamd's INSTREAM command over a socket: the bytes are sent in chunks (4-byte big-endian length, then the data;
 * a zero length ends), so files never need to be on clamd's disk. The stream is read with backpressure: never
 * more than one chunk is held here.
 */
export class ClamdClient {
  constructor(
    private readonly address: ClamdAddress,
    private readonly timeoutMs = 120_000,
  ) {}

  async ping(): Promise<void> {
    const reply = await this.command(async (conn) => {
      conn.end('zPING\0');
    });
    if (!reply.startsWith('PONG')) throw new ClamdUnavailableError(`clamd answered PING with: ${reply}`);
  }

  async scan(body: Readable): Promise<ScanVerdict> {
    const reply = await this.command(async (conn) => {
      await write(conn, Buffer.from('zINSTREAM\0'));
      for await (const chunk of body) {
        const data = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        if (data.length === 0) continue;
        const size = Buffer.alloc(4);
        size.writeUInt32BE(data.length);
        await write(conn, size);
        // clamd closes the connection once the limit is passed: its answer (already sent) is what counts.
        if (!(await write(conn, data))) return;
      }
      conn.end(Buffer.alloc(4));
    }, body);
    return parseInstreamReply(reply);
  }

  private command(send: (conn: net.Socket) => Promise<void>, body?: Readable): Promise<string> {
    return new Promise((resolve, reject) => {
      const conn =
        'socket' in this.address
          ? net.createConnection(this.address.socket)
          : net.createConnection(this.address.port, this.address.host);
      const chunks: Buffer[] = [];
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        conn.destroy();
        body?.destroy();
        reject(
          error instanceof ClamdUnavailableError
            ? error
            : new ClamdUnavailableError(`clamd: ${(error as Error)?.message ?? error}`, { cause: error }),
        );
      };
      conn.setTimeout(this.timeoutMs, () => fail(new Error('timed out')));
      conn.on('data', (d: Buffer) => chunks.push(d));
      let lastError: unknown = null;
      // A broken pipe while sending (clamd stops reading past its limit, then answers) is not yet a failure: what
      // clamd answered, if anything, is.
      conn.on('error', (err) => {
        lastError = err;
      });
      conn.on('close', () => {
        if (settled) return;
        const reply = Buffer.concat(chunks).toString('utf8');
        if (reply === '') return fail(lastError ?? new Error('closed the connection without an answer'));
        settled = true;
        body?.destroy();
        resolve(reply);
      });
      conn.on('connect', () => {
        send(conn).catch(fail);
      });
    });
  }
}

/** Writes with backpressure; false when the socket is no longer writable (clamd closed it). */
function write(conn: net.Socket, data: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    if (conn.destroyed || !conn.writable) return resolve(false);
    conn.write(data, (err) => resolve(!err));
  });
}
