/** Spec §2: the inboxes pages live under /dashboard/admin/inboxes (and its subpaths). */
export const INBOXES_PATH = '/dashboard/admin/inboxes';

export const inboxPath = (inboxId: string) => `${INBOXES_PATH}/${encodeURIComponent(inboxId)}`;
export const widgetPagePath = (inboxId: string, widgetId: string | 'new') =>
  `${inboxPath(inboxId)}/widgets/${encodeURIComponent(widgetId)}`;
