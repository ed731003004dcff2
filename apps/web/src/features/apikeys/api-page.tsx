import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '../../lib/config';
import { ApiTokensSection, type TokenSource } from '../account/integrations-page';
import { useAuth } from '../auth/auth-context';
import { createTeamToken, listTeamTokens, revokeTeamToken } from '../team-admin/team-api';
import { WebhooksSection } from './webhooks-section';
import './apikeys.css';

/** A team's tokens, for its manager (a team or enterprise plan, no manager above). */
function teamTokens(teamId: string): TokenSource {
  return {
    key: `team-tokens-${teamId}`,
    list: () => listTeamTokens(teamId),
    create: (request) => createTeamToken(teamId, request),
    revoke: (id) => revokeTeamToken(teamId, id),
    titleKey: 'apikeys:team_tokens_title',
    introKey: 'apikeys:team_tokens_intro',
    emptyKey: 'apikeys:team_tokens_empty',
    testId: 'team-tokens-section',
  };
}

/**
 * `/dashboard/admin/api`: personal API tokens (with scopes), a team's tokens for its manager, and webhooks with
 * their delivery log.
 */
export function ApiPage() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const manager =
    state.user !== null &&
    state.managerId === null &&
    (state.planType === 'TEAM' || state.planType === 'ENTERPRISE');
  const uid = state.user?.uid ?? '';
  const team = useMemo(() => (manager ? teamTokens(uid) : null), [manager, uid]);
  return (
    <div className="dashboard-page api-page" data-testid="page-api">
      <title>{`${t('apikeys:page_title')} · ${PRODUCT_NAME}`}</title>
      <header className="dashboard-page-header">
        <h1 className="panel-title">{t('apikeys:page_title')}</h1>
        <p className="muted">{t('apikeys:page_intro')}</p>
      </header>
      <ApiTokensSection />
      {team && <ApiTokensSection source={team} />}
      <WebhooksSection />
    </div>
  );
}
