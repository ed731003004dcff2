import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { AccountLayout } from './account-layout';

/** `/account/profile`: who is signed in and on which plan (editing comes later). */
export function ProfilePage() {
  const { t, i18n } = useTranslation();
  const { state } = useAuth();
  const user = state.user;
  if (!user) return null;
  const chosen = state.chosenPlan;
  return (
    <AccountLayout section="profile" title={t('account:profile_title')}>
      <dl className="facts profile-facts">
        <div>
          <dt>{t('account:profile_email')}</dt>
          <dd data-testid="profile-email">{user.email}</dd>
        </div>
        {user.displayName && (
          <div>
            <dt>{t('account:profile_name')}</dt>
            <dd data-testid="profile-name">{user.displayName}</dd>
          </div>
        )}
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
      <p className="field-hint">{t('account:profile_editing_later')}</p>
    </AccountLayout>
  );
}
