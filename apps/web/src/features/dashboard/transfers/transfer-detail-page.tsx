import { formatSize } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { PRODUCT_NAME } from '../../../lib/config';
import { getTransferDetail } from '../../../lib/dashboard-api';
import { formatDate } from '../../../lib/format';
import { TransferEvents } from './transfer-events';
import { TransferFiles } from './transfer-files';
import { displayTransferName } from './transfer-labels';
import { TransferRecipients } from './transfer-recipients';
import { TransferSettings } from './transfer-settings';
import { detailKey } from './use-transfer-action';
import './transfers.css';

/** `/dashboard/transfers/:id`: one transfer's files, recipients, history and the actions on it. */
export function TransferDetailPage({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const query = useQuery({ queryKey: detailKey(id), queryFn: ({ signal }) => getTransferDetail(id, signal) });
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
                formatSize(transfer.totalSize),
                transfer.expired
                  ? t('account:transfers.expired')
                  : t('account:transfers.expires_on', {
                      date: formatDate(transfer.expiresAt, i18n.language),
                    }),
                t('account:transfers.downloads', { count: transfer.downloadCount }),
              ].join(' · ')}
            </p>
          </section>
          <TransferSettings transfer={transfer} />
          <TransferFiles transfer={transfer} />
          <TransferRecipients transfer={transfer} />
          <TransferEvents transfer={transfer} />
        </>
      )}
    </div>
  );
}
