import {
  WebhookCreated,
  type WebhookCreateRequest,
  WebhookDelivery,
  WebhookDeliveryList,
  type WebhookInfo,
  WebhookList,
} from '@ferry/core';
import { apiRequest } from './api';

/** The account's webhooks (/dashboard/admin/api). */
export function listWebhooks(): Promise<WebhookInfo[]> {
  return apiRequest('/user/webhooks', { schema: WebhookList });
}

/** The secret is in this answer only: it is shown once. */
export function createWebhook(request: WebhookCreateRequest): Promise<WebhookCreated> {
  return apiRequest('/user/webhooks', { method: 'POST', body: request, schema: WebhookCreated });
}

export async function removeWebhook(id: string): Promise<void> {
  await apiRequest(`/user/webhooks/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function listDeliveries(id: string): Promise<WebhookDelivery[]> {
  return apiRequest(`/user/webhooks/${encodeURIComponent(id)}/deliveries`, { schema: WebhookDeliveryList });
}

export function replayDelivery(id: string): Promise<WebhookDelivery> {
  return apiRequest(`/user/webhooks/deliveries/${encodeURIComponent(id)}/replay`, {
    method: 'POST',
    schema: WebhookDelivery,
  });
}
