import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { api, randomFile, sendTransfer } from '../test/flows.js';
import { startTestFerry, type TestFerry } from '../test/harness.js';

/**
 * TRUST_PROXY names the proxies in front of Ferry; the client is the first address they did not write, counted
 * from the right of X-Forwarded-For. Whatever a client writes to the left of that is ignored by every rate limit.
 */
const RIGHT = 'correct horse battery staple';
let oneProxy: TestFerry;
let listed: TestFerry;

beforeAll(async () => {
  const env = { PASSWORD_ATTEMPTS_PER_WINDOW: '3' };
  [oneProxy, listed] = await Promise.all([
    startTestFerry({ env: { ...env, TRUST_PROXY: '1' } }),
    // The test's requests come from 127.0.0.1, which is not among these proxies.
    startTestFerry({ env: { ...env, TRUST_PROXY: '10.0.0.0/8, 192.0.2.1' } }),
  ]);
});
afterAll(async () => {
  await Promise.all([oneProxy?.close(), listed?.close()]);
});

const guess = (ferry: TestFerry, transferId: string, forwardedFor: string, password = 'wrong guess') =>
  api(ferry.baseUrl, '/api/transfer/downloads/check-password', {
    method: 'POST',
    headers: { 'x-forwarded-for': forwardedFor },
    json: { transferId, password },
  });

describe('the client address behind a proxy', () => {
  it('keys password guesses on the address the proxy appended, not on what the client wrote before it', async () => {
    const t = await sendTransfer(oneProxy.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      password: RIGHT,
    });
    // The proxy appends the real client (203.0.113.7); the client forges a new left-most entry each time.
    for (let i = 1; i <= 3; i++)
      expect((await guess(oneProxy, t.transferId, `1.2.3.${i}, 203.0.113.7`)).status, `guess ${i}`).toBe(403);
    const blocked = await guess(oneProxy, t.transferId, '1.2.3.4, 203.0.113.7');
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    // Another client behind the same proxy still has its own attempts.
    expect((await guess(oneProxy, t.transferId, '203.0.113.8')).status).toBe(403);
  });

  it('believes X-Forwarded-For only from a listed proxy', async () => {
    const t = await sendTransfer(listed.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      password: RIGHT,
    });
    // 127.0.0.1 is not listed: whatever it writes, the client is 127.0.0.1.
    for (let i = 1; i <= 3; i++)
      expect((await guess(listed, t.transferId, `198.51.100.${i}`)).status, `guess ${i}`).toBe(403);
    expect((await guess(listed, t.transferId, '198.51.100.99')).status).toBe(429);
  });
});

describe('TRUST_PROXY', () => {
  it('refuses "true" and says what to write instead', () => {
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(
      /TRUST_PROXY: "true" would trust every X-Forwarded-For entry.*TRUST_PROXY=1 behind one nginx.*TRUST_PROXY=127\.0\.0\.1/,
    );
  });

  it('takes a number of proxies, a list of addresses and subnets, or nothing', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toEqual({ hops: 2 });
    expect(loadConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,::1,loopback' }).trustProxy).toEqual({
      addresses: ['127.0.0.1', '10.0.0.0/8', '::1', 'loopback'],
    });
    expect(() => loadConfig({ TRUST_PROXY: 'nginx' })).toThrow(/TRUST_PROXY: "nginx" is not an IP address/);
  });
});
