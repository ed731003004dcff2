import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { SlidePanel, type SlidePanelState } from '../../components/slide-panel';
import { returnPagePath } from './return-page';

/**
 * The sliding content panel of the main layout (main-layout.tsx) with the routed page (/dashboard, /account);
 * its close button returns to the uploader or receiver page the user came from.
 */
export default function MainPanel({ state }: { state: Exclude<SlidePanelState, 'closed'> }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const label = pathname.startsWith('/account') ? t('auth:menu_account') : t('account:dashboard_title');
  return (
    <SlidePanel
      state={state}
      label={label}
      closeLabel={t('account:panel_close')}
      onClose={() => navigate(returnPagePath())}
    >
      <Outlet />
    </SlidePanel>
  );
}
