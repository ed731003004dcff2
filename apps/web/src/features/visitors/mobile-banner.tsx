import { withLocalePrefix } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '../../lib/config';
import { VisitorDismissButton } from './dismiss-button';
import { useSessionDismissal, useVisitorHome } from './visitor-state';
import './visitors.css';

export const MOBILE_BANNER_DISMISSED_KEY = 'ferry.mobileBanner.dismissed';

/**
 * Spec §2: on a phone (the stylesheet shows it only on small screens), signed-out visitors of the main domain's
 * home learn that the product works in the phone's browser, with a link to the apps page (a page of the site,
 * outside the app's router: a plain link in the page's language). Dismissed for the browser session.
 */
export function MobileBanner() {
  const { t, i18n } = useTranslation();
  const home = useVisitorHome();
  const [dismissed, dismiss] = useSessionDismissal(MOBILE_BANNER_DISMISSED_KEY);
  if (!home || dismissed) return null;
  return (
    <div className="mobile-banner" data-testid="mobile-banner">
      <p className="mobile-banner-text">
        {t('common:mobile_banner_text', { product: PRODUCT_NAME })}{' '}
        <a href={withLocalePrefix('/apps', i18n.language)} data-testid="mobile-banner-apps">
          {t('common:mobile_banner_link')}
        </a>
      </p>
      <VisitorDismissButton
        label={t('common:mobile_banner_dismiss')}
        testId="mobile-banner-dismiss"
        onDismiss={dismiss}
      />
    </div>
  );
}
