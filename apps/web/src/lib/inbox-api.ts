import {
  type InboxCreate,
  type InboxUpdate,
  InboxView,
  type WidgetCreate,
  WidgetListResponse,
  type WidgetUpdate,
  WidgetView,
} from '@ferry/core';
import { apiRequest } from './api';

/** Inboxes and their widgets, for their owner (docs/api.md "Receiving files (S3)"); the list is receive-api's. */
export { listInboxes } from './receive-api';

const inboxPath = (inboxId: string) => `/receive/inboxes/${encodeURIComponent(inboxId)}`;
const widgetPath = (widgetId: string) => `/receive/widgets/${encodeURIComponent(widgetId)}`;

export function getInbox(inboxId: string, signal?: AbortSignal): Promise<InboxView> {
  return apiRequest(inboxPath(inboxId), { schema: InboxView, signal });
}

export function createInbox(body: InboxCreate): Promise<InboxView> {
  return apiRequest('/receive/inboxes', { method: 'POST', body, schema: InboxView });
}

export function updateInbox(inboxId: string, body: InboxUpdate): Promise<InboxView> {
  return apiRequest(inboxPath(inboxId), { method: 'PATCH', body, schema: InboxView });
}

export function deleteInbox(inboxId: string): Promise<unknown> {
  return apiRequest(inboxPath(inboxId), { method: 'DELETE' });
}

export function listWidgets(inboxId: string, signal?: AbortSignal): Promise<WidgetListResponse> {
  return apiRequest(`${inboxPath(inboxId)}/widgets`, { schema: WidgetListResponse, signal });
}

export function createWidget(inboxId: string, body: WidgetCreate): Promise<WidgetView> {
  return apiRequest(`${inboxPath(inboxId)}/widgets`, { method: 'POST', body, schema: WidgetView });
}

export function getWidget(widgetId: string, signal?: AbortSignal): Promise<WidgetView> {
  return apiRequest(widgetPath(widgetId), { schema: WidgetView, signal });
}

export function updateWidget(widgetId: string, body: WidgetUpdate): Promise<WidgetView> {
  return apiRequest(widgetPath(widgetId), { method: 'PATCH', body, schema: WidgetView });
}

export function deleteWidget(widgetId: string): Promise<unknown> {
  return apiRequest(widgetPath(widgetId), { method: 'DELETE' });
}
