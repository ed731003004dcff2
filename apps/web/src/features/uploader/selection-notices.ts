import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { describeLimit } from '../../lib/api';
import { useToast } from '../toasts/toast-context';
import type { AddFilesResult } from './selection';

/** At most this many "file skipped" notices; the rest are summed up in one. */
export const MAX_REJECTION_TOASTS = 3;

/**
 * Says what happened to files added to a selection (spec §5: rejected files are skipped with their notice,
 * e.g. notif_extension_authorized with the list; the rest are kept): skipped names, a broken limit, duplicates.
 */
export function useSelectionNotices(): (result: AddFilesResult) => void {
  const { t, i18n } = useTranslation();
  const toast = useToast();
  return useCallback(
    (result: AddFilesResult) => {
      result.rejected.slice(0, MAX_REJECTION_TOASTS).forEach(({ name, problem }) => {
        toast.show(t(problem.key, { name, extensions: problem.extensions?.join(', ') ?? '' }), 'error');
      });
      if (result.rejected.length > MAX_REJECTION_TOASTS) {
        toast.show(
          t('uploader:more_rejected', { count: result.rejected.length - MAX_REJECTION_TOASTS }),
          'error',
        );
      }
      if (result.limit) toast.show(describeLimit(result.limit, i18n), 'error');
      if (result.duplicates > 0)
        toast.show(t('uploader:duplicates_skipped', { count: result.duplicates }), 'info');
    },
    [t, i18n, toast],
  );
}

/** Dropping files outside the drop zone must not make the browser leave the page to open them. */
export function usePreventStrayDrops(): void {
  useEffect(() => {
    const stop = (event: DragEvent) => {
      if (Array.from(event.dataTransfer?.types ?? []).includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', stop);
    window.addEventListener('drop', stop);
    return () => {
      window.removeEventListener('dragover', stop);
      window.removeEventListener('drop', stop);
    };
  }, []);
}
