import {
  CheckPasswordResponse,
  DownloadInfo,
  DownloadLinkResponse,
  type TransferCreateRequest,
  TransferCreateResponse,
  TransferSummary,
} from '@ferry/core';
import { apiRequest } from './api';

/** The calls of docs/api.md that the web app makes. */

export function createTransfer(request: TransferCreateRequest): Promise<TransferCreateResponse> {
  return apiRequest('/transfer/transfers', { method: 'POST', body: request, schema: TransferCreateResponse });
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
    schema: TransferSummary,
  });
}

export function getUploadState(transferId: string, uploadToken: string): Promise<TransferSummary> {
  return apiRequest(`/transfer/transfers/${encodeURIComponent(transferId)}/upload-state`, {
    headers: { 'X-Upload-Token': uploadToken },
    schema: TransferSummary,
  });
}

export interface DownloadAccess {
  transferId: string;
  password?: string;
}

export function getDownloadInfo(access: DownloadAccess, signal?: AbortSignal): Promise<DownloadInfo> {
  return apiRequest('/transfer/downloads/info', { query: { ...access }, schema: DownloadInfo, signal });
}

export function checkDownloadPassword(transferId: string, password: string): Promise<{ ok: true }> {
  return apiRequest('/transfer/downloads/check-password', {
    method: 'POST',
    body: { transferId, password },
    schema: CheckPasswordResponse,
  });
}

/**
 * A link for one file, or for the whole transfer as a ZIP when fileId is absent. The calls of one page visit
 * share a `browserCode`, so the server counts them together as one download (spec §3 download request).
 */
export function getDownloadLink(
  access: DownloadAccess & { fileId?: string; browserCode?: string; orderId?: string },
): Promise<DownloadLinkResponse> {
  return apiRequest('/transfer/downloads/link', { query: { ...access }, schema: DownloadLinkResponse });
}
