import { lazy, type ReactNode, Suspense } from 'react';
import { useLocation } from 'react-router';
import { MOBILE_QUERY, useMediaQuery } from '../../components/slide-panel-media';
import { withTexts } from '../../i18n/texts';
import { preloadable } from '../../lib/preloadable';
import { effectivePanelState, panelStateOf } from './panel-state';
import './dashboard.css';

// The panel is a chunk of its own (with the texts it names): the uploader at `/` never opens it.
const loadPanel = preloadable(withTexts(() => import('./main-panel')));
const MainPanel = lazy(loadPanel);

/** Fetches the panel (and its texts) when `pathname` opens it: the router asks before drawing the layout. */
export function preloadPanel(pathname: string): Promise<unknown> {
  return panelStateOf(pathname) === 'closed' ? Promise.resolve() : loadPanel();
}

/**
 * The main layout of spec §2: the page behind (the uploader) and, over it, the sliding content panel with the
 * routed page (/dashboard, /account). The page behind stays mounted while the panel is open, so a transfer in
 * progress goes on; it stays in sight and usable beside a two-third panel, and is hidden (and inert) when the
 * panel covers it. Closing the panel returns to the uploader or receiver page the user came from.
 */
export function MainLayout({ behind }: { behind: ReactNode }) {
  const { pathname } = useLocation();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const state = effectivePanelState(panelStateOf(pathname), mobile);
  const covered = state === 'full' || state === 'immersive';
  return (
    <div className="main-frame" data-panel={state} data-testid="main-frame">
      <div className="main-behind" hidden={covered} inert={covered} data-testid="panel-behind">
        {behind}
      </div>
      {state !== 'closed' && (
        <Suspense fallback={null}>
          <MainPanel state={state} />
        </Suspense>
      )}
    </div>
  );
}
