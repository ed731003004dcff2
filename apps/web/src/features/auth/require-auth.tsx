import { useTranslation } from 'react-i18next';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { useAuth } from './auth-context';
import { signInPath } from './auth-errors';

/**
 * Pages under /account and /dashboard need sign-in (spec §2, §6): a signed-out visitor goes to
 * `/signin?next=<this page>` and comes back after. Someone who just signed out here goes home instead.
 */
export function RequireAuth() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const auth = useAuth();
  const location = useLocation();

  if (auth.status === 'loading') {
    return (
      <div className="page-center" aria-busy="true" data-testid="auth-loading">
        <p className="muted" role="status">
          {t('auth:checking_session')}
        </p>
      </div>
    );
  }
  if (auth.status === 'error' && !auth.user) {
    return (
      <div className="page-center" data-testid="auth-load-error">
        <div className="panel message-panel">
          <p className="notice notice-error" role="alert">
            {describe(auth.loadError)}
          </p>
          <button
            type="button"
            className="button button-primary"
            onClick={() => void auth.reload()}
            data-testid="auth-retry"
          >
            {t('common:retry')}
          </button>
        </div>
      </div>
    );
  }
  if (!auth.user) {
    return <Navigate to={auth.endedBy === 'user' ? '/' : signInPath(location)} replace />;
  }
  return <Outlet />;
}
