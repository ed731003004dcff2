import { describe, expect, it } from 'vitest';
import {
  addDays,
  capTemplateAvailability,
  defaultReceiveExpiry,
  defaultTransferExpiry,
  defaultTransferValidityDays,
} from './expiry.js';

const DAY = 86_400_000;
const NOW = new Date('2024-03-15T10:30:00.000Z');

describe('addDays', () => {
  it('adds whole days in milliseconds without mutating the input', () => {
    const before = NOW.getTime();
    expect(addDays(NOW, 3).getTime()).toBe(before + 3 * DAY);
    expect(addDays(NOW, 0).getTime()).toBe(before);
    expect(NOW.getTime()).toBe(before);
  });
});

describe('defaultTransferExpiry (spec §5: now + min(validity, 21) days)', () => {
  it.each([
    [7, 7], // plan NONE
    [10, 10],
    [20, 20],
    [21, 21],
    [22, 21],
    [365, 21], // PREMIUM / TEAM / ENTERPRISE
  ])('validity limit %d days → %d days', (limit, days) => {
    expect(defaultTransferValidityDays(limit)).toBe(days);
    expect(defaultTransferExpiry(NOW, limit).toISOString()).toBe(
      new Date(NOW.getTime() + days * DAY).toISOString(),
    );
  });

  it('gives exact dates for the common plans', () => {
    expect(defaultTransferExpiry(NOW, 7).toISOString()).toBe('2024-03-22T10:30:00.000Z');
    expect(defaultTransferExpiry(NOW, 365).toISOString()).toBe('2024-04-05T10:30:00.000Z');
  });

  it('returns a new Date and leaves now untouched', () => {
    const now = new Date(NOW);
    const out = defaultTransferExpiry(now, 7);
    expect(out).not.toBe(now);
    expect(now.getTime()).toBe(NOW.getTime());
  });
});

describe('defaultReceiveExpiry (spec §5: 21 days paying, 7 others)', () => {
  it('gives paying users 21 days', () => {
    expect(defaultReceiveExpiry(NOW, true).getTime()).toBe(NOW.getTime() + 21 * DAY);
    expect(defaultReceiveExpiry(NOW, true).toISOString()).toBe('2024-04-05T10:30:00.000Z');
  });

  it('gives free users 7 days', () => {
    expect(defaultReceiveExpiry(NOW, false).getTime()).toBe(NOW.getTime() + 7 * DAY);
    expect(defaultReceiveExpiry(NOW, false).toISOString()).toBe('2024-03-22T10:30:00.000Z');
  });
});

describe('capTemplateAvailability (spec §5: capped at the validity limit)', () => {
  it('caps an availability above the limit', () => {
    expect(capTemplateAvailability(30, 7)).toBe(7);
    expect(capTemplateAvailability(365, 21)).toBe(21);
  });

  it('keeps an availability at or below the limit', () => {
    expect(capTemplateAvailability(7, 7)).toBe(7);
    expect(capTemplateAvailability(3, 7)).toBe(3);
    expect(capTemplateAvailability(30, 365)).toBe(30);
  });
});
