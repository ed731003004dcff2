import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { SlidePanel } from '../../components/slide-panel';
import { MOBILE_QUERY, useMediaQuery } from '../../components/slide-panel-media';
import { effectivePanelState, panelStateOf } from './panel-state';
import { returnPagePath } from './return-page';
import './dashboard.css';

/**
 * The main layout of spec §2: the page behind (the uploader) and, over it, the sliding content panel with the
 * routed page (/dashboard, /account). The page behind stays mounted while the panel is open, so a transfer in
 * progress goes on; it stays in sight and usable beside a two-third panel, and is hidden (and inert) when the
 * panel covers it. Closing the panel returns to the uploader or receiver page the user came from.
 */
export function MainLayout({ behind }: { behind: ReactNode }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const state = effectivePanelState(panelStateOf(pathname), mobile);
  const covered = state === 'full' || state === 'immersive';
  const label = pathname.startsWith('/account') ? t('auth:menu_account') : t('account:dashboard_title');
  return (
    <div className="main-frame" data-panel={state} data-testid="main-frame">
      <div className="main-behind" hidden={covered} inert={covered} data-testid="panel-behind">
        {behind}
      </div>
      {state !== 'closed' && (
        <SlidePanel
          state={state}
          label={label}
          closeLabel={t('account:panel_close')}
          onClose={() => navigate(returnPagePath())}
        >
          <Outlet />
        </SlidePanel>
      )}
    </div>
  );
}
