import { useTranslation } from 'react-i18next';
import { PRODUCT_NAME } from '../../lib/config';
import { ApiTokensSection } from '../account/integrations-page';
import { WebhooksSection } from './webhooks-section';
import './apikeys.css';

/** `/dashboard/admin/api`: API tokens (with scopes) and webhooks with their delivery log. */
export function ApiPage() {
  const { t } = useTranslation();
  return (
    <div className="dashboard-page api-page" data-testid="page-api">
      <title>{`${t('apikeys:page_title')} · ${PRODUCT_NAME}`}</title>
      <header className="dashboard-page-header">
        <h1 className="panel-title">{t('apikeys:page_title')}</h1>
        <p className="muted">{t('apikeys:page_intro')}</p>
      </header>
      <ApiTokensSection />
      <WebhooksSection />
    </div>
  );
}
