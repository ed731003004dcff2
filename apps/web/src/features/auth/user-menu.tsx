import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { withTexts } from '../../i18n/texts';
import { useSignedOut } from '../visitors/visitor-state';
import { useAuth } from './auth-context';
import { signInPath } from './auth-errors';

const SignedInMenu = lazy(withTexts(() => import('./signed-in-menu')));

/** The first letter of the name or address, for the round badge of the menu button. */
export function initialOf(displayName: string | null, email: string): string {
  const source = displayName?.trim() || email;
  return (source.charAt(0) || '?').toLocaleUpperCase();
}

/**
 * The header's account area: "Sign in" for anonymous visitors; for a signed-in user the menu of
 * signed-in-menu.tsx, fetched when someone is signed in.
 */
export function UserMenu() {
  const { t } = useTranslation();
  const auth = useAuth();
  const location = useLocation();
  // Without a session cookie the visitor is signed out for sure: "Sign in" is drawn with the page.
  const signedOut = useSignedOut();
  if (auth.status === 'loading' && !signedOut) return <div className="user-area" aria-hidden="true" />;
  if (!auth.user) {
    const onAuthPage = /^\/(signin|register)/.test(location.pathname);
    return (
      <div className="user-area">
        {!onAuthPage && (
          <Link to={signInPath(location)} className="button button-header" data-testid="header-signin">
            {t('auth:signin_link')}
          </Link>
        )}
      </div>
    );
  }
  return (
    <Suspense fallback={<div className="user-area" aria-hidden="true" />}>
      <SignedInMenu />
    </Suspense>
  );
}
