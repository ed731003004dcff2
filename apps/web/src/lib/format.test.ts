import { describe, expect, it } from 'vitest';
import { formatDateTime, formatDuration, formatPercent, formatSize, formatSpeed, formatWait } from './format';

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
    expect(formatSpeed(12_345_678, 'en')).toBe('12.3 MB/s');
    expect(formatSpeed(12_345_678, 'fr')).toBe('12,3\u202fMo/s');
    expect(formatPercent(42, 'en')).toBe('42%');
    expect(formatPercent(42, 'fr')).toMatch(/^42\s%$/u);
    expect(formatDateTime('2030-03-12T14:03:00Z', 'en')).toContain('2030');
    expect(formatDateTime('not a date', 'en')).toBe('');
  });
});

describe('formatSize (spec §2 in the page’s language)', () => {
  it('keeps the spec’s form in English and writes each language its own way', () => {
    expect(formatSize(77, 'en')).toBe('77 B');
    expect(formatSize(1_500_000_000, 'en')).toBe('1.50 GB');
    expect(formatSize(1_500_000_000, 'fr')).toBe('1,50\u202fGo');
    expect(formatSize(12_300_000, 'de')).toBe('12,3 MB');
  });

  it('reads the spec’s language codes (jp, kr, ccs) as their BCP 47 tags', () => {
    expect(formatSize(1500, 'jp')).toBe('1.50 KB');
    expect(formatSize(1500, 'kr')).toBe('1.50kB');
    expect(formatSize(1500, 'ccs')).toBe('1,50 kB');
  });
});

describe('formatWait (a lockout said in words)', () => {
  const words = (seconds: number, locale = 'en') => formatWait(seconds, locale).replace(/\s/g, ' ');
  it.each([
    [1, '1 second'],
    [45, '45 seconds'],
    [60, '1 minute'],
    [61, '2 minutes'],
    [892, '15 minutes'],
    [3599, '1 hour'],
    [5400, '2 hours'],
    [0, '1 second'],
  ])('%d s → about %s', (seconds, said) => {
    expect(words(seconds)).toBe(said);
  });

  it('speaks the user’s language', () => {
    expect(words(892, 'fr')).toBe('15 minutes');
    expect(words(7200, 'fr')).toBe('2 heures');
    expect(words(1, 'fr')).toBe('1 seconde');
  });
});
