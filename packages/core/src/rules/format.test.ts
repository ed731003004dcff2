import { describe, expect, it } from 'vitest';
import { FILE_NAME_DISPLAY_LIMIT } from '../constants.js';
import { formatSize, formatSpeed, truncateFileName } from './format.js';
import { LOCALE_TABLE } from './locales.js';

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

// Intl's spaces: U+00A0 no-break space, U+202F narrow no-break space (French puts one before every unit).
const NBSP = '\u00a0';
const NNBSP = '\u202f';

describe('formatSize in a language (spec §2 digits, Intl’s words)', () => {
  it('keeps the spec’s own form in English, where Intl would say "77 byte"', () => {
    for (const bytes of [0, 77, 999, 1500, 99_960, 12.3e9, 1e12, 2e15]) {
      expect(formatSize(bytes, 'en')).toBe(formatSize(bytes));
      expect(formatSize(bytes, 'en-GB')).toBe(formatSize(bytes));
    }
    expect(formatSize(77, 'en')).toBe('77 B');
    expect(formatSize(2e15, 'en')).toBe('2000 TB');
  });

  it('falls back to the spec’s form for a tag Intl does not know or cannot read', () => {
    expect(formatSize(1.5e9, 'xx')).toBe('1.50 GB');
    expect(formatSize(1.5e9, 'not a tag')).toBe('1.50 GB');
    expect(formatSize(1.5e9, '')).toBe('1.50 GB');
  });

  it('writes French with a decimal comma and octets', () => {
    expect(formatSize(77, 'fr')).toBe(`77${NNBSP}o`);
    expect(formatSize(1500, 'fr')).toBe(`1,50${NNBSP}ko`);
    expect(formatSize(1024, 'fr')).toBe(`1,02${NNBSP}ko`);
    expect(formatSize(25e6, 'fr')).toBe(`25,0${NNBSP}Mo`);
    expect(formatSize(1.5e9, 'fr')).toBe(`1,50${NNBSP}Go`);
    expect(formatSize(420e12, 'fr')).toBe(`420${NNBSP}To`);
    expect(formatSize(2e15, 'fr')).toBe(`2${NNBSP}000${NNBSP}To`);
  });

  it('applies the rounding edges of §2 in a language too', () => {
    expect(formatSize(9_999, 'fr')).toBe(`10,0${NNBSP}ko`);
    expect(formatSize(99_960, 'fr')).toBe(`100${NNBSP}ko`);
    expect(formatSize(999_999, 'fr')).toBe(`1,00${NNBSP}Mo`);
    expect(formatSize(999.6, 'fr')).toBe(`1,00${NNBSP}ko`);
    expect(formatSize(9_994, 'de')).toBe('9,99 kB');
    expect(formatSize(-1, 'de')).toBe('0 Byte');
  });

  it('writes German with a decimal comma', () => {
    expect(formatSize(77, 'de')).toBe('77 Byte');
    expect(formatSize(1500, 'de')).toBe('1,50 kB');
    expect(formatSize(12.3e6, 'de')).toBe('12,3 MB');
    expect(formatSize(1.5e9, 'de')).toBe(`1,50${NBSP}GB`);
    expect(formatSize(5e12, 'de')).toBe('5,00 TB');
    expect(formatSize(2e15, 'de')).toBe('2.000 TB');
  });

  it('writes Arabic units in Arabic (with the digits Intl gives ar: Western ones)', () => {
    expect(formatSize(77, 'ar')).toBe('77 بايت');
    expect(formatSize(1500, 'ar')).toBe('1.50 كيلوبايت');
    expect(formatSize(12.3e6, 'ar')).toBe('12.3 م.ب');
    expect(formatSize(1.5e9, 'ar')).toBe('1.50 غ.ب');
    expect(formatSize(420e12, 'ar')).toBe('420 تيرابايت');
  });

  it('writes Persian with Persian digits and decimal separator', () => {
    expect(formatSize(77, 'fa')).toBe('۷۷ بایت');
    expect(formatSize(1.5e9, 'fa')).toBe('۱٫۵۰ GB');
  });

  it('reads the spec’s codes: jp as Japanese, zh as simplified Chinese', () => {
    expect(formatSize(1500, 'jp')).toBe('1.50 KB');
    expect(formatSize(1500, 'ja')).toBe('1.50 KB');
    expect(formatSize(77, 'jp')).toBe('77 byte');
    expect(formatSize(12.3e9, 'jp')).toBe('12.3 GB');
    expect(formatSize(77, 'zh')).toBe('77 B');
    expect(formatSize(1.5e9, 'zh')).toBe('1.50 GB');
    expect(formatSize(1.5e9, 'zh-Hans')).toBe('1.50 GB');
    expect(formatSize(1500, 'kr')).toBe('1.50kB');
    expect(formatSize(1500, 'ccs')).toBe('1,50 kB');
  });

  it('writes Hindi bytes in Devanagari', () => {
    expect(formatSize(77, 'hi')).toBe('77 बाइट');
    expect(formatSize(1500, 'hi')).toBe('1.50 kB');
    expect(formatSize(99.9e9, 'hi')).toBe('99.9 GB');
  });

  it('formats every unit in each of the 27 locales, with §2’s decimals in the locale’s digits', () => {
    expect(LOCALE_TABLE).toHaveLength(27);
    for (const { code, bcp47 } of LOCALE_TABLE) {
      const number = (n: number, digits: number) =>
        new Intl.NumberFormat(bcp47, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(
          n,
        );
      const shown = [77, 1500, 12.3e6, 1.5e9, 420e12].map((bytes) => formatSize(bytes, code));
      expect(new Set(shown).size, code).toBe(5);
      expect(shown[0], code).toContain(number(77, 0));
      expect(shown[1], code).toContain(number(1.5, 2));
      expect(shown[2], code).toContain(number(12.3, 1));
      expect(shown[3], code).toContain(number(1.5, 2));
      expect(shown[4], code).toContain(number(420, 0));
    }
  });
});

describe('formatSpeed', () => {
  it('is a size per second, in the spec’s form without a language or in English', () => {
    expect(formatSpeed(12_345_678)).toBe('12.3 MB/s');
    expect(formatSpeed(12_345_678, 'en')).toBe('12.3 MB/s');
    expect(formatSpeed(999_999)).toBe('1.00 MB/s');
    expect(formatSpeed(512)).toBe('512 B/s');
  });

  it('takes Intl’s form of the rate in a language', () => {
    expect(formatSpeed(12_345_678, 'fr')).toBe(`12,3${NNBSP}Mo/s`);
    expect(formatSpeed(1500, 'de')).toBe('1,50 kB/s');
    expect(formatSpeed(12_345_678, 'jp')).toBe('12.3 MB/秒');
    expect(formatSpeed(12_345_678, 'ar')).toBe('12.3 م.ب/ث');
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
