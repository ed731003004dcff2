import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatPercent, formatSpeed } from './format';

describe('formatDuration', () => {
  it('shows hours and minutes, minutes and seconds, or seconds', () => {
    expect(formatDuration(3 * 3600 + 5 * 60, 'en')).toBe('3h 5m');
    expect(formatDuration(150, 'en')).toBe('2m 30s');
    expect(formatDuration(45, 'en')).toBe('45s');
    // Beyond ten minutes, seconds are noise.
    expect(formatDuration(12 * 60 + 5, 'en')).toBe('12m');
    expect(formatDuration(-5, 'en')).toBe('0s');
  });
});

describe('other formats', () => {
  it('formats speeds in units of 1000, percentages and dates per locale', () => {
    expect(formatSpeed(12_345_678)).toBe('12.3 MB/s');
    expect(formatPercent(42, 'en')).toBe('42%');
    expect(formatPercent(42, 'fr')).toMatch(/^42\s%$/u);
    expect(formatDateTime('2030-03-12T14:03:00Z', 'en')).toContain('2030');
    expect(formatDateTime('not a date', 'en')).toBe('');
  });
});
