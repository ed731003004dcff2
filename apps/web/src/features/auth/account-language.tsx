import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { chooseLocale, savedLocale, saveLocale } from '../../i18n';
import { useAuth } from './auth-context';

function browserLanguages(): string[] {
  return navigator.languages?.length ? [...navigator.languages] : [navigator.language].filter(Boolean);
}

/**
 * Once the auth state is known, a page without a language prefix takes the signed-in account's language
 * (i18n's chooseLocale: the URL's prefix first, then the account, then this browser's choice, then the
 * browser's languages). The account's choice is remembered here too, for the next visit's first paint.
 */
export function useAccountLanguage(): void {
  const { user } = useAuth();
  const { i18n } = useTranslation();
  const account = user?.locale ?? null;
  useEffect(() => {
    if (!account) return;
    const wanted = chooseLocale({
      pathname: window.location.pathname,
      account,
      saved: savedLocale(),
      browser: browserLanguages(),
    });
    if (wanted === i18n.language) return;
    saveLocale(wanted);
    void i18n.changeLanguage(wanted);
  }, [account, i18n]);
}

/** useAccountLanguage as a component, for the app's providers. */
export function AccountLanguage() {
  useAccountLanguage();
  return null;
}
