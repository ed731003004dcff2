import {
  type TransferCloneRequest,
  TransferDetail,
  type TransferFileInput,
  TransferFilesAddResponse,
  type TransferFilesComplete,
  type TransferFileUpdate,
  type TransferListQuery,
  TransferListResponse,
  type TransferUpdate,
} from '@ferry/core';
import { apiRequest } from './api';

/** The TanStack Query key shared by the transfer list and detail: every action invalidates both. */
export const TRANSFERS_QUERY_KEY = 'dashboard-transfers';

const base = (id: string) => `/transfer/transfers/${encodeURIComponent(id)}`;

/** GET /transfer/transfers: one page of the signed-in user's transfers. */
export function listTransfers(query: TransferListQuery, signal?: AbortSignal): Promise<TransferListResponse> {
  const { status, limit, withFiles, ...rest } = query;
  return apiRequest('/transfer/transfers', {
    query: {
      ...rest,
      limit: typeof limit === 'number' ? limit : undefined,
      withFiles: withFiles === undefined ? undefined : String(withFiles),
      status: Array.isArray(status) ? status.join(',') : status,
    },
    schema: TransferListResponse,
    signal,
  });
}

/** GET /transfer/transfers/{id}/detail: files, recipients with their timelines, the event history. */
export function getTransferDetail(id: string, signal?: AbortSignal): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/detail`, { schema: TransferDetail, signal });
}

export function updateTransfer(id: string, body: TransferUpdate): Promise<TransferDetail> {
  return apiRequest(base(id), { method: 'PATCH', body, schema: TransferDetail });
}

export function addRecipients(id: string, emails: string[]): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/recipients`, { method: 'POST', body: { emails }, schema: TransferDetail });
}

export function removeRecipient(id: string, email: string): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/recipients/${encodeURIComponent(email)}`, {
    method: 'DELETE',
    schema: TransferDetail,
  });
}

export function setTransferEnabled(id: string, enabled: boolean): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/${enabled ? 'enable' : 'disable'}`, {
    method: 'POST',
    schema: TransferDetail,
  });
}

export function deleteTransfer(id: string): Promise<unknown> {
  return apiRequest(base(id), { method: 'DELETE' });
}

export function renameFile(id: string, fileId: string, body: TransferFileUpdate): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/files/${encodeURIComponent(fileId)}`, {
    method: 'PATCH',
    body,
    schema: TransferDetail,
  });
}

export function deleteFile(id: string, fileId: string): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/files/${encodeURIComponent(fileId)}`, {
    method: 'DELETE',
    schema: TransferDetail,
  });
}

/** POST /transfer/transfers/{id}/clone: the new transfer (CLONING until its files are copied). */
export function cloneTransfer(id: string, body: TransferCloneRequest): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/clone`, { method: 'POST', body, schema: TransferDetail });
}

/** POST /transfer/transfers/{id}/files: ids, upload token and tus endpoint for the files to add. */
export function addFiles(id: string, files: TransferFileInput[]): Promise<TransferFilesAddResponse> {
  return apiRequest(`${base(id)}/files`, {
    method: 'POST',
    body: { files },
    schema: TransferFilesAddResponse,
  });
}

/** POST …/additions/{additionId}/complete: the uploaded files join the transfer. */
export function completeAddition(
  id: string,
  additionId: string,
  body: TransferFilesComplete,
): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/additions/${encodeURIComponent(additionId)}/complete`, {
    method: 'POST',
    body,
    schema: TransferDetail,
  });
}

/** DELETE …/additions/{additionId}: drops files being added, and their uploaded bytes. */
export function cancelAddition(id: string, additionId: string): Promise<TransferDetail> {
  return apiRequest(`${base(id)}/additions/${encodeURIComponent(additionId)}`, {
    method: 'DELETE',
    schema: TransferDetail,
  });
}
