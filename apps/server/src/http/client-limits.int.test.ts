import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestFerry, type TestFerry } from '../test/harness.js';

/**
 * Slow and greedy clients: a request body that stops arriving is dropped after BODY_IDLE_TIMEOUT_SECONDS while a
 * slow but moving one completes; a client holds at most MAX_CONNECTIONS_PER_CLIENT connections (or requests in
 * progress, behind a trusted proxy), and a proxy's own address is never capped.
 */
let direct: TestFerry;
let proxied: TestFerry;
const open: net.Socket[] = [];

beforeAll(async () => {
  [direct, proxied] = await Promise.all([
    startTestFerry({ env: { BODY_IDLE_TIMEOUT_SECONDS: '1', MAX_CONNECTIONS_PER_CLIENT: '3' } }),
    startTestFerry({ env: { TRUST_PROXY: '1', MAX_CONNECTIONS_PER_CLIENT: '2' } }),
  ]);
});
afterAll(async () => {
  for (const socket of open) socket.destroy();
  await Promise.all([direct?.close(), proxied?.close()]);
});

/** A raw connection from `from` (any 127.x.y.z address is this machine), with what the server has sent so far. */
async function connect(ferry: TestFerry, from = '127.0.0.1') {
  const { port } = new URL(ferry.baseUrl);
  const socket = net.connect({ host: '127.0.0.1', port: Number(port), localAddress: from });
  open.push(socket);
  let received = '';
  const waiters: Array<() => void> = [];
  const wake = () => {
    for (const w of waiters.splice(0)) w();
  };
  socket.on('data', (chunk) => {
    received += chunk.toString('latin1');
    wake();
  });
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  void closed.then(wake);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('error', reject);
  });
  /** Resolves once what was received matches, or the connection closed (check `received()` then). */
  const until = async (pattern: RegExp) => {
    while (!pattern.test(received) && !socket.destroyed)
      await new Promise<void>((resolve) => waiters.push(resolve));
  };
  return { socket, closed, until, received: () => received };
}

/** ferry_client_limit_hits_total{limit}: what operators see of these refusals. */
const hits = async (ferry: TestFerry, limit: 'body_idle' | 'connections') =>
  (await ferry.metrics.clientLimitHits.get()).values.find((v) => v.labels.limit === limit)?.value ?? 0;

const transferBody = JSON.stringify({ files: [{ name: 'a.txt', size: 1 }] });
const postHead = (length: number, extra = '') =>
  `POST /api/transfer/transfers HTTP/1.1\r\nHost: ferry.test\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n${extra}\r\n`;
const get = (path: string, extra = '') => `GET ${path} HTTP/1.1\r\nHost: ferry.test\r\n${extra}\r\n`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('request bodies', () => {
  it('closes a connection whose body stops arriving', async () => {
    const c = await connect(direct);
    c.socket.write(postHead(transferBody.length) + transferBody.slice(0, 10));
    await c.closed;
    expect(c.received()).toBe('');
    expect(await hits(direct, 'body_idle')).toBe(1);
  });

  it('lets a body that trickles a byte every 300 ms run past the idle timeout and complete', async () => {
    const c = await connect(direct);
    c.socket.write(postHead(transferBody.length));
    // Well over the 1 s idle timeout in all, never 1 s without a byte.
    for (const byte of transferBody.slice(0, 10)) {
      c.socket.write(byte);
      await sleep(300);
    }
    c.socket.write(transferBody.slice(10));
    await c.until(/\r\n\r\n\{.*\}/s);
    expect(c.received()).toMatch(/^HTTP\/1\.1 201 /);
    expect(await hits(direct, 'body_idle')).toBe(1);
  });
});

describe('connections per client', () => {
  it('refuses the connection over the cap from one address while another address still connects', async () => {
    for (let i = 0; i < 3; i++) {
      const c = await connect(direct, '127.0.0.2');
      c.socket.write(get('/api/health'));
      await c.until(/\r\n\r\n\{.*\}/s);
      expect(c.received()).toMatch(/^HTTP\/1\.1 200 /);
    }
    const refused = await connect(direct, '127.0.0.2');
    refused.socket.write(get('/api/health'));
    await refused.closed;
    expect(refused.received()).toBe('');
    expect(await hits(direct, 'connections')).toBe(1);

    const other = await connect(direct, '127.0.0.3');
    other.socket.write(get('/api/health'));
    await other.until(/\r\n\r\n\{.*\}/s);
    expect(other.received()).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('behind a proxy, counts each client by the requests it has in progress, and never the proxy itself', async () => {
    /** A request whose body never comes; resolves once the server has taken it in (100 Continue). */
    const stalled = async (forwardedFor?: string) => {
      const c = await connect(proxied);
      const xff = forwardedFor ? `X-Forwarded-For: ${forwardedFor}\r\n` : '';
      c.socket.write(postHead(transferBody.length, `Expect: 100-continue\r\n${xff}`));
      await c.until(/^HTTP\/1\.1 100 /);
      return c;
    };
    const health = async (forwardedFor?: string) => {
      const c = await connect(proxied);
      c.socket.write(get('/api/health', forwardedFor ? `X-Forwarded-For: ${forwardedFor}\r\n` : ''));
      await c.until(/\r\n\r\n\{.*\}/s);
      return c.received();
    };

    await stalled('198.51.100.1');
    await stalled('203.0.113.9, 198.51.100.1');
    const over = await health('198.51.100.1');
    expect(over).toMatch(/^HTTP\/1\.1 429 /);
    expect(over).toMatch(/\r\nretry-after: \d+\r\n/i);
    expect(await hits(proxied, 'connections')).toBe(1);
    expect(await health('198.51.100.2')).toMatch(/^HTTP\/1\.1 200 /);

    // The proxy's own requests (health checks, say) are not capped.
    await stalled();
    await stalled();
    expect(await health()).toMatch(/^HTTP\/1\.1 200 /);
  });
});
