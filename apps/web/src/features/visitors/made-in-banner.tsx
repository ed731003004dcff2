import { useTranslation } from 'react-i18next';
import { intlLocale } from '../../lib/format';
import { useSignedOut, useSiteConfig } from './visitor-state';
import './visitors.css';

/** The name of the country `code` (ISO 3166 alpha-2) in `locale`, or null when Intl has none for it. */
export function countryName(code: string, locale: string): string | null {
  try {
    const names = new Intl.DisplayNames([intlLocale(locale)], { type: 'region', fallback: 'none' });
    return names.of(code) ?? null;
  } catch {
    return null;
  }
}

/**
 * Spec §1: the "Made in {country}" banner, at the top of every page for signed-out visitors on the main domain.
 * The country is the server's setting (an empty one turns the banner off), named in the page's language.
 */
export function MadeInBanner() {
  const { t, i18n } = useTranslation();
  const signedOut = useSignedOut();
  const { madeInCountry, mainDomain } = useSiteConfig();
  const country = signedOut && mainDomain && madeInCountry ? countryName(madeInCountry, i18n.language) : null;
  if (!country) return null;
  return (
    <div className="made-in-banner" data-testid="made-in-banner">
      <p>{t('common:made_in', { country })}</p>
    </div>
  );
}
