import type { InboxView } from '@ferry/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useDescribeError } from '../../hooks/use-describe-error';
import { useUserState } from '../../hooks/use-user-state';
import { PRODUCT_NAME } from '../../lib/config';
import { deleteInbox, getInbox, updateInbox } from '../../lib/inbox-api';
import { ActionError, ConfirmButton } from '../dashboard/transfers/confirm-button';
import { useToast } from '../toasts/toast-context';
import { InboxFacts } from './inbox-facts';
import { InboxForm } from './inbox-form';
import { type InboxCaps, inboxUpdateOf } from './inbox-form-state';
import { InboxSwitch } from './inbox-switch';
import { InboxWidgets } from './inbox-widgets';
import { INBOXES_PATH } from './paths';
import { useInboxCaps, useInboxKeys, useInboxList, useRefreshInboxes } from './use-inboxes';
import './inboxes.css';

/** The inbox's state at the top of its page: on/off, address, default mark, uploads. */
function InboxSummary({ inbox }: { inbox: InboxView }) {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const client = useQueryClient();
  const keys = useInboxKeys();
  const refresh = useRefreshInboxes();
  const makeDefault = useMutation({
    mutationFn: () => updateInbox(inbox.inboxId, { isDefault: true }),
    onSuccess: async (saved) => {
      client.setQueryData(keys.inbox(saved.inboxId), saved);
      toast.show(t('account:inboxes.default_done'), 'success');
      await refresh();
    },
  });
  return (
    <section className="panel dashboard-card" aria-labelledby="inbox-title">
      <div className="inbox-card-head">
        <h1 id="inbox-title" className="panel-title" data-testid="inbox-heading">
          {inbox.title}
        </h1>
        <InboxSwitch inbox={inbox} testId="inbox-switch" />
      </div>
      <InboxFacts inbox={inbox} />
      {!inbox.isDefault && (
        <div>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={makeDefault.isPending}
            onClick={() => makeDefault.mutate()}
            data-testid="inbox-make-default"
          >
            {t('account:inboxes.make_default')}
          </button>
          <p className="field-hint">{t('account:inboxes.default_hint')}</p>
          <ActionError
            error={makeDefault.error ? describe(makeDefault.error) : null}
            testId="inbox-make-default-error"
          />
        </div>
      )}
    </section>
  );
}

function InboxEditor({ inbox, caps }: { inbox: InboxView; caps: InboxCaps }) {
  const { t } = useTranslation();
  const toast = useToast();
  const client = useQueryClient();
  const keys = useInboxKeys();
  const refresh = useRefreshInboxes();
  const user = useUserState();
  // Each save starts the form again from the server's answer (the switch and "make default" leave it alone).
  const [saved, setSaved] = useState({ inbox, version: 0 });
  return (
    <InboxForm
      key={saved.version}
      caps={caps}
      original={saved.inbox}
      ownerName={user.profile?.info.firstname ?? null}
      submitLabel={t('account:inboxes.save')}
      onSave={async (draft) => {
        const patch = inboxUpdateOf(draft, saved.inbox, caps);
        const answer = Object.keys(patch).length > 0 ? await updateInbox(inbox.inboxId, patch) : saved.inbox;
        client.setQueryData(keys.inbox(answer.inboxId), answer);
        setSaved((s) => ({ inbox: answer, version: s.version + 1 }));
        toast.show(t('account:inboxes.saved'), 'success');
        await refresh();
      }}
    />
  );
}

function DeleteInbox({ inbox }: { inbox: InboxView }) {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const navigate = useNavigate();
  const client = useQueryClient();
  const keys = useInboxKeys();
  const refresh = useRefreshInboxes();
  const remove = useMutation({
    mutationFn: () => deleteInbox(inbox.inboxId),
    onSuccess: async () => {
      client.removeQueries({ queryKey: keys.inbox(inbox.inboxId) });
      toast.show(t('account:inboxes.deleted'), 'success');
      await refresh();
      await navigate(INBOXES_PATH);
    },
  });
  return (
    <section className="panel dashboard-card" aria-labelledby="inbox-delete">
      <h2 id="inbox-delete" className="section-title">
        {t('account:inboxes.delete_title')}
      </h2>
      <p className="field-hint">{t('account:inboxes.delete_hint')}</p>
      <div>
        <ConfirmButton
          label={t('account:inboxes.delete')}
          question={t('account:inboxes.delete_confirm', { title: inbox.title })}
          testId="inbox-delete"
          disabled={remove.isPending}
          onConfirm={() => remove.mutate()}
        />
      </div>
      <ActionError error={remove.error ? describe(remove.error) : null} testId="inbox-delete-error" />
    </section>
  );
}

/** `/dashboard/admin/inboxes/:inboxId`: the inbox's state and address, its settings, its widgets, delete. */
export function InboxDetailPage({ inboxId }: { inboxId: string }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const keys = useInboxKeys();
  const query = useQuery({
    queryKey: keys.inbox(inboxId),
    queryFn: ({ signal }) => getInbox(inboxId, signal),
  });
  const list = useInboxList();
  const caps = useInboxCaps(list.data);
  const inbox = query.data;
  const error = query.error ?? list.error;
  return (
    <div className="dashboard-page inboxes-page" data-testid="page-inbox">
      <title>{`${inbox?.title ?? t('account:dashboard.menu_inboxes')} · ${PRODUCT_NAME}`}</title>
      <p>
        <Link to={INBOXES_PATH} data-testid="inbox-back">
          {t('account:inboxes.back')}
        </Link>
      </p>
      {(query.isPending || list.isPending) && !error && (
        <p className="muted" role="status" aria-busy="true" data-testid="inbox-loading">
          {t('account:loading')}
        </p>
      )}
      {error && (
        <div className="notice notice-error" role="alert" data-testid="inbox-load-error">
          <p>{describe(error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => {
              void query.refetch();
              void list.refetch();
            }}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {inbox && caps && (
        <>
          <InboxSummary inbox={inbox} />
          <InboxEditor inbox={inbox} caps={caps} />
          <InboxWidgets inboxId={inbox.inboxId} enabled={inbox.enabled} />
          <DeleteInbox inbox={inbox} />
        </>
      )}
    </div>
  );
}
