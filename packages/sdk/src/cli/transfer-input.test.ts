import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CliError, ExitCode } from './exit-codes.js';
import {
  isoWithOffset,
  localDay,
  parseAvailableFrom,
  parseExpiryDay,
  parseStatusFilter,
  parseTransferRef,
  parseTypeFilter,
} from './transfer-input.js';

const ID = 'AbCdEfGh12345678';

describe('parseTransferRef', () => {
  it('takes a bare id', () => {
    expect(parseTransferRef(ID)).toEqual({ transferId: ID });
    expect(parseTransferRef(` ${ID}\n`)).toEqual({ transferId: ID });
  });

  it('takes a link, a file link and a personal link, with the server they point at', () => {
    expect(parseTransferRef(`https://ferry.example.com/dl/${ID}`)).toEqual({
      transferId: ID,
      server: 'https://ferry.example.com',
    });
    expect(parseTransferRef(`http://127.0.0.1:8080/base/dl/${ID}/x1Y2z3`)).toEqual({
      transferId: ID,
      server: 'http://127.0.0.1:8080/base',
    });
    expect(parseTransferRef(`https://f.example/dl/${ID}?userSecret=s3cr3t`).transferId).toBe(ID);
  });

  it('refuses anything else with exit 1 and says what it expects', () => {
    for (const bad of ['AbCdEfGh1234567', `${ID}9`, 'AbCdEfGh1234567!', `https://f.example/x/${ID}`, '']) {
      let thrown: unknown;
      try {
        parseTransferRef(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, bad).toBeInstanceOf(CliError);
      expect((thrown as CliError).exitCode).toBe(ExitCode.ERROR);
      expect((thrown as CliError).message).toContain('not a transfer id or link');
    }
  });
});

describe('expiry days (local time zone)', () => {
  const saved = process.env.TZ;
  beforeEach(() => {
    // A zone with a half-hour offset west of UTC (and no DST in January) shows any offset mistake.
    process.env.TZ = 'America/St_Johns';
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TZ;
    else process.env.TZ = saved;
  });

  it('is the end of the day in the local zone, written with its offset', () => {
    const end = parseExpiryDay('2030-01-31');
    expect(end.toISOString()).toBe('2030-02-01T03:29:59.999Z'); // 23:59:59.999 at UTC-03:30
    expect(isoWithOffset(end)).toBe('2030-01-31T23:59:59.999-03:30');
    expect(Date.parse(isoWithOffset(end))).toBe(end.getTime());
    expect(localDay(end)).toBe('2030-01-31');
  });

  it('writes a positive offset too', () => {
    process.env.TZ = 'Asia/Kolkata';
    const end = parseExpiryDay('2030-06-15');
    expect(isoWithOffset(end)).toBe('2030-06-15T23:59:59.999+05:30');
    expect(end.toISOString()).toBe('2030-06-15T18:29:59.999Z');
  });

  it('refuses malformed and impossible dates with exit 1', () => {
    for (const bad of [
      '2030-02-30',
      '2030-13-01',
      '2030-1-5',
      '31/01/2030',
      '2030-01-31T10:00',
      'tomorrow',
      '',
    ]) {
      expect(() => parseExpiryDay(bad), bad).toThrow(/not a date: .*YYYY-MM-DD/);
    }
    expect(parseExpiryDay('2028-02-29').getDate()).toBe(29); // a leap day is a day
  });

  it('reads --available-from the same way: a day is its start, a time that minute, local time', () => {
    expect(isoWithOffset(parseAvailableFrom('2030-01-31'))).toBe('2030-01-31T00:00:00.000-03:30');
    expect(isoWithOffset(parseAvailableFrom('2030-01-31T09:15'))).toBe('2030-01-31T09:15:00.000-03:30');
    expect(parseAvailableFrom('2030-01-31 09:15').toISOString()).toBe('2030-01-31T12:45:00.000Z');
    for (const bad of ['2030-02-30', '2030-01-31T24:00', '2030-01-31T09:60', '2030-01-31T9:00', 'soon'])
      expect(() => parseAvailableFrom(bad), bad).toThrow(/not a date: .*YYYY-MM-DDTHH:MM/);
  });
});

describe('filters', () => {
  it('reads statuses and spec §2 labels, any case, a label standing for each status shown with it', () => {
    expect(parseStatusFilter('enabled')).toEqual(['ENABLED']);
    expect(parseStatusFilter('DISABLED')).toEqual(['DISABLED']);
    expect(parseStatusFilter('pending')).toEqual(['MODERATING', 'PENDING']);
    expect(parseStatusFilter('deleted')).toEqual(['DELETED', 'RETAINED']);
    expect(parseStatusFilter('moderating')).toEqual(['MODERATING']);
    expect(parseStatusFilter('enabled, disabled')).toEqual(['ENABLED', 'DISABLED']);
    expect(() => parseStatusFilter('gone')).toThrow(/unknown status "gone"/);
    expect(() => parseStatusFilter(',')).toThrow(/expected a status/);
  });

  it('reads a type', () => {
    expect(parseTypeFilter('s1')).toBe('S1');
    expect(() => parseTypeFilter('S4')).toThrow('expected one of S1, S2, S3');
  });
});
