import { dashboardMenu, type MenuViewer, menuViewerOf } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { listInboxes } from '../../lib/receive-api';
import { ACCOUNT_QUERY_KEY, useAuth } from '../auth/auth-context';
import { absoluteLink, LinkField } from '../uploader/done-step';
import './receive.css';

/** Where inboxes are managed: the dashboard menu's "inboxes" entry (core menu rules, spec §2/§6). */
export function inboxesPath(viewer: MenuViewer): string {
  const menu = dashboardMenu(viewer);
  return (
    [...menu.main, ...menu.admin].find((item) => item.id === 'inboxes')?.path ?? '/dashboard/admin/inboxes'
  );
}

/**
 * The inbox panel of spec §2, at step 1 of the uploader when the signed-in user may receive into inboxes
 * (GET /api/receive/inboxes → inboxUpload.allowed): their enabled inboxes' addresses with a copy button, and
 * the way to manage them (or to create a first one). Nothing for anonymous visitors or without the right.
 */
export function InboxPanel() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const uid = state.user?.uid ?? null;
  const query = useQuery({
    queryKey: [ACCOUNT_QUERY_KEY, uid, 'receive-inboxes'],
    queryFn: ({ signal }) => listInboxes(signal),
    enabled: uid !== null,
    // Inboxes made or switched off in the dashboard show as soon as the uploader is back in sight.
    staleTime: 0,
    retry: false,
  });
  if (uid === null || !query.data?.inboxUpload.allowed) return null;
  const inboxes = query.data.items.filter((i) => i.enabled);
  const manage = inboxesPath(menuViewerOf(state));
  return (
    <section className="inbox-panel" aria-labelledby="inbox-panel-title" data-testid="inbox-panel">
      <h2 id="inbox-panel-title" className="inbox-panel-title">
        {t('uploader:receive.inbox_panel_title')}
      </h2>
      {inboxes.length === 0 ? (
        <p className="field-hint">{t('uploader:receive.inbox_panel_empty')}</p>
      ) : (
        <ul className="inbox-panel-list">
          {inboxes.map((inbox) => (
            <li key={inbox.inboxId} data-testid="inbox-panel-item">
              <LinkField
                link={absoluteLink(inbox.link)}
                label={inbox.title}
                testId={`inbox-link-${inbox.slug}`}
              />
            </li>
          ))}
        </ul>
      )}
      <p className="inbox-panel-actions">
        <Link to={manage} data-testid="inbox-panel-manage">
          {inboxes.length === 0
            ? t('uploader:receive.inbox_panel_create')
            : t('uploader:receive.inbox_panel_manage')}
        </Link>
        {' · '}
        <Link to="/request-files">{t('uploader:receive.inbox_panel_request')}</Link>
      </p>
    </section>
  );
}
