import { describe, expect, it } from 'vitest';
import { FILE_NAME_DISPLAY_LIMIT } from '../constants.js';
import { formatSize, truncateFileName } from './format.js';

describe('formatSize (spec §2)', () => {
  it.each([
    [0, '0 B'],
    [1, '1 B'],
    [9, '9 B'],
    [10, '10 B'],
    [77, '77 B'],
    [99, '99 B'],
    [100, '100 B'],
    [999, '999 B'],
    [12.4, '12 B'],
    [999.6, '1.00 kB'],
  ])('bytes below 1000 are whole numbers (the exception to §2’s decimals): %d → %s', (bytes, expected) => {
    expect(formatSize(bytes)).toBe(expected);
  });

  it.each([
    [1000, '1.00 kB'],
    [1500, '1.50 kB'],
    [9_990, '9.99 kB'],
    [10_000, '10.0 kB'],
    [15_000, '15.0 kB'],
    [99_900, '99.9 kB'],
    [100_000, '100 kB'],
    [150_000, '150 kB'],
    [999_000, '999 kB'],
  ])('kilobytes use units of 1000, not 1024: %d → %s', (bytes, expected) => {
    expect(formatSize(bytes)).toBe(expected);
  });

  it('does not use 1024-based units', () => {
    expect(formatSize(1024)).toBe('1.02 kB');
    expect(formatSize(1_048_576)).toBe('1.05 MB');
  });

  it.each([
    [1e6, '1.00 MB'],
    [2_500_000, '2.50 MB'],
    [25e6, '25.0 MB'],
    [250e6, '250 MB'],
    [1e9, '1.00 GB'],
    [12.3e9, '12.3 GB'],
    [512e9, '512 GB'],
    [1e12, '1.00 TB'],
    [5e12, '5.00 TB'],
    [42e12, '42.0 TB'],
    [420e12, '420 TB'],
  ])('larger units MB, GB, TB: %d → %s', (bytes, expected) => {
    expect(formatSize(bytes)).toBe(expected);
  });

  it('stays in TB above 1000 TB (TB is the largest unit)', () => {
    expect(formatSize(2e15)).toBe('2000 TB');
  });

  it.each([
    [9_999, '10.0 kB'],
    [9_996, '10.0 kB'],
    [99_990, '100 kB'],
    [99_960, '100 kB'],
    [999_999, '1.00 MB'],
    [999_600, '1.00 MB'],
    [999_999_999, '1.00 GB'],
    [999_999_999_999, '1.00 TB'],
    [9.999e9, '10.0 GB'],
  ])('a value that rounds up to a threshold takes that threshold’s format: %d → %s', (bytes, expected) => {
    expect(formatSize(bytes)).toBe(expected);
  });

  it('values just under a rounding edge keep their own decimals', () => {
    expect(formatSize(9_994)).toBe('9.99 kB');
    expect(formatSize(99_940)).toBe('99.9 kB');
    expect(formatSize(999_400)).toBe('999 kB');
  });

  it('shows invalid input (negative, NaN, infinite) as zero', () => {
    expect(formatSize(-1)).toBe('0 B');
    expect(formatSize(Number.NaN)).toBe('0 B');
    expect(formatSize(Number.POSITIVE_INFINITY)).toBe('0 B');
  });
});

describe('truncateFileName (spec §2)', () => {
  it('leaves names of at most 24 characters unchanged', () => {
    expect(truncateFileName('')).toBe('');
    expect(truncateFileName('a.txt')).toBe('a.txt');
    const exactly24 = 'abcdefghijklmnopqrst.pdf';
    expect(exactly24).toHaveLength(24);
    expect(truncateFileName(exactly24)).toBe(exactly24);
  });

  it('truncates a 25-character name, keeping the extension', () => {
    const name = 'abcdefghijklmnopqrstu.pdf';
    expect(name).toHaveLength(25);
    // stem cut to 21 - 3 = 18 characters, then '...', then the extension
    expect(truncateFileName(name)).toBe('abcdefghijklmnopqr...pdf');
  });

  it('cuts the stem to 21 minus the extension length, for various extensions', () => {
    const stem = 'the_quarterly_financial_report_final_version';
    for (const ext of ['c', 'js', 'pdf', 'docx', 'xlsxx', 'tar_gz_x']) {
      const out = truncateFileName(`${stem}.${ext}`);
      expect(out).toBe(`${stem.slice(0, 21 - ext.length)}...${ext}`);
      expect(out).toHaveLength(FILE_NAME_DISPLAY_LIMIT);
      expect(out.endsWith(`...${ext}`)).toBe(true);
    }
  });

  it('uses only the last extension of a multi-dot name', () => {
    expect(truncateFileName('my_backup_archive_of_2024.tar.gz')).toBe('my_backup_archive_o...gz');
    expect(truncateFileName('my_backup_archive_of_2024.tar.gz')).toHaveLength(24);
  });

  it('truncates a name without extension to 21 characters plus the ellipsis', () => {
    const name = 'a_name_without_any_extension_at_all';
    expect(truncateFileName(name)).toBe('a_name_without_any_ex...');
    expect(truncateFileName(name)).toHaveLength(24);
  });

  it('treats a dotfile as a name without extension', () => {
    const name = '.bashrc_very_long_name_xxxxxxxx';
    expect(truncateFileName(name)).toBe('.bashrc_very_long_nam...');
    expect(truncateFileName(name)).toHaveLength(24);
  });

  it('counts multi-byte characters as characters, not bytes or UTF-16 units', () => {
    // 24 characters of 2 bytes each: unchanged
    const accented = `${'é'.repeat(20)}.pdf`;
    expect(Array.from(accented)).toHaveLength(24);
    expect(truncateFileName(accented)).toBe(accented);

    // 24 astral characters (2 UTF-16 units each, 48 code units): still only 24 characters
    const emoji = `${'😀'.repeat(20)}.png`;
    expect(emoji.length).toBe(44);
    expect(truncateFileName(emoji)).toBe(emoji);

    // 25 characters: truncated without splitting a surrogate pair
    const longEmoji = `${'😀'.repeat(21)}.png`;
    const out = truncateFileName(longEmoji);
    expect(out).toBe(`${'😀'.repeat(18)}...png`);
    expect(Array.from(out)).toHaveLength(24);
    expect(out.isWellFormed()).toBe(true);
  });

  it('keeps a multi-byte extension intact', () => {
    const out = truncateFileName('ein_sehr_langer_dateiname_für.größe');
    expect(out).toBe('ein_sehr_langer_...größe');
    expect(Array.from(out)).toHaveLength(24);
  });
});
