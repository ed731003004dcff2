import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { useIsOperator } from '../operator/use-is-operator';
import { useToast } from '../toasts/toast-context';
import { useAuth } from './auth-context';
import { initialOf } from './user-menu';

/**
 * The header's menu of a signed-in user: a button that opens a panel (disclosure pattern: Escape closes it and
 * gives focus back) with the e-mail, the plan, Account, Sign out and Sign out everywhere. Its own chunk (and its
 * texts' namespaces): a signed-out visitor never loads it (user-menu.tsx).
 */
export default function SignedInMenu() {
  const { t } = useTranslation();
  const auth = useAuth();
  const location = useLocation();
  const toast = useToast();
  const describe = useDescribeError();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const isOperator = useIsOperator(auth.user?.uid ?? null, open);

  // Any navigation closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: closing on each new location is the point
  useEffect(() => {
    setOpen(false);
  }, [location.pathname]);

  useEffect(() => {
    if (!open) return;
    // A click or a focus (Tab) outside the menu closes it.
    const onOutside = (event: Event) => {
      if (!root.current?.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  const user = auth.user;
  if (!user) return null;

  const signOut = async (everywhere: boolean) => {
    if (everywhere && !window.confirm(t('auth:signout_everywhere_confirm'))) return;
    setBusy(true);
    try {
      await auth.signOut({ everywhere });
      setOpen(false);
      toast.show(t(everywhere ? 'auth:signed_out_everywhere' : 'auth:signed_out'), 'success');
    } catch (error) {
      toast.show(describe(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="user-area user-menu" ref={root}>
      <button
        ref={button}
        type="button"
        className="user-menu-button"
        aria-expanded={open}
        aria-controls={`${id}-panel`}
        // The name starts with what the button shows (its letter, then the address; WCAG 2.5.3 label in name),
        // so speech users can say what they see.
        aria-label={t('auth:menu_label', {
          initial: initialOf(user.displayName, user.email),
          email: user.email,
        })}
        onClick={() => setOpen((v) => !v)}
        data-testid="user-menu-button"
      >
        <span className="avatar" aria-hidden="true">
          {initialOf(user.displayName, user.email)}
        </span>{' '}
        <span className="user-menu-email">{user.email}</span>
      </button>
      <div id={`${id}-panel`} className="user-menu-panel" hidden={!open} data-testid="user-menu">
        <p className="user-menu-who">
          <span className="user-menu-address" data-testid="user-menu-email">
            {user.email}
          </span>
          <span className="plan-badge" data-testid="user-menu-plan" data-plan={auth.state.planType}>
            {t(`auth:plan_${auth.state.planType}`)}
          </span>
        </p>
        <ul className="user-menu-list">
          <li>
            <Link to="/dashboard" className="user-menu-item" data-testid="user-menu-dashboard">
              {t('auth:menu_dashboard')}
            </Link>
          </li>
          <li>
            <Link to="/account/profile" className="user-menu-item" data-testid="user-menu-account">
              {t('auth:menu_account')}
            </Link>
          </li>
          <li>
            <Link to="/account/security" className="user-menu-item" data-testid="user-menu-security">
              {t('account:nav_security')}
            </Link>
          </li>
          {isOperator && (
            <li>
              <Link to="/operator" className="user-menu-item" data-testid="user-menu-operator">
                {t('operator:menu_link')}
              </Link>
            </li>
          )}
          <li>
            <button
              type="button"
              className="user-menu-item"
              disabled={busy}
              onClick={() => void signOut(false)}
              data-testid="user-menu-signout"
            >
              {t('auth:signout')}
            </button>
          </li>
          <li>
            <button
              type="button"
              className="user-menu-item"
              disabled={busy}
              onClick={() => void signOut(true)}
              data-testid="user-menu-signout-all"
            >
              {t('auth:signout_everywhere')}
            </button>
          </li>
        </ul>
      </div>
    </div>
  );
}
