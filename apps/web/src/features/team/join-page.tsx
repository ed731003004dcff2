import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { LabelledField } from '../../components/labelled-field';
import { PasswordInput } from '../../components/password-input';
import { useDescribeError } from '../../hooks/use-describe-error';
import { acceptTeamInvitation, viewTeamInvitation } from '../../lib/team-api';
import { AuthCard } from '../auth/auth-card';
import { useAuth } from '../auth/auth-context';

/**
 * `/join?token=…`: a team invitation. Shows the team's inviter; a new address chooses a password (and first
 * name), an existing account signs in as the invited address first, then accepts.
 */
export function JoinPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const auth = useAuth();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const token = search.get('token')?.trim() ?? '';
  const query = useQuery({
    queryKey: ['team-invitation', token],
    queryFn: ({ signal }) => viewTeamInvitation(token, signal),
    enabled: token !== '',
  });
  const [password, setPassword] = useState('');
  const [firstname, setFirstname] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const accept = async (event?: FormEvent) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const invitation = query.data!;
      const { idToken } = await acceptTeamInvitation(
        invitation.accountExists ? { token } : { token, password, ...(firstname ? { firstname } : {}) },
      );
      const outcome = await auth.startSession(idToken, false);
      if (outcome.ok) void navigate('/dashboard', { replace: true });
      else setError(t(`errors:code.${outcome.refused}`, { defaultValue: t('errors:unknown') }));
    } catch (e) {
      setError(describe(e));
    } finally {
      setBusy(false);
    }
  };

  if (!token || query.error)
    return (
      <AuthCard title={t('team:join_title')} testId="page-join" state="failed">
        <p className="notice notice-error" role="alert">
          {query.error ? describe(query.error) : t('errors:code.INVITATION_NOT_VALID')}
        </p>
      </AuthCard>
    );
  const invitation = query.data;
  if (!invitation)
    return (
      <AuthCard title={t('team:join_title')} testId="page-join" state="loading">
        <p className="muted" role="status" aria-busy="true">
          {t('account:loading')}
        </p>
      </AuthCard>
    );
  const inviter = invitation.inviterName
    ? `${invitation.inviterName} (${invitation.inviterEmail})`
    : invitation.inviterEmail;
  const signedInAs = auth.state.user?.email.toLowerCase() ?? null;
  const isInvited = signedInAs === invitation.email.toLowerCase();
  return (
    <AuthCard title={t('team:join_title')} testId="page-join" state="ready">
      <p data-testid="join-intro">{t('team:join_intro', { inviter, email: invitation.email })}</p>
      {error && (
        <p className="notice notice-error" role="alert" data-testid="join-error">
          {error}
        </p>
      )}
      {invitation.accountExists ? (
        isInvited ? (
          <button
            type="button"
            className="button button-primary"
            disabled={busy}
            data-testid="join-accept"
            onClick={() => void accept()}
          >
            {t('team:join_accept')}
          </button>
        ) : (
          <Link
            className="button button-primary"
            data-testid="join-signin"
            to={`/signin?next=${encodeURIComponent(`/join?token=${token}`)}`}
          >
            {t('team:join_signin', { email: invitation.email })}
          </Link>
        )
      ) : (
        <form className="auth-form" onSubmit={(e) => void accept(e)} noValidate>
          <LabelledField label={t('team:join_firstname')}>
            {(p) => (
              <input
                {...p}
                type="text"
                autoComplete="given-name"
                value={firstname}
                data-testid="join-firstname"
                onChange={(e) => setFirstname(e.target.value)}
              />
            )}
          </LabelledField>
          <LabelledField label={t('team:join_password')} hint={t('team:join_password_hint')}>
            {(p) => (
              <PasswordInput
                {...p}
                autoComplete="new-password"
                value={password}
                onValueChange={setPassword}
                testId="join-password"
                required
              />
            )}
          </LabelledField>
          <button type="submit" className="button button-primary" disabled={busy} data-testid="join-submit">
            {t('team:join_create')}
          </button>
        </form>
      )}
    </AuthCard>
  );
}
