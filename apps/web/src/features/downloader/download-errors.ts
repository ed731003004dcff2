import { ApiError } from '../../lib/api';

/** Where a failed download call sends the visitor (spec §2 /d/expired and /d/notfound), or null to stay. */
export function downloadErrorRoute(error: unknown): '/d/expired' | '/d/notfound' | null {
  if (!(error instanceof ApiError)) return null;
  if (error.hasCode('TRANSFER_EXPIRED')) return '/d/expired';
  if (
    error.hasCode('TRANSFER_NOT_FOUND') ||
    error.hasCode('TRANSFER_DISABLED') ||
    error.hasCode('FILE_NOT_FOUND') ||
    error.hasCode('NOT_FOUND')
  ) {
    return '/d/notfound';
  }
  if (error.kind === 'generic' && (error.status === 404 || error.status === 410)) {
    return error.status === 410 ? '/d/expired' : '/d/notfound';
  }
  return null;
}

/** The notice for a refused download link (spec §8); null when the error is handled elsewhere. */
export function downloadNoticeKey(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  if (error.hasCode('TOO_MANY_DOWNLOADS')) return 'downloader:too_many_dowloads';
  if (error.hasCode('TOO_MANY_PREVIEWS')) return 'downloader:notif_too_many_previews';
  return null;
}

/** The password given is no longer accepted (changed by the owner, or never given): ask again. */
export function needsPassword(error: unknown): boolean {
  return error instanceof ApiError && (error.hasCode('PASSWORD_REQUIRED') || error.hasCode('WRONG_PASSWORD'));
}
