import { formatSize, truncateFileName } from '@ferry/core';

function validTimeZone(timeZone: string | undefined): string {
  if (!timeZone) return 'UTC';
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return timeZone;
  } catch {
    return 'UTC';
  }
}

/** "15 March 2026 at 14:05 UTC": date and time with the zone named, as a mail has no clock to go by. */
export function formatMailDateTime(date: Date, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'long',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone: validTimeZone(timeZone),
  }).format(date);
}

/** "15 March 2026", for subjects. */
export function formatMailDate(date: Date, locale: string, timeZone?: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: validTimeZone(timeZone) }).format(
    date,
  );
}

export interface MailFile {
  name: string;
  /** Bytes. */
  size: number;
}

/** A mail lists this many files at most, then "and N more files": a transfer may hold thousands. */
export const MAIL_FILE_LIST_LIMIT = 20;

/**
 * File lines as shown (spec §2: names truncated above 24 characters, sizes in units of 1000), sizes written in
 * `locale` (the mail's, as for dates): "1.50 GB", "1,50 Go".
 */
export function fileLines(
  files: readonly MailFile[],
  locale: string,
): {
  shown: Array<{ name: string; size: string }>;
  more: number;
} {
  return {
    shown: files.slice(0, MAIL_FILE_LIST_LIMIT).map((f) => ({
      name: truncateFileName(f.name),
      size: formatSize(f.size, locale),
    })),
    more: Math.max(0, files.length - MAIL_FILE_LIST_LIMIT),
  };
}
