import type { PlanType } from '@ferry/core';
import { AppError } from './app-error.js';

/** Whether an account on this plan may choose its transfers' link previews (spec §3: paid plans). */
export function mayChooseLinkPreview(userId: string | null, plan: PlanType): boolean {
  return userId !== null && plan !== 'NONE';
}

/** Refuses a link-preview choice (403) for an anonymous sender or an account without a paid plan. */
export function checkLinkPreviewAllowed(userId: string | null, plan: PlanType): void {
  if (!mayChooseLinkPreview(userId, plan))
    throw new AppError(
      'FORBIDDEN',
      'Choosing the link preview of a transfer needs a paid plan (Premium, Team or Enterprise).',
      { details: { field: 'openGraph' } },
    );
}
