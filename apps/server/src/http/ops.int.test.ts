import fs from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.js';
import { api, fetchBytes, randomFile, sendTransfer } from '../test/flows.js';
import { startTestFerry, TEST_REDIS_URL, type TestFerry } from '../test/harness.js';

function metricValue(text: string, name: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').pop()) : Number.NaN;
}

describe('operability', () => {
  let ferry: TestFerry;
  beforeAll(async () => {
    ferry = await startTestFerry({
      env: { REDIS_URL: TEST_REDIS_URL, METRICS_TOKEN: 'metrics-token-0123456789' },
    });
  });
  afterAll(async () => {
    await ferry?.close();
  });

  it('is alive at /api/health and ready at /api/ready once database, storage and Redis answer', async () => {
    expect((await api(ferry.baseUrl, '/api/health')).body).toMatchObject({ status: 'ok' });
    const ready = await api(ferry.baseUrl, '/api/ready');
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: 'ready', checks: { database: 'ok', storage: 'ok', redis: 'ok' } });
  });

  it('counts requests, upload and download bytes in Prometheus metrics behind its token', async () => {
    const data = randomFile(123_456);
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'm.bin', data }]);
    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
    );
    expect((await fetchBytes(link.body.url)).data.length).toBe(data.length);

    expect((await fetch(`${ferry.baseUrl}/metrics`)).status).toBe(401);
    const res = await fetch(`${ferry.baseUrl}/metrics`, {
      headers: { authorization: 'Bearer metrics-token-0123456789' },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(metricValue(text, 'ferry_upload_bytes_total')).toBe(data.length);
    expect(metricValue(text, 'ferry_download_bytes_total')).toBe(data.length);
    expect(metricValue(text, 'ferry_active_uploads')).toBe(0);
    expect(metricValue(text, 'ferry_active_downloads')).toBe(0);
    expect(text).toMatch(
      /ferry_http_requests_total\{method="POST",route="\/api\/transfer\/transfers",status="201"\} 1/,
    );
    expect(text).toContain('ferry_http_request_duration_seconds_bucket');
  });

  it('counts a download as streaming until its response closes, also when the client goes away', async () => {
    const metrics = async () =>
      (
        await fetch(`${ferry.baseUrl}/metrics`, {
          headers: { authorization: 'Bearer metrics-token-0123456789' },
        })
      ).text();
    const until = async (check: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await check()); i++) await new Promise((r) => setTimeout(r, 25));
      expect(await check()).toBe(true);
    };
    // Larger than the loopback socket buffers take, so the response waits for a reader that never reads.
    const data = randomFile(48 * 1024 * 1024);
    const t = await sendTransfer(ferry.baseUrl, [{ name: 'slow.bin', data }]);
    const link = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/link?transferId=${t.transferId}&fileId=${t.files[0]!.id}`,
    );
    const request = http.get(link.body.url);
    request.on('error', () => undefined); // destroyed below
    const response = await new Promise<http.IncomingMessage>((resolve) => request.once('response', resolve));
    response.pause();
    expect(response.statusCode).toBe(200);
    await until(async () => metricValue(await metrics(), 'ferry_active_downloads') === 1);
    expect(ferry.metrics.streamsInProgress).toBe(1);
    request.destroy();
    await until(async () => metricValue(await metrics(), 'ferry_active_downloads') === 0);
    expect(ferry.metrics.streamsInProgress).toBe(0);
  });
});

describe('metrics without METRICS_TOKEN', () => {
  it('are served on their own loopback listener, and not on the main port', async () => {
    const ferry = await startTestFerry({ env: { METRICS_PORT: '0' } });
    try {
      await api(ferry.baseUrl, '/api/health');
      const onMain = await api(ferry.baseUrl, '/metrics');
      expect(onMain.status).toBe(404);
      expect(onMain.body.codes).toEqual(['NOT_FOUND']);
      expect(String(onMain.body)).not.toContain('ferry_http_requests_total');

      const url = await ferry.listenMetrics();
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(new URL(url!).port).not.toBe(new URL(ferry.baseUrl).port);
      const res = await fetch(url!);
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(
        /ferry_http_requests_total\{method="GET",route="\/api\/health",status="200"\} 1/,
      );
      expect((await fetch(url!.replace('/metrics', '/api/health'))).status).toBe(404);
    } finally {
      await ferry.close();
    }
  });

  it('listens on 127.0.0.1:9464 unless told otherwise, and not at all with METRICS_PORT=off', () => {
    expect(loadConfig({}).metricsListener).toEqual({ host: '127.0.0.1', port: 9464 });
    expect(loadConfig({ METRICS_PORT: 'off' }).metricsListener).toBeNull();
    expect(loadConfig({ METRICS_HOST: '10.0.0.5', METRICS_PORT: '9100' }).metricsListener).toEqual({
      host: '10.0.0.5',
      port: 9100,
    });
  });
});

describe('readiness when a peer is down', () => {
  it('answers 503 naming the peer that does not answer', async () => {
    const ferry = await startTestFerry();
    try {
      await fs.rm(path.join(ferry.dataDir, 'files'), { recursive: true, force: true }); // the disk went away
      const ready = await api(ferry.baseUrl, '/api/ready');
      expect(ready.status).toBe(503);
      expect(ready.body).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', storage: 'unreachable' },
      });
    } finally {
      await ferry.close();
    }
  });
});
