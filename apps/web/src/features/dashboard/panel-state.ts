import { normalizeMenuPath } from '@ferry/core';
import type { SlidePanelState } from '../../components/slide-panel';

function isAtOrUnder(path: string, base: string): boolean {
  return path === base || path.startsWith(`${base}/`);
}

/** Pages whose tables need the whole width: the transfer list and its detail, and the team's admin pages. */
const FULL_WIDTH = ['/dashboard/transfers', '/dashboard/admin'];

/**
 * The sliding panel's state on `pathname` (spec §2, §4): closed on the uploader, immersive on the discover
 * pages, full on the list pages, two thirds on every other page of the panel (/dashboard, /account) so that
 * the uploader stays in sight beside it.
 */
export function panelStateOf(pathname: string): SlidePanelState {
  const path = normalizeMenuPath(pathname);
  // The uploader and the receiver (spec §2: the panel's close button returns to either).
  if (path === '/' || path === '/request-files') return 'closed';
  if (isAtOrUnder(path, '/discover')) return 'immersive';
  if (FULL_WIDTH.some((base) => isAtOrUnder(path, base))) return 'full';
  return 'two_third';
}

/** On phones (spec §9: up to 768 px) there is no room beside the panel: two thirds become full. */
export function effectivePanelState(state: SlidePanelState, mobile: boolean): SlidePanelState {
  return mobile && state === 'two_third' ? 'full' : state;
}
