import { IntegrationsPage } from '../features/account/integrations-page';

/** `/account/integrations` */
export default function AccountIntegrationsRoute() {
  return <IntegrationsPage />;
}
