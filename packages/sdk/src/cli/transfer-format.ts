import {
  formatSize,
  type TransferDetail,
  type TransferEventView,
  type TransferListItem,
  truncateFileName,
} from '@ferry/core';
import { localDay, localTime } from './transfer-input.js';

/** How `ferry transfers` and `ferry transfer show` print what the server answered: pure text, no I/O. */

/**
 * Text from the server made safe to print: control characters (a terminal's escape sequences, tabs and line
 * breaks that would break a table or a tab-separated line) become `?`.
 */
export function printable(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '?');
}

function expiryCell(item: Pick<TransferListItem, 'expiresAt' | 'expired'>): string {
  const day = localDay(new Date(item.expiresAt));
  return item.expired ? `${day} (expired)` : day;
}

const COLUMNS = ['ID', 'TYPE', 'STATUS', 'NAME', 'SIZE', 'EXPIRES', 'DOWNLOADS'] as const;
/** Columns aligned to the right (numbers). */
const RIGHT = new Set<string>(['SIZE', 'DOWNLOADS']);

/**
 * The table shown on a terminal: a header, then one row per transfer — id, type, status label (spec §2), name
 * (shortened by the spec's rule), size (spec §2 format), expiry day (local), downloads ("-" for a transfer
 * received: those are the sender's business).
 */
export function formatTransferTable(items: readonly TransferListItem[]): string {
  const rows = items.map((t) => [
    t.id,
    t.type,
    t.statusLabel,
    t.name ? truncateFileName(printable(t.name)) : '-',
    formatSize(t.totalSize),
    expiryCell(t),
    t.downloadCount === null ? '-' : String(t.downloadCount),
  ]);
  const all = [[...COLUMNS] as string[], ...rows];
  const widths = COLUMNS.map((_, i) => Math.max(...all.map((r) => Array.from(r[i] ?? '').length)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => {
        const pad = ' '.repeat((widths[i] ?? 0) - Array.from(cell).length);
        return RIGHT.has(COLUMNS[i]!) ? pad + cell : cell + pad;
      })
      .join('  ')
      .trimEnd();
  return `${all.map(line).join('\n')}\n`;
}

/**
 * The lines printed when stdout is not a terminal, one per transfer, tab-separated, for scripts: id, type, status
 * label, size in bytes, expiry (ISO 8601, UTC), downloads ("-" for a transfer received), name (empty if none).
 */
export function formatTransferLines(items: readonly TransferListItem[]): string {
  return items
    .map(
      (t) =>
        `${[
          t.id,
          t.type,
          t.statusLabel,
          String(t.totalSize),
          t.expiresAt,
          t.downloadCount === null ? '-' : String(t.downloadCount),
          printable(t.name ?? ''),
        ].join('\t')}\n`,
    )
    .join('');
}

const DELIVERY: Record<string, string> = {
  waiting: 'waiting (goes out once the transfer does)',
  queued: 'queued',
  sent: 'delivered',
  failed: 'failed',
  rejected: 'rejected',
  in_doubt: 'may not have arrived',
};

/** One event's actor in words: you (the owner), another user by id, an address, or Ferry itself. */
function actorOf(event: TransferEventView, ownerId: string | null): string {
  const { kind, userId, email } = event.actor;
  if (kind === 'user') return userId && userId === ownerId ? 'you' : `user ${userId ?? '?'}`;
  if (kind === 'system') return 'Ferry';
  if (kind === 'anonymous') return 'anonymous sender';
  // An address typed on a receive page was never checked.
  if (kind === 'uploader') return `uploader ${printable(email ?? 'unknown')} (address not verified)`;
  return `${kind} ${printable(email ?? 'unknown')}`;
}

/** An event's data as `key=value` pairs (values as JSON) in key order, e.g. `from="Q1" to="Q2"`. */
function dataOf(data: Record<string, unknown>): string {
  return Object.entries(data)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([key, value]) => `${key}=${printable(JSON.stringify(value) ?? 'null')}`)
    .join(' ');
}

