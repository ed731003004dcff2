import {
  CUSTOM_LINK_MAX_LENGTH,
  CUSTOM_LINK_MIN_LENGTH,
  FILE_ID_LENGTH,
  TRANSFER_ID_LENGTH,
} from '@ferry/core';

/**
 * A parsed download link: `{server}/dl/{transferId}` or `{server}/dl/{transferId}/{fileId}`, where the transfer
 * may be named by its custom link (`/dl/q3-report`): the download calls take either.
 */
export interface DownloadLink {
  /** Origin plus any base path in front of `/dl`, without a trailing slash: where the API lives. */
  server: string;
  transferId: string;
  /** Present when the link is for one file. */
  fileId?: string;
  /** The `userSecret` of a recipient's personal link (`/dl/{transferId}?userSecret=…`, S1). */
  userSecret?: string;
  /** The purchase token of a buyer's personal link (`/dl/{transferId}?purchase=…`, a priced transfer). */
  purchaseToken?: string;
}

const LINK_PATH = new RegExp(
  `^(.*?)/dl/([A-Za-z0-9]{${TRANSFER_ID_LENGTH}}|[A-Za-z0-9-]{${CUSTOM_LINK_MIN_LENGTH},${CUSTOM_LINK_MAX_LENGTH}})(?:/([A-Za-z0-9]{${FILE_ID_LENGTH}}))?/*$`,
);

/**
 * Parses a Ferry download link; throws a readable Error when it is not one. Of the query only `userSecret` (a
 * personal link) and `purchase` (a buyer's link) are kept; the fragment is ignored.
 */
export function parseDownloadLink(link: string): DownloadLink {
  let url: URL;
  try {
    url = new URL(link.trim());
  } catch {
    throw new Error(`not a download link (expected https://host/dl/<transferId>): ${link}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`not an http(s) download link: ${link}`);
  }
  const match = LINK_PATH.exec(url.pathname);
  if (!match)
    throw new Error(`not a download link (expected ${url.origin}/dl/<transferId>[/<fileId>]): ${link}`);
  const [, base = '', transferId = '', fileId] = match;
  const userSecret = url.searchParams.get('userSecret');
  const purchaseToken = url.searchParams.get('purchase');
  return {
    server: `${url.origin}${base}`,
    transferId,
    ...(fileId ? { fileId } : {}),
    ...(userSecret ? { userSecret } : {}),
    ...(purchaseToken ? { purchaseToken } : {}),
  };
}

/** The download link of a transfer (or of one of its files) on a server. */
export function formatDownloadLink(server: string, transferId: string, fileId?: string): string {
  return `${server.replace(/\/+$/, '')}/dl/${transferId}${fileId ? `/${fileId}` : ''}`;
}
