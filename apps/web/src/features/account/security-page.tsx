import type { SessionInfo } from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { listSessions, revokeSession } from '../../lib/auth-api';
import { formatDateTime } from '../../lib/format';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { useToast } from '../toasts/toast-context';
import { AccountLayout } from './account-layout';
import { ChangePasswordForm } from './change-password-form';
import { describeUserAgent } from './device';
import { TwoFactorSection } from './two-factor-section';
import './account.css';

/** "Chrome on Linux", "Ferry CLI", "Unknown device". */
export function useDeviceName(): (session: Pick<SessionInfo, 'userAgent'>) => string {
  const { t } = useTranslation();
  return ({ userAgent }) => {
    const { browser, os, program } = describeUserAgent(userAgent);
    if (program) return program;
    if (browser && os) return t('account:device_on', { browser, os });
    return browser ?? os ?? t('account:device_unknown');
  };
}

/** The current session first, then the most recently used. */
export function sortSessions(sessions: readonly SessionInfo[]): SessionInfo[] {
  return [...sessions].sort(
    (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
  );
}

/**
 * `/account/security`: change the password, two-factor authentication (TOTP with recovery codes), the
 * account's active sessions (device, user agent, IP, last use, "this device"), each revocable, and "Sign out
 * everywhere" (every session, this one too).
 */
export function SecurityPage() {
  const { t, i18n } = useTranslation();
  const auth = useAuth();
  const toast = useToast();
  const describe = useDescribeError();
  const deviceName = useDeviceName();
  const queryClient = useQueryClient();
  const uid = auth.user?.uid ?? '';
  const queryKey = [ACCOUNT_QUERY_KEY, uid, 'sessions'];
  const sessions = useQuery({ queryKey, queryFn: listSessions });
  const [everywhereBusy, setEverywhereBusy] = useState(false);

  const onUnauthorized = (error: unknown) => {
    // The session is gone (revoked elsewhere, expired): the state follows, and the guard asks to sign in.
    if (error instanceof ApiError && error.status === 401) void auth.reload();
  };

  const revoke = useMutation({
    mutationFn: (session: SessionInfo) => revokeSession(session.id),
    onSuccess: (_, session) => {
      toast.show(t('account:session_revoked', { device: deviceName(session) }), 'success');
      void queryClient.invalidateQueries({ queryKey });
    },
    onError: (error) => {
      toast.show(describe(error), 'error');
      onUnauthorized(error);
    },
  });

  const signOutEverywhere = async () => {
    if (!window.confirm(t('auth:signout_everywhere_confirm'))) return;
    setEverywhereBusy(true);
    try {
      const revoked = await auth.signOut({ everywhere: true });
      toast.show(t('account:signed_out_everywhere_count', { count: revoked }), 'success');
    } catch (error) {
      toast.show(describe(error), 'error');
      setEverywhereBusy(false);
    }
  };

  const listError = sessions.error;
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new error matters
  useEffect(() => {
    if (listError) onUnauthorized(listError);
  }, [listError]);
  const list = sessions.data ? sortSessions(sessions.data) : [];

  return (
    <AccountLayout section="security" title={t('account:security_title')}>
      <section className="account-section" aria-labelledby="password-title" data-testid="password-section">
        <h2 className="section-title" id="password-title">
          {t('account:password_title')}
        </h2>
        <ChangePasswordForm />
      </section>
      <TwoFactorSection />
      <h2 className="section-title">{t('account:sessions_title')}</h2>
      <p className="muted">{t('account:sessions_intro')}</p>
      {sessions.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="sessions-loading">
          {t('account:loading')}
        </p>
      )}
      {sessions.error && (
        <div className="notice notice-error" role="alert" data-testid="sessions-error">
          <p>{describe(sessions.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void sessions.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {sessions.data && (
        <ul className="item-list" aria-label={t('account:sessions_title')} data-testid="session-list">
          {list.map((session) => {
            const name = deviceName(session);
            return (
              <li
                key={session.id}
                className="item-row"
                data-testid="session-row"
                data-session-id={session.id}
                data-current={session.current}
              >
                <div className="item-main">
                  <p className="item-title">
                    {name}
                    {session.current && (
                      <span className="badge badge-success" data-testid="session-this-device">
                        {t('account:this_device')}
                      </span>
                    )}
                  </p>
                  <dl className="item-facts">
                    <div>
                      <dt>{t('account:session_last_used')}</dt>
                      <dd>{formatDateTime(session.lastUsedAt, i18n.language)}</dd>
                    </div>
                    <div>
                      <dt>{t('account:session_ip')}</dt>
                      <dd>{session.ip ?? t('account:unknown')}</dd>
                    </div>
                    <div>
                      <dt>{t('account:session_signed_in')}</dt>
                      <dd>{formatDateTime(session.createdAt, i18n.language)}</dd>
                    </div>
                    <div>
                      <dt>{t('account:session_expires')}</dt>
                      <dd>{formatDateTime(session.expiresAt, i18n.language)}</dd>
                    </div>
                  </dl>
                  {session.userAgent && (
                    <p className="item-detail" data-testid="session-user-agent">
                      <span className="visually-hidden">{t('account:session_user_agent')}: </span>
                      {session.userAgent}
                    </p>
                  )}
                </div>
                {!session.current && (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    disabled={revoke.isPending && revoke.variables?.id === session.id}
                    aria-label={t('account:session_revoke_label', { device: name })}
                    onClick={() => revoke.mutate(session)}
                    data-testid="session-revoke"
                  >
                    {t('account:session_revoke')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      <div className="danger-zone">
        <h2 className="section-title">{t('auth:signout_everywhere')}</h2>
        <p className="muted">{t('account:signout_everywhere_text')}</p>
        <button
          type="button"
          className="button button-danger"
          disabled={everywhereBusy}
          aria-busy={everywhereBusy || undefined}
          onClick={() => void signOutEverywhere()}
          data-testid="signout-everywhere"
        >
          {t('auth:signout_everywhere')}
        </button>
      </div>
    </AccountLayout>
  );
}
