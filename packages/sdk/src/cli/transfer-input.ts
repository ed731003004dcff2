import {
  TRANSFER_ID_LENGTH,
  TRANSFER_STATUSES,
  TRANSFER_TYPES,
  type TransferStatus,
  type TransferType,
  transferStatusLabel,
} from '@ferry/core';
import { InvalidArgumentError } from 'commander';
import { parseDownloadLink } from '../links.js';
import { CliError } from './exit-codes.js';

/** The pure parts of what `ferry transfers` and `ferry transfer …` read from the command line. */

/** A transfer named on the command line: its id, and the server of the link it was given as (if it was). */
export interface TransferRef {
  transferId: string;
  /** Set when a link was given: the server it points at. */
  server?: string;
}

const TRANSFER_ID = new RegExp(`^[A-Za-z0-9]{${TRANSFER_ID_LENGTH}}$`);

/** A transfer id (16 letters and digits) or a link to it (`https://host/dl/{id}`, a file's or a personal one). */
export function parseTransferRef(value: string): TransferRef {
  const trimmed = value.trim();
  if (TRANSFER_ID.test(trimmed)) return { transferId: trimmed };
  if (/^https?:\/\//i.test(trimmed)) {
    try {
      const link = parseDownloadLink(trimmed);
      // A custom link names a transfer for downloads only: the dashboard's commands take its id.
      if (TRANSFER_ID.test(link.transferId)) return { transferId: link.transferId, server: link.server };
    } catch {
      // said below, the same way for both kinds of mistake
    }
  }
  throw new CliError(
    `not a transfer id or link: ${value} (expected ${TRANSFER_ID_LENGTH} letters and digits, or https://host/dl/<id>)`,
  );
}

/**
 * A day (`YYYY-MM-DD`), or with `withTime` a day and a time (`YYYY-MM-DDTHH:MM`, a space works too), read in the
 * local time zone ($TZ). A bare day stands for its end (23:59:59.999) when `end`, else for its start (00:00). A
 * malformed or impossible date (2025-02-30, 24:00) is refused with `expected` in the message.
 */
export function parseLocalMoment(
  value: string,
  options: { end: boolean; withTime: boolean; expected: string },
): Date {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2}))?$/.exec(value.trim());
  const refuse = () => new CliError(`not a date: ${value} (expected ${options.expected})`);
  if (!match || (match[4] !== undefined && !options.withTime)) throw refuse();
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const timed = match[4] !== undefined;
  const [hours, minutes] = timed ? [Number(match[4]), Number(match[5])] : options.end ? [23, 59] : [0, 0];
  const at =
    timed || !options.end
      ? new Date(year, month - 1, day, hours, minutes, 0, 0)
      : new Date(year, month - 1, day, 23, 59, 59, 999);
  if (at.getFullYear() !== year || at.getMonth() !== month - 1 || at.getDate() !== day) throw refuse();
  if (timed && (hours > 23 || minutes > 59 || at.getHours() !== hours || at.getMinutes() !== minutes))
    throw refuse();
  return at;
}

/**
 * The instant `expire ID YYYY-MM-DD` stands for: the end of that day (23:59:59.999) in the local time zone
 * ($TZ), as an ISO date-time with its offset. A malformed or impossible date (2025-02-30) is refused.
 */
export function parseExpiryDay(value: string): Date {
  return parseLocalMoment(value, {
    end: true,
    withTime: false,
    expected: 'YYYY-MM-DD, e.g. 2030-01-31: the end of that day, local time',
  });
}

/**
 * The instant `send --available-from` stands for, read as `expire` reads its day: `YYYY-MM-DD` is the start of
 * that day, `YYYY-MM-DDTHH:MM` that minute, in the local time zone ($TZ).
 */
export function parseAvailableFrom(value: string): Date {
  return parseLocalMoment(value, {
    end: false,
    withTime: true,
    expected: 'YYYY-MM-DD or YYYY-MM-DDTHH:MM, e.g. 2030-01-31T09:00, local time',
  });
}

/** An instant as ISO 8601 with the local offset (`2030-01-31T23:59:59.999+01:00`), as the server accepts it. */
export function isoWithOffset(date: Date): string {
  const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');
  const offset = -date.getTimezoneOffset();
  const sign = offset >= 0 ? '+' : '-';
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}.${pad(date.getMilliseconds(), 3)}` +
    `${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`
  );
}

/** `YYYY-MM-DD` of an instant in the local time zone. */
export function localDay(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** `YYYY-MM-DD HH:MM` of an instant in the local time zone. */
export function localTime(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${localDay(date)} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/**
 * `--status`: statuses or their labels (spec §2), comma-separated, any case. A label stands for every status
 * shown with it: `pending` is PENDING and MODERATING, `deleted` is DELETED and RETAINED.
 */
export function parseStatusFilter(value: string): TransferStatus[] {
  const found = new Set<TransferStatus>();
  for (const word of value.split(',').map((w) => w.trim())) {
    if (word === '') continue;
    const matching = TRANSFER_STATUSES.filter(
      (s) => s === word.toUpperCase() || transferStatusLabel(s) === word.toLowerCase(),
    );
    if (matching.length === 0) {
      const labels = [...new Set(TRANSFER_STATUSES.map(transferStatusLabel))].join(', ');
      throw new InvalidArgumentError(
        `unknown status "${word}" (one of: ${labels}; or a status such as MODERATING).`,
      );
    }
    for (const s of matching) found.add(s);
  }
  if (found.size === 0) throw new InvalidArgumentError('expected a status, e.g. enabled.');
  return TRANSFER_STATUSES.filter((s) => found.has(s));
}

/** `--type`: S1, S2 or S3, any case. */
export function parseTypeFilter(value: string): TransferType {
  const type = TRANSFER_TYPES.find((t) => t === value.trim().toUpperCase());
  if (!type) throw new InvalidArgumentError(`expected one of ${TRANSFER_TYPES.join(', ')}.`);
  return type;
}
