import { bcp47Of, formatSize as coreFormatSize, formatSpeed as coreFormatSpeed } from '@ferry/core';

/**
 * The BCP 47 tag Intl needs for a language of the app: every formatter goes through it, so that the spec's
 * codes format right ('jp' as ja, 'kr' as ko, 'ccs' as cs, 'zh' as zh-Hans). Pass `i18n.language` to the
 * formatters below, or wrap it with this before calling Intl or toLocale* directly.
 */
export function intlLocale(locale: string): string {
  return bcp47Of(locale);
}

/**
 * A size in units of 1000 (spec §2) in the user's language: "1.50 GB", fr "1,50 Go", de "1,50 GB". Every size
 * the app shows goes through here, with `i18n.language`.
 */
export function formatSize(bytes: number, locale: string): string {
  return coreFormatSize(bytes, intlLocale(locale));
}

/** A speed in the user's language: "12.3 MB/s", fr "12,3 Mo/s", sizes in units of 1000 like every size (spec §2). */
export function formatSpeed(bytesPerSecond: number, locale: string): string {
  return coreFormatSpeed(bytesPerSecond, intlLocale(locale));
}

function unit(locale: string, value: number, name: 'hour' | 'minute' | 'second'): string {
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'unit',
    unit: name,
    unitDisplay: 'narrow',
  }).format(value);
}

/** A short duration in the user's language: "1h 5min", "2min 30s", "45s" (the exact form is Intl's). */
export function formatDuration(totalSeconds: number, locale: string): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (h > 0)
    return m > 0 ? `${unit(locale, h, 'hour')} ${unit(locale, m, 'minute')}` : unit(locale, h, 'hour');
  if (m > 0)
    return s > 0 && m < 10
      ? `${unit(locale, m, 'minute')} ${unit(locale, s, 'second')}`
      : unit(locale, m, 'minute');
  return unit(locale, s, 'second');
}

/**
 * A wait as people say it, rounded to its largest unit, to follow "about": 45 s → "45 seconds", 892 s →
 * "15 minutes" (minutes rounded up, so the wait is never shorter than said), 5400 s → "2 hours" — in the user's
 * language ("15 minutes", "2 heures"). A lockout's Retry-After is shown this way, never as "892 seconds".
 */
export function formatWait(totalSeconds: number, locale: string): string {
  const seconds = Math.max(1, Math.ceil(Number.isFinite(totalSeconds) ? totalSeconds : 1));
  const minutes = Math.ceil(seconds / 60);
  const [value, name]: [number, 'second' | 'minute' | 'hour'] =
    seconds < 60
      ? [seconds, 'second']
      : minutes < 60
        ? [minutes, 'minute']
        : [Math.max(1, Math.round(seconds / 3600)), 'hour'];
  return new Intl.NumberFormat(intlLocale(locale), { style: 'unit', unit: name, unitDisplay: 'long' }).format(
    value,
  );
}

/** A date and time in the user's locale, e.g. "12 March 2025 at 14:03". */
export function formatDateTime(iso: string | Date, locale: string): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'long', timeStyle: 'short' }).format(date);
}

export function formatDate(iso: string | Date, locale: string): string {
  const date = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: 'long' }).format(date);
}

/** A whole percentage in the user's locale ("42%", "42 %"). */
export function formatPercent(percent: number, locale: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: 'percent', maximumFractionDigits: 0 }).format(
    percent / 100,
  );
}