/**
 * `ferry transfer show`: the transfer, its files with their SHA-256, each recipient with their timeline, the
 * downloads made without a personal link, and the event history — times in the local time zone.
 */
export function formatTransferDetail(d: TransferDetail): string {
  const out: string[] = [];
  const at = (iso: string) => localTime(new Date(iso));
  const fileName = new Map(d.files.map((f) => [f.id, printable(f.relativePath ?? f.name)]));
  const filesOf = (ids: readonly string[] | undefined, archive: boolean | undefined) =>
    archive ? 'all files (ZIP)' : (ids ?? []).map((id) => fileName.get(id) ?? id).join(', ');
  out.push(`Transfer   ${d.transferId}${d.name ? `  "${printable(d.name)}"` : ''}`);
  out.push(`Link       ${printable(d.link)}`);
  out.push(
    `Type       ${d.type}${d.type === 'S1' ? ' (by e-mail)' : d.type === 'S2' ? ' (link)' : ' (request)'}`,
  );
  out.push(`Status     ${d.statusLabel}${d.expired ? ' (expired)' : ''}`);
  out.push(`Created    ${at(d.createdAt)}`);
  out.push(`Expires    ${at(d.expiresAt)}`);
  if (d.bytesDeletedAt) out.push(`Files gone ${at(d.bytesDeletedAt)} (deleted from storage)`);
  out.push(`Size       ${formatSize(d.totalSize)} in ${d.fileCount} file${d.fileCount === 1 ? '' : 's'}`);
  out.push(`Downloads  ${d.downloadCount}${d.maxDownloads === null ? '' : ` of at most ${d.maxDownloads}`}`);
  out.push(`Password   ${d.passwordProtected ? 'yes' : 'no'}`);
  out.push(`Preview    ${d.allowPreview ? 'allowed' : 'off'}`);
  if (d.senderEmail) out.push(`Sender     ${printable(d.senderEmail)}`);
  if (d.message) out.push(`Message    ${printable(d.message)}`);

  out.push('', `Files (${d.files.length})`);
  for (const f of d.files)
    out.push(
      `  ${f.id}  ${printable(f.relativePath ?? f.name)}  ${formatSize(f.size)}  sha256 ${f.sha256 ?? '(not uploaded yet)'}`,
    );

  if (d.recipients.length > 0) {
    out.push('', `Recipients (${d.recipients.length})`);
    for (const r of d.recipients) {
      const error = r.error ? `: ${printable(r.error)}` : '';
      out.push(`  ${printable(r.email)}  ${DELIVERY[r.delivery] ?? r.delivery}${error}`);
      for (const step of r.timeline) {
        const what =
          step.kind === 'downloaded'
            ? `downloaded ${filesOf(step.fileIds, step.archive)}${step.bytes === undefined ? '' : ` (${formatSize(step.bytes)})`}`
            : step.kind;
        out.push(`    ${at(step.at)}  ${what}`);
      }
    }
  }

  if (d.downloads.length > 0) {
    out.push('', `Downloads by link (${d.downloads.length}, newest first)`);
    for (const dl of d.downloads) {
      const bytes = dl.bytes === null ? '' : ` (${formatSize(dl.bytes)})`;
      const who = dl.downloaderEmail ? ` by ${printable(dl.downloaderEmail)}` : '';
      out.push(`  ${at(dl.at)}  ${filesOf(dl.fileIds, dl.archive)}${bytes}${who}`);
    }
  }

  out.push('', `History (${d.events.length})`);
  for (const e of d.events) {
    const data = dataOf(e.data);
    out.push(`  ${at(e.at)}  ${e.type}  by ${actorOf(e, d.ownerId)}${data ? `  ${data}` : ''}`);
  }
  return `${out.join('\n')}\n`;
}
