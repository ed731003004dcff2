import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../lib/config';
import { useAuth } from '../auth/auth-context';

/** `/dashboard*` (sign-in required): a placeholder until the dashboard's pages exist. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  return (
    <div className="page-center" data-testid="page-dashboard">
      <title>{`${t('account:dashboard_title')} · ${PRODUCT_NAME}`}</title>
      <div className="panel message-panel">
        <h1 className="panel-title">{t('account:dashboard_title')}</h1>
        <p className="muted">{t('account:dashboard_text', { email: user?.email ?? '' })}</p>
        <div className="auth-actions">
          <Link to="/" className="button button-primary">
            {t('common:go_home', { product: PRODUCT_NAME })}
          </Link>
          <Link to="/account/profile" className="button button-secondary">
            {t('auth:menu_account')}
          </Link>
        </div>
      </div>
    </div>
  );
}
