import type { TransferDetail } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { DownloadIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDateTime } from '../../lib/format';
import { getReceivedUpload } from '../../lib/receive-api';
import { absoluteLink } from '../uploader/done-step';
import './receive.css';

/**
 * On a received (S3) transfer's dashboard page: who uploaded it, through which request or inbox, their message
 * and answers (GET /api/receive/received/{id}), and the way to the files — the download page, which serves a
 * received transfer to its signed-in owner (or team manager) only.
 */
export function ReceivedUpload({
  transfer,
}: {
  transfer: Pick<TransferDetail, 'transferId' | 'link' | 'type'>;
}) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  const query = useQuery({
    queryKey: ['receive-received', transfer.transferId],
    queryFn: ({ signal }) => getReceivedUpload(transfer.transferId, signal),
    enabled: transfer.type === 'S3',
    retry: false,
  });
  if (transfer.type !== 'S3') return null;
  const view = query.data;
  const via = view
    ? view.point.viaPush
      ? t('uploader:receive.received_via_push')
      : view.point.widgetId
        ? t('uploader:receive.received_via_widget', { title: view.point.title ?? '' })
        : view.point.kind === 'request'
          ? t('uploader:receive.received_via_request', { title: view.point.title ?? view.point.id })
          : t('uploader:receive.received_via_inbox', { title: view.point.title ?? '' })
    : null;
  // An address typed on a receive page was never checked: it is shown as such, not as who sent the files.
  const email =
    view?.uploader.email &&
    (view.uploader.emailVerified
      ? view.uploader.email
      : t('uploader:receive.received_email_unverified', { email: view.uploader.email }));
  const who = view ? [view.uploader.name, email].filter(Boolean).join(' · ') : '';
  return (
    <section
      className="panel dashboard-card transfer-section received-upload"
      aria-labelledby="received-upload-title"
      data-testid="received-upload"
    >
      <h2 id="received-upload-title" className="section-title">
        {t('uploader:receive.received_title')}
      </h2>
      {query.isPending && (
        <p className="muted" role="status">
          {t('account:loading')}
        </p>
      )}
      {query.error && (
        <p className="notice notice-error" role="alert">
          {describe(query.error)}
        </p>
      )}
      {view && (
        <dl className="received-facts">
          <div>
            <dt>{t('uploader:receive.received_from')}</dt>
            <dd data-testid="received-from">{who || t('uploader:receive.received_anonymous')}</dd>
          </div>
          <div>
            <dt>{t('uploader:receive.received_through')}</dt>
            <dd data-testid="received-via">{via}</dd>
          </div>
          {view.receivedAt && (
            <div>
              <dt>{t('uploader:receive.received_at')}</dt>
              <dd>{formatDateTime(view.receivedAt, i18n.language)}</dd>
            </div>
          )}
          {view.uploader.message && (
            <div>
              <dt>{t('uploader:receive.received_message')}</dt>
              <dd className="received-message" data-testid="received-message">
                {view.uploader.message}
              </dd>
            </div>
          )}
          {view.uploader.answers.map((a) => (
            <div key={a.questionId} data-testid="received-answer">
              <dt>{a.label}</dt>
              <dd>{a.answer || '—'}</dd>
            </div>
          ))}
        </dl>
      )}
      <p>
        <a
          className="button button-primary button-small"
          href={absoluteLink(transfer.link)}
          data-testid="received-download"
        >
          <DownloadIcon /> {t('uploader:receive.received_download')}
        </a>
      </p>
    </section>
  );
}
