import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { describeError } from '../lib/api';

/** describeError bound to the current language. */
export function useDescribeError(): (error: unknown) => string {
  const { i18n } = useTranslation();
  return useCallback((error: unknown) => describeError(error, i18n), [i18n]);
}
