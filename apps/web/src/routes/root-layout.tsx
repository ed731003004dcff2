import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LogoMark } from '../components/icons';
import { LanguageSwitcher } from '../components/language-switcher';
import { ToastArea } from '../features/toasts/toast-area';
import { useScrollToTop } from '../hooks/use-scroll-to-top';
import { PRODUCT_NAME } from '../lib/config';

/** Frame of every page: header (brand, language), the routed page, footer, and the toast area. */
export function RootLayout() {
  const { t } = useTranslation();
  useScrollToTop();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {t('common:skip_to_content')}
      </a>
      <header className="app-header">
        <Link to="/" className="brand" aria-label={t('common:home_link', { product: PRODUCT_NAME })}>
          <LogoMark className="brand-mark" />
          <span className="brand-name">{PRODUCT_NAME}</span>
        </Link>
        <LanguageSwitcher />
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
      <footer className="app-footer">
        <p>{t('common:footer', { product: PRODUCT_NAME, year: new Date().getFullYear() })}</p>
      </footer>
      <ToastArea />
    </div>
  );
}
