import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { useUserState } from '../../hooks/use-user-state';
import { PRODUCT_NAME } from '../../lib/config';
import { createInbox } from '../../lib/inbox-api';
import { useToast } from '../toasts/toast-context';
import { InboxForm } from './inbox-form';
import { inboxCreateOf } from './inbox-form-state';
import { INBOXES_PATH, inboxPath } from './paths';
import { useInboxCaps, useInboxKeys, useInboxList, useRefreshInboxes } from './use-inboxes';
import './inboxes.css';

/** `/dashboard/admin/inboxes/new`: the form of a new inbox; once created, its page (widgets are added there). */
export function InboxNewPage() {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const toast = useToast();
  const navigate = useNavigate();
  const client = useQueryClient();
  const keys = useInboxKeys();
  const refresh = useRefreshInboxes();
  const list = useInboxList();
  const caps = useInboxCaps(list.data);
  const user = useUserState();
  return (
    <div className="dashboard-page inboxes-page" data-testid="page-inbox-new">
      <title>{`${t('account:inboxes.new_title')} · ${PRODUCT_NAME}`}</title>
      <p>
        <Link to={INBOXES_PATH} data-testid="inbox-back">
          {t('account:inboxes.back')}
        </Link>
      </p>
      <header className="dashboard-page-header">
        <h1 className="panel-title">{t('account:inboxes.new_title')}</h1>
        <p className="muted">{t('account:inboxes.new_intro')}</p>
      </header>
      {list.isPending && (
        <p className="muted" role="status" aria-busy="true">
          {t('account:loading')}
        </p>
      )}
      {list.error && (
        <div className="notice notice-error" role="alert" data-testid="inboxes-error">
          <p>{describe(list.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void list.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {list.data && !list.data.inboxUpload.allowed && (
        <p className="notice notice-warn" data-testid="inboxes-not-allowed">
          {t('account:inboxes.not_allowed')}
        </p>
      )}
      {caps && list.data?.inboxUpload.allowed && (
        <InboxForm
          caps={caps}
          original={null}
          ownerName={user.profile?.info.firstname ?? null}
          submitLabel={t('account:inboxes.create')}
          onSave={async (draft) => {
            const created = await createInbox(inboxCreateOf(draft, caps));
            client.setQueryData(keys.inbox(created.inboxId), created);
            await refresh();
            toast.show(t('account:inboxes.created'), 'success');
            await navigate(inboxPath(created.inboxId));
          }}
        />
      )}
    </div>
  );
}
