import type {
  InboxListResponse,
  ReceivedUploadView,
  ReceivePointPublic,
  ReceiveReceipt,
  ReceiveRequestCreate,
  ReceiveRequestView,
  ReceiveTarget,
  ReceiveUploadCreate,
  ReceiveUploadCreateResponse,
} from '@ferry/core';
import { apiRequest } from './api';
import { lazySchema } from './schemas';
import type { CompletedFile } from './transfer-api';

/** The receive calls of docs/api.md "Receiving files (S3)" that the web app makes. */

// --- file requests (signed in) ---

/** POST /receive/requests: a file request (S1 mails each asked person a personal link; S2 gives one link). */
export function createReceiveRequest(request: ReceiveRequestCreate): Promise<ReceiveRequestView> {
  return apiRequest('/receive/requests', {
    method: 'POST',
    body: request,
    schema: lazySchema('ReceiveRequestView'),
  });
}

/** GET /receive/requests/{id}: the owner's view, with each asked person's delivery. */
export function getReceiveRequest(requestId: string, signal?: AbortSignal): Promise<ReceiveRequestView> {
  return apiRequest(`/receive/requests/${encodeURIComponent(requestId)}`, {
    schema: lazySchema('ReceiveRequestView'),
    signal,
  });
}

/** GET /receive/inboxes: the signed-in user's inboxes and whether they may receive into inboxes. */
export function listInboxes(signal?: AbortSignal): Promise<InboxListResponse> {
  return apiRequest('/receive/inboxes', { schema: lazySchema('InboxListResponse'), signal });
}

/** GET /receive/received/{transferId}: who uploaded a received (S3) transfer, and their answers. */
export function getReceivedUpload(transferId: string, signal?: AbortSignal): Promise<ReceivedUploadView> {
  return apiRequest(`/receive/received/${encodeURIComponent(transferId)}`, {
    schema: lazySchema('ReceivedUploadView'),
    signal,
  });
}

// --- the public side (no account needed) ---

/** What an upload page shows: GET /receive/points/…, or /receive/push?to= for /push. */
export function getReceivePoint(target: ReceiveTarget, signal?: AbortSignal): Promise<ReceivePointPublic> {
  const options = { schema: lazySchema('ReceivePointPublic'), signal };
  switch (target.kind) {
    case 'request':
      return apiRequest(`/receive/points/request/${encodeURIComponent(target.requestId)}`, {
        ...options,
        query: { userSecret: target.userSecret },
      });
    case 'inbox':
      return apiRequest(`/receive/points/inbox/${encodeURIComponent(target.slug)}`, options);
    case 'widget':
      return apiRequest(`/receive/points/widget/${encodeURIComponent(target.widgetId)}`, options);
    case 'push':
      return apiRequest('/receive/push', { ...options, query: { to: target.to } });
  }
}

/** POST /receive/check-password: `{ ok: true }`, else 403 WRONG_PASSWORD or 429 RATE_LIMITED. */
export function checkReceivePassword(target: ReceiveTarget, password: string): Promise<{ ok: true }> {
  return apiRequest('/receive/check-password', {
    method: 'POST',
    body: { target, password },
    schema: lazySchema('CheckPasswordResponse'),
  });
}

/** POST /receive/uploads: the upload's transfer (type S3, the point owner's) and its upload token. */
export function createReceiveUpload(upload: ReceiveUploadCreate): Promise<ReceiveUploadCreateResponse> {
  return apiRequest('/receive/uploads', {
    method: 'POST',
    body: upload,
    schema: lazySchema('ReceiveUploadCreateResponse'),
  });
}

/** GET /receive/uploads/{id} (upload token): what arrived so far, to resume. */
export function getReceiveUpload(transferId: string, uploadToken: string): Promise<ReceiveReceipt> {
  return apiRequest(`/receive/uploads/${encodeURIComponent(transferId)}`, {
    headers: { 'X-Upload-Token': uploadToken },
    schema: lazySchema('ReceiveReceipt'),
  });
}

/** POST /receive/uploads/{id}/complete (upload token) with the client's SHA-256: the receipt. */
export function completeReceiveUpload(
  transferId: string,
  uploadToken: string,
  files: CompletedFile[],
): Promise<ReceiveReceipt> {
  return apiRequest(`/receive/uploads/${encodeURIComponent(transferId)}/complete`, {
    method: 'POST',
    headers: { 'X-Upload-Token': uploadToken },
    body: { files },
    schema: lazySchema('ReceiveReceipt'),
  });
}
