import { type TransferOpenGraph, TransferOpenGraphView } from '@ferry/core';
import { apiRequest } from './api';

const path = (id: string) => `/transfer/transfers/${encodeURIComponent(id)}/open-graph`;

/** GET /transfer/transfers/{id}/open-graph: the link preview chosen for the transfer's download page. */
export function getLinkPreview(id: string, signal?: AbortSignal): Promise<TransferOpenGraphView> {
  return apiRequest(path(id), { schema: TransferOpenGraphView, signal });
}

/** PUT …/open-graph: the owner's choice (empty fields: back to the defaults). */
export function saveLinkPreview(id: string, body: TransferOpenGraph): Promise<TransferOpenGraphView> {
  return apiRequest(path(id), { method: 'PUT', body, schema: TransferOpenGraphView });
}
