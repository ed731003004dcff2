import { describe, expect, it } from 'vitest';
import { Metrics } from './metrics.js';

async function gauge(metrics: Metrics, name: string): Promise<number> {
  const text = await metrics.registry.metrics();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  if (!line) throw new Error(`no ${name} in the metrics`);
  return Number(line.split(' ')[1]);
}

describe('Metrics streams', () => {
  it('counts uploads and downloads streaming, per kind and together', async () => {
    const metrics = new Metrics();
    metrics.streamStarted('upload');
    metrics.streamStarted('download');
    metrics.streamStarted('download');
    expect(metrics.streamsInProgress).toBe(3);
    expect(await gauge(metrics, 'ferry_active_uploads')).toBe(1);
    expect(await gauge(metrics, 'ferry_active_downloads')).toBe(2);
    metrics.streamEnded('download');
    metrics.streamEnded('upload');
    expect(metrics.streamsInProgress).toBe(1);
    expect(await gauge(metrics, 'ferry_active_uploads')).toBe(0);
    expect(await gauge(metrics, 'ferry_active_downloads')).toBe(1);
  });
});
