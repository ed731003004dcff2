import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.js';

async function gauge(metrics: Metrics, kind: 'upload' | 'download'): Promise<number | undefined> {
  const metric = kind === 'upload' ? metrics.activeUploads : metrics.activeDownloads;
  return (await metric.get()).values[0]?.value;
}

describe('Metrics streams', () => {
  it('counts uploads and downloads streaming, per kind and together', async () => {
    const metrics = new Metrics();
    metrics.streamStarted('upload');
    metrics.streamStarted('download');
    metrics.streamStarted('download');
    expect(metrics.streamsInProgress).toBe(3);
    expect(await gauge(metrics, 'upload')).toBe(1);
    expect(await gauge(metrics, 'download')).toBe(2);
    metrics.streamEnded('download');
    metrics.streamEnded('upload');
    expect(metrics.streamsInProgress).toBe(1);
    expect(await gauge(metrics, 'upload')).toBe(0);
    expect(await gauge(metrics, 'download')).toBe(1);
  });
});
