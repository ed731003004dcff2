import type { ReceiveRecipientStatus, ReceiveRequestView } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, CheckIcon } from '../../components/icons';
import { withTexts } from '../../i18n/texts';
import { formatDateTime } from '../../lib/format';
import { getReceiveRequest } from '../../lib/receive-api';
import { absoluteLink, LinkField } from '../uploader/done-step';
import {
  DELIVERY_POLL_LIMIT_MS,
  DELIVERY_POLL_MS,
  DELIVERY_TONE,
  DeliveryIcon,
  isFinalDelivery,
} from '../uploader/sent-step';

// The QR code's encoder is fetched only when a request's link is shown.
const QrCode = lazy(withTexts(() => import('../../components/qr-code').then((m) => ({ default: m.QrCode }))));

function allFinal(recipients: readonly ReceiveRecipientStatus[]): boolean {
  return recipients.length > 0 && recipients.every((r) => isFinalDelivery(r.delivery));
}

function AskedRow({ recipient }: { recipient: ReceiveRecipientStatus }) {
  const { t, i18n } = useTranslation();
  const tone = DELIVERY_TONE[recipient.delivery];
  return (
    <li
      className={`recipient-row tone-${tone}`}
      data-testid="request-recipient"
      data-email={recipient.email}
      data-delivery={recipient.delivery}
    >
      <span className="recipient-email" title={recipient.email}>
        {recipient.email}
      </span>
      <span className={`status status-${tone}`}>
        <DeliveryIcon state={recipient.delivery} /> {t(`uploader:delivery_${recipient.delivery}`)}
      </span>
      {recipient.error && tone !== 'ok' && (
        <span className="recipient-error">
          {t(`uploader:delivery_${recipient.delivery}_detail`, { error: recipient.error })}
        </span>
      )}
      {recipient.uploadedAt && (
        <span className="recipient-downloaded">
          {t('uploader:receive.recipient_uploaded', {
            date: formatDateTime(recipient.uploadedAt, i18n.language),
          })}
        </span>
      )}
    </li>
  );
}

/**
 * Step 2 of /request-files: for a link (S2) the request's address with a copy button and a QR code; for S1
 * each asked person's mail as the server reports it (asked every few seconds until every mail is final, two
 * minutes at most), and the request's own page. "New request" resets the form (spec §4).
 */
export function RequestResult({
  created,
  onNewRequest,
  pollMs = DELIVERY_POLL_MS,
  pollLimitMs = DELIVERY_POLL_LIMIT_MS,
}: {
  created: ReceiveRequestView;
  onNewRequest: () => void;
  pollMs?: number;
  pollLimitMs?: number;
}) {
  const { t, i18n } = useTranslation();
  const s1 = created.linkMode === 'S1';
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!s1) return;
    const timer = setTimeout(() => setTimedOut(true), pollLimitMs);
    return () => clearTimeout(timer);
  }, [s1, pollLimitMs]);
  const query = useQuery({
    queryKey: ['receive-request', created.requestId],
    queryFn: ({ signal }) => getReceiveRequest(created.requestId, signal),
    initialData: created,
    initialDataUpdatedAt: 0,
    enabled: s1,
    refetchInterval: (q) =>
      timedOut || (q.state.data && allFinal(q.state.data.recipients)) ? false : pollMs,
    retry: false,
  });
  const request = query.data;
  const link = absoluteLink(request.link);
  const failed = request.recipients.filter((r) => r.delivery === 'rejected' || r.delivery === 'failed');
  const facts = t('uploader:receive.result_facts', {
    date: formatDateTime(request.expiresAt, i18n.language),
  });

  return (
    <section className="done-step request-result" aria-labelledby="request-result-title">
      <div className={`done-badge${failed.length > 0 ? ' has-problem' : ''}`} aria-hidden="true">
        <CheckIcon width={32} height={32} />
      </div>
      <h2
        id="request-result-title"
        className="panel-title"
        data-testid="request-result"
        data-request-id={request.requestId}
      >
        {s1
          ? t('uploader:receive.result_title_S1', { count: request.recipients.length })
          : t('uploader:receive.result_title_S2')}
      </h2>
      <p className="muted">{facts}</p>
      {s1 && (
        <>
          <ul
            className="recipient-list"
            aria-label={t('uploader:receive.recipients_status')}
            aria-live="polite"
          >
            {request.recipients.map((r) => (
              <AskedRow key={r.email} recipient={r} />
            ))}
          </ul>
          {failed.length > 0 && (
            <p className="notice notice-error" role="alert">
              <AlertIcon /> {t('uploader:delivery_problem', { count: failed.length })}
            </p>
          )}
          {!allFinal(request.recipients) && (
            <p className="field-hint">
              {timedOut || query.isError ? t('uploader:delivery_stopped') : t('uploader:delivery_checking')}
            </p>
          )}
        </>
      )}
      <LinkField
        link={link}
        label={t(s1 ? 'uploader:receive.link_label_S1' : 'uploader:receive.link_label_S2')}
        testId="request-link"
      />
      {s1 && <p className="field-hint">{t('uploader:receive.link_hint_S1')}</p>}
      {!s1 && (
        <div className="request-qr">
          <Suspense fallback={null}>
            <QrCode text={link} label={t('uploader:receive.qr_label')} pixels={168} testId="request-qr" />
          </Suspense>
        </div>
      )}
      <div className="panel-actions">
        <a className="button button-secondary" href={link} target="_blank" rel="noopener">
          {t('uploader:receive.open_page')}
        </a>
        <button
          type="button"
          className="button button-primary"
          data-testid="request-new"
          onClick={onNewRequest}
        >
          {t('uploader:receive.new_request')}
        </button>
      </div>
    </section>
  );
}
