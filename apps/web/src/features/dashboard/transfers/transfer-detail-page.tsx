import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { PRODUCT_NAME } from '../../../lib/config';
import { getTransferDetail } from '../../../lib/dashboard-api';
import { formatDate, formatDateTime, formatSize } from '../../../lib/format';
import { ReceivedUpload } from '../../receive/received-upload';
import { absoluteLink, LinkField } from '../../uploader/done-step';
import { TransferClone } from './transfer-clone';
import { TransferEvents } from './transfer-events';
import { TransferFiles } from './transfer-files';
import { displayTransferName, isSentAndStored } from './transfer-labels';
import { TransferLinkPreview } from './transfer-link-preview';
import { TransferRecipients } from './transfer-recipients';
import { TransferSales } from './transfer-sales';
import { TransferSettings } from './transfer-settings';
import { detailKey } from './use-transfer-action';
import './transfers.css';

/** How often a clone's page asks whether its files are copied. */
export const CLONING_POLL_MS = 1000;

/** `/dashboard/transfers/:id`: one transfer's files, recipients, history and the actions on it. */
export function TransferDetailPage({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const query = useQuery({
    queryKey: detailKey(id),
    queryFn: ({ signal }) => getTransferDetail(id, signal),
    // A clone's files are being copied: the page follows until it is ready.
    refetchInterval: (q) => (q.state.data?.status === 'CLONING' ? CLONING_POLL_MS : false),
  });
  const transfer = query.data;
  const title = transfer
    ? (displayTransferName(transfer.name) ?? t('account:transfers.untitled', { count: transfer.fileCount }))
    : t('account:transfer.title');
  return (
    <div className="dashboard-page transfers-page" data-testid="page-transfer">
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <p>
        <Link to="/dashboard/transfers" data-testid="back-to-list">
          {t('account:transfer.back')}
        </Link>
      </p>
      {query.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="transfer-loading">
          {t('account:loading')}
        </p>
      )}
      {query.error && (
        <div className="notice notice-error" role="alert" data-testid="transfer-error">
          <p>{describe(query.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void query.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {transfer && (
        <>
          <section className="panel dashboard-card" aria-labelledby="transfer-title">
            <h1
              id="transfer-title"
              className="panel-title"
              title={transfer.name ?? undefined}
              data-testid="transfer-title"
            >
              {title}
            </h1>
            <p className="muted" data-testid="transfer-summary">
              {[
                t(`account:transfers.type_${transfer.type}`),
                t(`account:transfers.status_${transfer.statusLabel}`, { defaultValue: transfer.statusLabel }),
                formatSize(transfer.totalSize, i18n.language),
                transfer.expired
                  ? t('account:transfers.expired')
                  : t('account:transfers.expires_on', {
                      date: formatDate(transfer.expiresAt, i18n.language),
                    }),
                t('account:transfers.downloads', { count: transfer.downloadCount }),
              ].join(' · ')}
            </p>
            {transfer.availableFrom && transfer.status === 'PENDING' && (
              <p className="notice" data-testid="transfer-opens">
                {t('account:transfer.opens_on', {
                  date: formatDateTime(transfer.availableFrom, i18n.language),
                })}
              </p>
            )}
            {transfer.customLink && (
              <p className="muted" data-testid="transfer-custom-link">
                {t('account:transfer.custom_link', { link: transfer.customLink })}
              </p>
            )}
            {transfer.status === 'CLONING' && (
              <p className="notice" role="status" aria-live="polite" data-testid="transfer-cloning">
                {t('account:transfer.cloning')}
              </p>
            )}
            {transfer.clonedFrom && (
              <p className="muted" data-testid="transfer-cloned-from">
                <Link to={`/dashboard/transfers/${transfer.clonedFrom}`}>
                  {t('account:transfer.cloned_from')}
                </Link>
              </p>
            )}
            {isSentAndStored(transfer) && (
              <>
                {/* The transfer's own link (an S2 link to share; for S1, the link beside the personal ones). */}
                <div className="field">
                  <LinkField
                    link={absoluteLink(transfer.link)}
                    label={t('uploader:link_label')}
                    testId="transfer-detail-link"
                  />
                </div>
                <div className="transfer-actions">
                  <TransferClone transfer={transfer} />
                </div>
              </>
            )}
          </section>
          <ReceivedUpload transfer={transfer} />
          <TransferSettings transfer={transfer} />
          <TransferSales transfer={transfer} />
          <TransferLinkPreview transfer={transfer} />
          <TransferFiles transfer={transfer} />
          <TransferRecipients transfer={transfer} />
          <TransferEvents transfer={transfer} />
        </>
      )}
    </div>
  );
}
