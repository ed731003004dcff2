import {
  OPEN_GRAPH_DESCRIPTION_MAX,
  OPEN_GRAPH_TITLE_MAX,
  type TransferDetail,
  type TransferOpenGraphView,
} from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LabelledField } from '../../../components/labelled-field';
import { TRANSFERS_QUERY_KEY } from '../../../lib/dashboard-api';
import { getLinkPreview, saveLinkPreview } from '../../../lib/link-preview-api';
import { ActionError } from './confirm-button';
import { useTransferAction } from './use-transfer-action';

/**
 * The link preview of the transfer's download page (spec §3 open-graph customization): a title and a description
 * of the owner's choosing, on a paid plan. Shown to the owner only; empty fields go back to the defaults.
 */
export function TransferLinkPreview({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation();
  const id = transfer.transferId;
  const query = useQuery({
    queryKey: [TRANSFERS_QUERY_KEY, 'open-graph', id],
    queryFn: ({ signal }) => getLinkPreview(id, signal),
  });
  if (!query.data?.editable || transfer.status === 'DELETED' || transfer.status === 'RETAINED') return null;
  return (
    <section
      className="panel dashboard-card transfer-section"
      aria-labelledby="transfer-link-preview-title"
      data-testid="transfer-link-preview"
    >
      <h2 id="transfer-link-preview-title" className="section-title">
        {t('account:transfer.link_preview_title')}
      </h2>
      <p className="muted">{t('account:transfer.link_preview_intro')}</p>
      {(transfer.passwordProtected || transfer.type !== 'S2') && (
        <p className="notice" data-testid="link-preview-hidden">
          {t('account:transfer.link_preview_hidden')}
        </p>
      )}
      {query.data.allowed ? (
        <LinkPreviewForm id={id} view={query.data} />
      ) : (
        <p className="notice" data-testid="link-preview-paid">
          {t('account:transfer.link_preview_paid')}
        </p>
      )}
    </section>
  );
}

function LinkPreviewForm({ id, view }: { id: string; view: TransferOpenGraphView }) {
  const { t } = useTranslation();
  const action = useTransferAction(id, 'link_preview');
  const [title, setTitle] = useState(view.title ?? '');
  const [description, setDescription] = useState(view.description ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.run(() => saveLinkPreview(id, { title: title.trim(), description: description.trim() }));
  };
  return (
    <form onSubmit={submit} data-testid="link-preview-form">
      <LabelledField label={t('account:transfer.link_preview_title_label')}>
        {(field) => (
          <input
            {...field}
            type="text"
            value={title}
            maxLength={OPEN_GRAPH_TITLE_MAX}
            autoComplete="off"
            onChange={(event) => setTitle(event.target.value)}
          />
        )}
      </LabelledField>
      <LabelledField label={t('account:transfer.link_preview_description_label')}>
        {(field) => (
          <input
            {...field}
            type="text"
            value={description}
            maxLength={OPEN_GRAPH_DESCRIPTION_MAX}
            autoComplete="off"
            onChange={(event) => setDescription(event.target.value)}
          />
        )}
      </LabelledField>
      <button type="submit" className="button button-secondary button-small" disabled={action.pending}>
        {t('account:transfer.save')}
      </button>
      <ActionError error={action.error} testId="link-preview-error" />
    </form>
  );
}
