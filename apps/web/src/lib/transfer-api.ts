import type {
  DownloadInfo,
  DownloadLinkResponse,
  Limits,
  SenderVerificationResendResponse,
  SenderVerificationResponse,
  ThumbnailLinksResponse,
  TransferCreateRequest,
  TransferCreateResponse,
  TransferSummary,
  UnsubscribeResponse,
} from '@ferry/core';
import { apiRequest } from './api';
import { lazySchema } from './schemas';

/** The calls of docs/api.md that the web app makes. */

export function createTransfer(request: TransferCreateRequest): Promise<TransferCreateResponse> {
  return apiRequest('/transfer/transfers', {
    method: 'POST',
    body: request,
    schema: lazySchema('TransferCreateResponse'),
  });
}

/**
 * GET /transfer/limits/{id} (spec §7): the limits of a paying account; `id` is the manager's id for a team
 * member, else the user's uid (spec §4).
 */
export function getLimits(id: string, signal?: AbortSignal): Promise<Limits> {
  return apiRequest(`/transfer/limits/${encodeURIComponent(id)}`, { schema: lazySchema('Limits'), signal });
}

export interface CompletedFile {
  id: string;
  sha256?: string;
}

export function completeTransfer(
  transferId: string,
  uploadToken: string,
  files: CompletedFile[],
): Promise<TransferSummary> {
  return apiRequest(`/transfer/transfers/${encodeURIComponent(transferId)}/complete`, {
    method: 'POST',
    headers: { 'X-Upload-Token': uploadToken },
    body: { files },
    schema: lazySchema('TransferSummary'),
  });
}

export function getUploadState(transferId: string, uploadToken: string): Promise<TransferSummary> {
  return apiRequest(`/transfer/transfers/${encodeURIComponent(transferId)}/upload-state`, {
    headers: { 'X-Upload-Token': uploadToken },
    schema: lazySchema('TransferSummary'),
  });
}

/** Proves the sender's e-mail address with the 6-digit code mailed to it (S1, or S2 with notifications). */
export function verifySender(
  transferId: string,
  uploadToken: string,
  code: string,
): Promise<SenderVerificationResponse> {
  return apiRequest(`/transfer/transfers/${encodeURIComponent(transferId)}/sender-verification`, {
    method: 'POST',
    headers: { 'X-Upload-Token': uploadToken },
    body: { code },
    schema: lazySchema('SenderVerificationResponse'),
  });
}

/** Mails a new code (the old one stops working); 429 RATE_LIMITED with Retry-After when asked too soon. */
export function resendSenderCode(
  transferId: string,
  uploadToken: string,
): Promise<SenderVerificationResendResponse> {
  return apiRequest(`/transfer/transfers/${encodeURIComponent(transferId)}/sender-verification/resend`, {
    method: 'POST',
    headers: { 'X-Upload-Token': uploadToken },
    schema: lazySchema('SenderVerificationResendResponse'),
  });
}

/** Turns off what a notification mail's "Turn off these e-mails" link stands for (never done on GET alone). */
export function unsubscribe(token: string): Promise<UnsubscribeResponse> {
  return apiRequest('/transfer/notifications/unsubscribe', {
    method: 'POST',
    query: { token },
    schema: lazySchema('UnsubscribeResponse'),
  });
}

export interface DownloadAccess {
  transferId: string;
  password?: string;
  /** A recipient's personal secret from their link (`/dl/{id}?userSecret=…`). */
  userSecret?: string;
  /** A buyer's purchase token of a priced transfer (`/dl/{id}?purchase=…`, or kept by this browser). */
  purchaseToken?: string;
}

export function getDownloadInfo(access: DownloadAccess, signal?: AbortSignal): Promise<DownloadInfo> {
  return apiRequest('/transfer/downloads/info', {
    query: { ...access },
    schema: lazySchema('DownloadInfo'),
    signal,
  });
}

export function checkDownloadPassword(
  transferId: string,
  password: string,
  userSecret?: string,
): Promise<{ ok: true }> {
  return apiRequest('/transfer/downloads/check-password', {
    method: 'POST',
    // An S1 transfer's password is checked only with the personal link's secret (or for its owner).
    body: userSecret ? { transferId, password, userSecret } : { transferId, password },
    schema: lazySchema('CheckPasswordResponse'),
  });
}

/**
 * A link for one file, or for the whole transfer as a ZIP when fileId is absent. The calls of one page visit
 * share a `browserCode`, so the server counts them together as one download (spec §3 download request).
 */
export function getDownloadLink(
  access: DownloadAccess & {
    fileId?: string;
    browserCode?: string;
    orderId?: string;
    /** Required when the transfer's `downloaderEmailRequired` is set (else 401 DOWNLOADER_EMAIL_REQUIRED). */
    downloaderEmail?: string;
    /**
     * A download by the owner's team manager or a transfer manager from the dashboard (spec: admin-dashboard): not
     * against maxDownloads nor a recipient's, counted in the team's 7-day bytes, logged. Anyone else: ignored.
     */
    'admin-dashboard'?: boolean;
  },
): Promise<DownloadLinkResponse> {
  return apiRequest('/transfer/downloads/link', {
    query: { ...access },
    schema: lazySchema('DownloadLinkResponse'),
  });
}

/** Thumbnails of some files (spec §7 thumbnail-links); `pending` ones are asked again a little later. */
export function getThumbnailLinks(
  access: DownloadAccess,
  fileIds: string[],
  signal?: AbortSignal,
): Promise<ThumbnailLinksResponse> {
  return apiRequest('/transfer/downloads/thumbnail-links', {
    method: 'POST',
    query: { ...access },
    body: { fileIds, format: 'web' },
    schema: lazySchema('ThumbnailLinksResponse'),
    signal,
  });
}

/** An in-page preview of one file (link with preview=true): renditions, counted as a preview, not a download. */
export function getPreview(access: DownloadAccess, fileId: string): Promise<DownloadLinkResponse> {
  return apiRequest('/transfer/downloads/link', {
    query: { ...access, fileId, preview: true },
    schema: lazySchema('DownloadLinkResponse'),
  });
}
