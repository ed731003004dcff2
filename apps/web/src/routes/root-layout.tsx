import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LogoMark } from '../components/icons';
import { LanguageSwitcher } from '../components/language-switcher';
import { SiteFooter } from '../components/site-footer';
import { SignBackInDialog } from '../features/auth/sign-back-in-dialog';
import { UserMenu } from '../features/auth/user-menu';
import { BillingNoticesSlot } from '../features/billing/billing-notices-slot';
import { ThemeBackdrop, ThemeLogo } from '../features/customization/theme-backdrop';
import { useRememberReturnPage } from '../features/dashboard/return-page';
import { OwnHostGate, useLimitedLayout } from '../features/hosts/own-host-gate';
import { ToastArea } from '../features/toasts/toast-area';
import { MadeInBanner } from '../features/visitors/made-in-banner';
import { useScrollToTop } from '../hooks/use-scroll-to-top';
import { PRODUCT_NAME } from '../lib/config';

/**
 * Frame of every page: the "Made in" banner for signed-out visitors (spec §1), header (brand, language, sign-in
 * link or user menu), the routed page, footer with the site's pages, the toast area, the sign-back-in prompt
 * and the billing notices (spec §4 billing state). On an account's own host a signed-out visitor sees the limited
 * layout (no footer of marketing pages) and only the pages OwnHostGate lets through.
 */
export function RootLayout() {
  const { t } = useTranslation();
  useScrollToTop();
  // Where the sliding panel's close button returns to (spec §2): the last uploader or receiver page.
  useRememberReturnPage();
  const limited = useLimitedLayout();
  return (
    <div className="app">
      <ThemeBackdrop />
      <a className="skip-link" href="#main">
        {t('common:skip_to_content')}
      </a>
      <MadeInBanner />
      <header className="app-header">
        <Link to="/" className="brand" aria-label={t('common:home_link', { product: PRODUCT_NAME })}>
          <ThemeLogo fallback={<LogoMark className="brand-mark" />} />
          <span className="brand-name">{PRODUCT_NAME}</span>
        </Link>
        <div className="header-actions">
          <LanguageSwitcher />
          <UserMenu />
        </div>
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <OwnHostGate>
          <Outlet />
        </OwnHostGate>
      </main>
      {limited ? null : <SiteFooter />}
      <ToastArea />
      <SignBackInDialog />
      <BillingNoticesSlot />
    </div>
  );
}
