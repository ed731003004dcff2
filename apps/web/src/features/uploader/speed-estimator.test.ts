import { describe, expect, it } from 'vitest';
import { SpeedEstimator } from './speed-estimator';

describe('SpeedEstimator', () => {
  it('knows nothing before two samples', () => {
    const estimator = new SpeedEstimator();
    expect(estimator.bytesPerSecond()).toBeNull();
    estimator.sample(0, 0);
    expect(estimator.bytesPerSecond()).toBeNull();
    expect(estimator.secondsLeft(1000)).toBeNull();
  });

  it('converges on a steady rate and derives the time left from it', () => {
    const estimator = new SpeedEstimator();
    for (let s = 0; s <= 10; s++) estimator.sample(s * 2_000_000, s * 1000);
    expect(estimator.bytesPerSecond()).toBeCloseTo(2_000_000, -3);
    expect(estimator.secondsLeft(10_000_000)).toBeCloseTo(5, 1);
    expect(estimator.secondsLeft(0)).toBe(0);
  });

  it('smooths a single burst instead of jumping to it', () => {
    const estimator = new SpeedEstimator(3000);
    for (let s = 0; s <= 10; s++) estimator.sample(s * 1_000_000, s * 1000);
    // One second at 10 MB/s after a steady 1 MB/s: the estimate moves only part of the way.
    estimator.sample(10_000_000 + 10_000_000, 11_000);
    const rate = estimator.bytesPerSecond() ?? 0;
    expect(rate).toBeGreaterThan(1_000_000);
    expect(rate).toBeLessThan(5_000_000);
  });

  it('decays towards zero during a stall, and then has no time left to give', () => {
    const estimator = new SpeedEstimator(1000);
    for (let s = 0; s <= 5; s++) estimator.sample(s * 1_000_000, s * 1000);
    for (let s = 6; s <= 30; s++) estimator.sample(5_000_000, s * 1000);
    expect(estimator.bytesPerSecond() ?? 1).toBeLessThan(1);
    expect(estimator.secondsLeft(1_000_000)).toBeNull();
  });

  it('merges samples that come too close together', () => {
    const estimator = new SpeedEstimator(3000, 500);
    estimator.sample(0, 0);
    estimator.sample(1_000_000, 100);
    expect(estimator.bytesPerSecond()).toBeNull();
    estimator.sample(1_000_000, 1000);
    expect(estimator.bytesPerSecond()).toBeCloseTo(1_000_000, -2);
  });

  it('does not count a restart from an earlier offset as negative speed', () => {
    const estimator = new SpeedEstimator();
    estimator.sample(5_000_000, 0);
    estimator.sample(1_000_000, 1000);
    expect(estimator.bytesPerSecond()).toBe(0);
  });

  it('forgets history on reset', () => {
    const estimator = new SpeedEstimator();
    estimator.sample(0, 0);
    estimator.sample(1_000_000, 1000);
    estimator.reset();
    expect(estimator.bytesPerSecond()).toBeNull();
  });
});
