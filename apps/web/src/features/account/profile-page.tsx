import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDateTime } from '../../lib/format';
import { getUserProfile } from '../../lib/user-api';
import { useAuth } from '../auth/auth-context';
import { AccountLayout } from './account-layout';
import { ProfileForm, profileQueryKey } from './profile-form';
import './account.css';

/** `/account/profile`: who is signed in and on which plan; the first name and the language, editable. */
export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const user = state.user;
  const profile = useQuery({
    queryKey: profileQueryKey(user?.uid ?? ''),
    queryFn: ({ signal }) => getUserProfile(user?.uid ?? '', signal),
    enabled: user !== null,
  });
  if (!user) return null;
  const chosen = state.chosenPlan;
  return (
    <AccountLayout section="profile" title={t('account:profile_title')}>
      <dl className="facts profile-facts">
        <div>
          <dt>{t('account:profile_email')}</dt>
          <dd data-testid="profile-email">{user.email}</dd>
        </div>
        <div>
          <dt>{t('account:profile_plan')}</dt>
          <dd>
            <span className="plan-badge" data-testid="profile-plan" data-plan={state.planType}>
              {t(`auth:plan_${state.planType}`)}
            </span>
          </dd>
        </div>
        {chosen && state.planType === 'NONE' && (
          <div>
            <dt>{t('account:profile_chosen_plan')}</dt>
            <dd data-testid="profile-chosen-plan">
              {t('account:profile_chosen_plan_text', { plan: t(`auth:plan_code_${chosen.type}`) })}
            </dd>
          </div>
        )}
        {state.lastLogin && (
          <div>
            <dt>{t('account:profile_last_login')}</dt>
            <dd>{formatDateTime(state.lastLogin, i18n.language)}</dd>
          </div>
        )}
      </dl>
      <h2 className="section-title">{t('account:profile_details_title')}</h2>
      {profile.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="profile-loading">
          {t('account:loading')}
        </p>
      )}
      {profile.error && (
        <div className="notice notice-error" role="alert" data-testid="profile-load-error">
          <p>{describe(profile.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void profile.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {profile.data && <ProfileForm uid={user.uid} profile={profile.data} />}
    </AccountLayout>
  );
}
