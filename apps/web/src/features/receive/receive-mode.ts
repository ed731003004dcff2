import { useLocation } from 'react-router';
import { isReturnPage, returnPagePath } from '../dashboard/return-page';

/** The receiver page (spec §2 route table: /request-files, with #S1 and #S2). */
export const RECEIVER_PATH = '/request-files';

function pathOf(location: string): string {
  const path = (location.split(/[?#]/)[0] ?? '').replace(/\/+$/, '').toLowerCase();
  return path === '' ? '/' : path;
}

/**
 * Receive mode (spec §4): going to /request-files switches it on, leaving to / turns it off, and every other
 * page keeps it as it was — which is the uploader or receiver page last visited (the page the sliding panel
 * returns to, spec §2). So the page behind the panel of /dashboard and /account is the receiver in receive
 * mode and the uploader otherwise, and both stay in sync with navigation.
 */
export function receiveModeOf(pathname: string, lastReturnPage: string): boolean {
  const here = pathOf(pathname);
  if (isReturnPage(here)) return here === RECEIVER_PATH;
  return pathOf(lastReturnPage) === RECEIVER_PATH;
}

/** Whether the app is in receive mode on the current page. */
export function useReceiveMode(): boolean {
  const { pathname } = useLocation();
  return receiveModeOf(pathname, returnPagePath());
}
