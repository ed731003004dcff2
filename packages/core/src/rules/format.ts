import { FILE_NAME_DISPLAY_LIMIT } from '../constants.js';
import { bcp47Of } from './locales.js';

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;
/** Intl's names of the same units (sanctioned single units of ECMA-402), in the same order. */
const INTL_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

function decimalsFor(value: number): number {
  if (value >= 100) return 0;
  if (value >= 10) return 1;
  return 2;
}

/** A size as §2 shows it: the value already rounded to `decimals`, and the index of its unit. */
interface ShownSize {
  value: number;
  decimals: number;
  unit: number;
}

function shownSize(bytes: number): ShownSize {
  if (!Number.isFinite(bytes) || bytes < 0) bytes = 0;
  if (Math.round(bytes) < 1000) return { value: Math.round(bytes), decimals: 0, unit: 0 };
  let unit = 0;
  let value = bytes;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit++;
  }
  let decimals = decimalsFor(value);
  let rounded = Number(value.toFixed(decimals));
  if (decimalsFor(rounded) !== decimals) {
    decimals = decimalsFor(rounded);
    rounded = Number(value.toFixed(decimals));
  }
  if (rounded >= 1000 && unit < UNITS.length - 1) {
    unit++;
    decimals = decimalsFor(value / 1000);
    rounded = Number((value / 1000).toFixed(decimals));
  }
  return { value: rounded, decimals, unit };
}

/**
 * Whether a locale is written with Intl's unit names. English keeps the spec's own symbols (B, kB, MB, GB, TB:
 * Intl's English says "77 byte"), and so does a tag Intl does not know or cannot parse.
 */
const localized = new Map<string, boolean>();
function isLocalized(tag: string): boolean {
  let known = localized.get(tag);
  if (known === undefined) {
    try {
      known =
        new Intl.Locale(tag).language !== 'en' && Intl.NumberFormat.supportedLocalesOf([tag]).length > 0;
    } catch {
      known = false;
    }
    localized.set(tag, known);
  }
  return known;
}

const formatters = new Map<string, Intl.NumberFormat>();
function sizeFormatter(tag: string, unit: number, decimals: number, perSecond: boolean): Intl.NumberFormat {
  const key = `${tag}|${unit}|${decimals}|${perSecond}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(tag, {
      style: 'unit',
      unit: perSecond ? `${INTL_UNITS[unit]}-per-second` : INTL_UNITS[unit],
      unitDisplay: 'short',
      minimumFractionDigits: decimals,
      maximumFractionDigits: decimals,
    });
    formatters.set(key, formatter);
  }
  return formatter;
}

function format(bytes: number, locale: string | undefined, perSecond: boolean): string {
  const { value, decimals, unit } = shownSize(bytes);
  const tag = locale === undefined ? null : bcp47Of(locale);
  if (tag && isLocalized(tag)) return sizeFormatter(tag, unit, decimals, perSecond).format(value);
  return `${value.toFixed(decimals)} ${UNITS[unit]}${perSecond ? '/s' : ''}`;
}

/**
 * Formats a byte count in units of 1000 (spec §2): 0 decimals at 100 or above, 1 at 10 or above, 2 below 10.
 * A value that rounds up to the next threshold is shown with that threshold's decimals ("100 kB", not "100.0 kB"),
 * and one that rounds to 1000 moves to the next unit.
 * Below 1 kB the count is shown as a whole number ("77 B", "0 B"): a fraction of a byte means nothing, so §2's
 * decimals apply from kB up (a deliberate exception, noted in docs/web.md).
 *
 * `locale` (a BCP 47 tag or a spec §9 code: 'jp' is read as ja) writes the number and the unit in that language
 * with Intl, the digits and unit still chosen by the rule above: fr "1,50 Go", de "1,50 GB", ru "12,3 МБ".
 * Without it, or in English, the spec's own form: "1.50 GB" (the CLI's output and the API's messages).
 */
export function formatSize(bytes: number, locale?: string): string {
  return format(bytes, locale, false);
}

/**
 * A rate as formatSize writes a size, per second: "12.3 MB/s"; in a language, Intl's own form of the rate
 * (fr "12,3 Mo/s", ja "12.3 MB/秒", ar "12.3 م.ب/ث").
 */
export function formatSpeed(bytesPerSecond: number, locale?: string): string {
  return format(bytesPerSecond, locale, true);
}

/**
 * Shortens a name for display (spec §2): above 24 characters the extension is kept and the stem is cut to
 * 21 minus the extension's length, followed by an ellipsis ("..."), so the result is 24 characters long.
 */
export function truncateFileName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= FILE_NAME_DISPLAY_LIMIT) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(name.slice(dot + 1)) : [];
  const stemLength = Math.max(0, 21 - ext.length);
  return `${chars.slice(0, stemLength).join('')}...${ext.join('')}`;
}
