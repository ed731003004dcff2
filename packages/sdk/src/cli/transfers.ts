import {
  formatSize,
  TRANSFER_LIST_DEFAULT_LIMIT,
  TRANSFER_LIST_MAX_LIMIT,
  type TransferDirection,
  type TransferListItem,
  type TransferListResponse,
  type TransferStatus,
  type TransferType,
} from '@ferry/core';
import { normalizeServerUrl, type TransferListParams } from '../client.js';
import type { CredentialContext } from './auth.js';
import type { CliIO } from './io.js';
import { dashboardError, signedInClient } from './signed-in.js';
import { formatTransferLines, formatTransferTable } from './transfer-format.js';

/** Options of `ferry transfers`. */
export interface TransfersOptions {
  server: string;
  json?: boolean;
  search?: string;
  type?: TransferType;
  status?: TransferStatus[];
  direction?: TransferDirection;
  /** At most this many transfers (following pages as needed). */
  limit?: number;
  /** Every transfer, page after page (the default with `json`). */
  all?: boolean;
  retryForMs: number;
}

/** What {@link collectTransfers} gathered. */
export interface CollectedTransfers {
  items: TransferListItem[];
  /** The first page's answer: how many match (`total`), the storage used. */
  first: TransferListResponse;
  /** More transfers match than were fetched. */
  more: boolean;
}

/**
 * Fetches up to `max` transfers (Infinity: all), following `nextCursor` from page to page, each page as large as
 * the server allows and no larger than what is still wanted.
 */
export async function collectTransfers(
  list: (params: TransferListParams) => Promise<TransferListResponse>,
  params: TransferListParams,
  max: number,
): Promise<CollectedTransfers> {
  const items: TransferListItem[] = [];
  let first: TransferListResponse | undefined;
  let cursor: string | undefined;
  for (;;) {
    const limit = Math.min(TRANSFER_LIST_MAX_LIMIT, max - items.length);
    const page = await list({ ...params, limit, ...(cursor ? { cursor } : {}) });
    first ??= page;
    items.push(...page.items.slice(0, max - items.length));
    if (!page.nextCursor) return { items, first, more: false };
    if (items.length >= max) return { items, first, more: true };
    cursor = page.nextCursor;
  }
}

/** `ferry transfers`: the signed-in user's transfers, as a table, tab-separated lines, or JSON. */
export async function runTransfers(
  options: TransfersOptions,
  io: CliIO,
  context: { credential?: CredentialContext },
): Promise<void> {
  const server = normalizeServerUrl(options.server);
  const client = await signedInClient(io, server, context, options.retryForMs);
  const max =
    options.limit ?? (options.all || options.json ? Number.POSITIVE_INFINITY : TRANSFER_LIST_DEFAULT_LIMIT);
  const params: TransferListParams = {
    q: options.search,
    type: options.type,
    status: options.status,
    direction: options.direction,
    withFiles: options.json === true ? true : undefined,
  };
  let found: CollectedTransfers;
  try {
    found = await collectTransfers((p) => client.listTransfers(p), params, max);
  } catch (error) {
    throw dashboardError(error, server);
  }
  const { items, first, more } = found;
  if (options.json) {
    io.stdout.write(`${JSON.stringify(items, null, 2)}\n`);
    return;
  }
  const terminal = (io.stdout as { isTTY?: boolean }).isTTY === true;
  if (terminal && items.length > 0) io.stdout.write(formatTransferTable(items));
  else io.stdout.write(formatTransferLines(items));
  if (more) {
    const total = `${first.total}${first.totalIsCapped ? '+' : ''}`;
    io.stderr.write(
      `Showing ${items.length} of ${total} transfers: --all lists every one, --limit N the first N\n`,
    );
  }
  if (terminal) {
    const filtered = [options.search, options.type, options.status, options.direction].some(
      (v) => v !== undefined,
    );
    if (items.length === 0)
      io.stderr.write(filtered ? 'No transfer matches.\n' : 'No transfers yet: ferry send makes one.\n');
    io.stderr.write(
      `Storage used: ${formatSize(first.storage.used)} of ${formatSize(first.storage.limit)}\n`,
    );
  }
}
