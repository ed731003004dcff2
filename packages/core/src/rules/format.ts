import { FILE_NAME_DISPLAY_LIMIT } from '../constants.js';

const UNITS = ['B', 'kB', 'MB', 'GB', 'TB'] as const;

function decimalsFor(value: number): number {
  if (value >= 100) return 0;
  if (value >= 10) return 1;
  return 2;
}

/**
 * Formats a byte count in units of 1000 (spec §2): 0 decimals at 100 or above, 1 at 10 or above, 2 below 10.
 * A value that rounds up to the next threshold is shown with that threshold's decimals ("100 kB", not "100.0 kB"),
 * and one that rounds to 1000 moves to the next unit.
 * Below 1 kB the count is shown as a whole number ("77 B", "0 B"): a fraction of a byte means nothing, so §2's
 * decimals apply from kB up (a deliberate exception, noted in docs/web.md).
 */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) bytes = 0;
  if (Math.round(bytes) < 1000) return `${Math.round(bytes)} B`;
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
    rounded = value / 1000;
    decimals = decimalsFor(rounded);
  }
  return `${rounded.toFixed(decimals)} ${UNITS[unit]}`;
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
