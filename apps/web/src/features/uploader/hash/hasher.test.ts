import { describe, expect, it } from 'vitest';
import type { HashRequest, HashResponse } from './hash-protocol';
import { createWorkerHasher } from './hasher';

/** A stand-in Worker that answers each job after the test says so. */
class FakeWorker extends EventTarget {
  static all: FakeWorker[] = [];
  requests: HashRequest[] = [];
  terminated = false;
  constructor() {
    super();
    FakeWorker.all.push(this);
  }
  postMessage(request: HashRequest) {
    this.requests.push(request);
  }
  terminate() {
    this.terminated = true;
  }
  answer(response: HashResponse) {
    this.dispatchEvent(new MessageEvent('message', { data: response }));
  }
}

describe('createWorkerHasher', () => {
  it('runs at most `size` jobs at once and reports progress', async () => {
    FakeWorker.all = [];
    const hasher = createWorkerHasher(2, () => new FakeWorker() as unknown as Worker);
    const progress: number[] = [];
    const results = [
      hasher.hash(new Blob(['a']), (n) => progress.push(n)),
      hasher.hash(new Blob(['b'])),
      hasher.hash(new Blob(['c'])),
    ];
    expect(FakeWorker.all).toHaveLength(2);
    const [w1, w2] = FakeWorker.all as [FakeWorker, FakeWorker];
    expect(w1.requests).toHaveLength(1);
    expect(w2.requests).toHaveLength(1);
    const firstJob = w1.requests[0]?.jobId ?? 0;
    w1.answer({ jobId: firstJob, type: 'progress', hashedBytes: 1 });
    w1.answer({ jobId: firstJob, type: 'done', sha256: 'aa' });
    // The freed worker takes the third job.
    expect(w1.requests).toHaveLength(2);
    w2.answer({ jobId: w2.requests[0]?.jobId ?? 0, type: 'error', message: 'read failed' });
    w1.answer({ jobId: w1.requests[1]?.jobId ?? 0, type: 'done', sha256: 'cc' });
    await expect(results[0]).resolves.toBe('aa');
    await expect(results[1]).rejects.toThrow('read failed');
    await expect(results[2]).resolves.toBe('cc');
    expect(progress).toEqual([1]);
    hasher.dispose();
    expect(FakeWorker.all.every((w) => w.terminated)).toBe(true);
  });

  it('rejects jobs when workers cannot be created', async () => {
    const hasher = createWorkerHasher(1, () => {
      throw new Error('blocked by CSP');
    });
    await expect(hasher.hash(new Blob(['a']))).rejects.toThrow('blocked by CSP');
  });
});
