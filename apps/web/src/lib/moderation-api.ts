import type { ModerationDecision, TransferReportRequest } from '@ferry/core';
import { apiRequest } from './api';
import { lazySchema } from './schemas';

/** Abuse reports (anyone) and the operators' moderation queue (docs/api.md "Moderation"). */

export const reportTransfer = (body: TransferReportRequest) =>
  apiRequest('/transfer/reports', { method: 'POST', body, schema: lazySchema('TransferReportResponse') });

const moderation = (transferId: string) => `/operator/moderation/${encodeURIComponent(transferId)}`;

export const listModeration = (signal?: AbortSignal) =>
  apiRequest('/operator/moderation', { schema: lazySchema('ModerationQueue'), signal });

export const getModerationCase = (transferId: string, signal?: AbortSignal) =>
  apiRequest(moderation(transferId), { schema: lazySchema('ModerationCase'), signal });

export type ModerationAction = 'hold' | 'release' | 'retain' | 'dismiss';

export const decideModeration = (
  transferId: string,
  action: ModerationAction,
  body: ModerationDecision = {},
) =>
  apiRequest(`${moderation(transferId)}/${action}`, {
    method: 'POST',
    body,
    schema: lazySchema('ModerationCase'),
  });
