import { lazy } from 'react';
import { withTexts } from '../../i18n/texts';
import { preloadable } from '../../lib/preloadable';
import { returnPagePath } from '../dashboard/return-page';
import { receiveModeOf } from './receive-mode';

// Each page behind the panel is a chunk of its own: the uploader never loads the receiver (and its QR code), nor
// the receiver the uploader.
// Preloaded by the router (preloadBehindPage): React.lazy then draws the page in the layout's first render.
const loadUploader = preloadable(withTexts(() => import('../../routes/uploader.route')));
const loadReceiver = preloadable(withTexts(() => import('../../routes/request-files.route')));

export const LazyUploaderRoute = lazy(loadUploader);
export const LazyRequestFilesRoute = lazy(loadReceiver);

/**
 * Starts fetching the page that will show behind the panel at `pathname`, so the router can fetch it alongside
 * the main layout instead of after it (one round trip less before the first paint).
 */
export function preloadBehindPage(pathname: string): Promise<unknown> {
  return receiveModeOf(pathname, returnPagePath()) ? loadReceiver() : loadUploader();
}
