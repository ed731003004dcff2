import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { api, randomFile, sendTransfer, sha256 } from '../test/flows.js';
import { startTestFerry } from '../test/harness.js';

describe('graceful shutdown', () => {
  it('lets an in-flight download finish, and is not held up by idle or aborted connections', async () => {
    const ferry = await startTestFerry();
    const data = randomFile(8_000_000);
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'big.bin', data }]);
    const link = (
      await api(
        ferry.baseUrl,
        `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
      )
    ).body;

    const aborted = new AbortController();
    const abortedResponse = await fetch(link.url, { signal: aborted.signal });
    await abortedResponse.body!.getReader().read();
    aborted.abort();
    const { port } = new URL(ferry.baseUrl);
    const idle = net.connect(Number(port), '127.0.0.1'); // opened and never used, like a browser's pre-connect
    idle.on('error', () => undefined);

    const inFlight = await fetch(link.url);
    const reader = inFlight.body!.getReader();
    const first = await reader.read();
    const closing = ferry.close();
    const chunks = [Buffer.from(first.value!)];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(Buffer.from(value));
    }
    const started = Date.now();
    await closing;
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(sha256(Buffer.concat(chunks))).toBe(sha256(data));
  });
});
