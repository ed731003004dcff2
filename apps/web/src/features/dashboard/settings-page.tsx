import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../hooks/use-describe-error';
import { usePlanLimits } from '../../hooks/use-plan-limits';
import { useUserState } from '../../hooks/use-user-state';
import { PRODUCT_NAME } from '../../lib/config';
import { getUserProfile } from '../../lib/user-api';
import { useAuth } from '../auth/auth-context';
import { type ManagedUploader, ownProfileKey, SettingsForm } from './settings-form';
import type { TemplateCaps } from './settings-form-state';

/** `/dashboard/settings` (spec §3, §4): notification settings and the uploader and receiver templates. */
export function SettingsPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const { state } = useAuth();
  const uid = state.user?.uid ?? '';
  // The query useUserState makes for the user's own profile: one cache entry for this page and the uploader.
  const profile = useQuery({
    queryKey: ownProfileKey(uid),
    queryFn: ({ signal }) => getUserProfile(uid, signal),
    enabled: uid !== '',
    staleTime: 5 * 60_000,
  });
  const user = useUserState();
  const { limits } = usePlanLimits();
  const caps: TemplateCaps = useMemo(
    () => ({
      validityDays: limits.fileValidityInDays,
      recipients: limits.recipients,
      messageLength: limits.messageLength,
    }),
    [limits],
  );
  const managed: ManagedUploader | null = user.managed
    ? { template: user.uploaderTemplate, settings: user.uploaderSettings, ready: user.ready }
    : null;
  return (
    <div className="dashboard-page" data-testid="page-dashboard-settings">
      <title>{`${t('account:dashboard.menu_settings')} · ${PRODUCT_NAME}`}</title>
      <header className="dashboard-page-header">
        <h1 className="panel-title">{t('account:dashboard.menu_settings')}</h1>
        <p className="muted">{t('account:settings.intro')}</p>
      </header>
      {profile.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="settings-loading">
          {t('account:loading')}
        </p>
      )}
      {profile.error && (
        <div className="notice notice-error" role="alert" data-testid="settings-load-error">
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
      {profile.data && <SettingsForm uid={uid} profile={profile.data} caps={caps} managed={managed} />}
    </div>
  );
}
