import type { RecipientDeliveryState, RecipientStatus, TransferSummary } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon, CheckIcon, ClockIcon } from '../../components/icons';
import { formatDateTime } from '../../lib/format';
import { getUploadState } from '../../lib/transfer-api';
import { absoluteLink, LinkField, TransferFacts } from './done-step';

/** How often the recipients' delivery is asked for, and for how long at most. */
export const DELIVERY_POLL_MS = 3000;
export const DELIVERY_POLL_LIMIT_MS = 2 * 60 * 1000;

/** Delivery states that will not change any more (`failed` is retried by the server). */
const FINAL: ReadonlySet<RecipientDeliveryState> = new Set(['sent', 'rejected', 'in_doubt']);

export function isFinalDelivery(state: RecipientDeliveryState): boolean {
  return FINAL.has(state);
}

export function allDeliveriesFinal(recipients: readonly RecipientStatus[]): boolean {
  return recipients.length > 0 && recipients.every((r) => isFinalDelivery(r.delivery));
}

/** How each delivery state looks (also the asked people of a file request). */
export const DELIVERY_TONE: Record<RecipientDeliveryState, 'ok' | 'warn' | 'error' | 'pending'> = {
  waiting: 'pending',
  queued: 'pending',
  sent: 'ok',
  failed: 'warn',
  rejected: 'error',
  in_doubt: 'warn',
};

export function DeliveryIcon({ state }: { state: RecipientDeliveryState }) {
  const tone = DELIVERY_TONE[state];
  if (tone === 'ok') return <CheckIcon width={16} height={16} />;
  if (tone === 'pending') return <ClockIcon width={16} height={16} />;
  return <AlertIcon width={16} height={16} />;
}

function RecipientRow({ recipient }: { recipient: RecipientStatus }) {
  const { t, i18n } = useTranslation();
  const tone = DELIVERY_TONE[recipient.delivery];
  return (
    <li
      className={`recipient-row tone-${tone}`}
      data-testid="recipient-status"
      data-email={recipient.email}
      data-delivery={recipient.delivery}
    >
      <span className="recipient-email" title={recipient.email}>
        {recipient.email}
      </span>
      <span className={`status status-${tone === 'pending' ? 'pending' : tone}`}>
        <DeliveryIcon state={recipient.delivery} /> {t(`uploader:delivery_${recipient.delivery}`)}
      </span>
      {recipient.error && tone !== 'ok' && (
        <span className="recipient-error" data-testid="recipient-error">
          {t(`uploader:delivery_${recipient.delivery}_detail`, { error: recipient.error })}
        </span>
      )}
      {recipient.downloadedAt && (
        <span className="recipient-downloaded">
          {t('uploader:recipient_downloaded', {
            date: formatDateTime(recipient.downloadedAt, i18n.language),
          })}
        </span>
      )}
    </li>
  );
}

/**
 * Step 4 of an e-mail transfer: "Sent to N recipients", each recipient's delivery as the server reports it
 * (asked every few seconds until every e-mail is final, for two minutes at most), and the sender's own link.
 */
export function SentStep({
  summary,
  uploadToken,
  onSendAnother,
  pollMs = DELIVERY_POLL_MS,
  pollLimitMs = DELIVERY_POLL_LIMIT_MS,
}: {
  summary: TransferSummary;
  uploadToken: string;
  onSendAnother: () => void;
  pollMs?: number;
  pollLimitMs?: number;
}) {
  const { t } = useTranslation();
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setTimedOut(true), pollLimitMs);
    return () => clearTimeout(timer);
  }, [pollLimitMs]);
  const state = useQuery({
    queryKey: ['upload-state', summary.transferId],
    queryFn: () => getUploadState(summary.transferId, uploadToken),
    initialData: summary,
    initialDataUpdatedAt: 0,
    refetchInterval: (query) =>
      timedOut || (query.state.data && allDeliveriesFinal(query.state.data.recipients)) ? false : pollMs,
    retry: false,
  });
  const current = state.data;
  const recipients = current.recipients;
  const failed = recipients.filter((r) => r.delivery === 'rejected' || r.delivery === 'failed');
  const final = allDeliveriesFinal(recipients);

  return (
    <section className="done-step sent-step" aria-labelledby="done-title">
      <div className={`done-badge${failed.length > 0 ? ' has-problem' : ''}`} aria-hidden="true">
        <CheckIcon width={32} height={32} />
      </div>
      <h2 id="done-title" className="panel-title" data-testid="send-status" data-state="sent">
        {t('uploader:sent_title', { count: recipients.length })}
      </h2>
      <TransferFacts summary={current} />
      <ul className="recipient-list" aria-label={t('uploader:delivery_label')} aria-live="polite">
        {recipients.map((r) => (
          <RecipientRow key={r.email} recipient={r} />
        ))}
      </ul>
      {failed.length > 0 && (
        <p className="notice notice-error" role="alert" data-testid="delivery-problem">
          <AlertIcon /> {t('uploader:delivery_problem', { count: failed.length })}
        </p>
      )}
      {!final && (
        <p className="field-hint" data-testid="delivery-progress">
          {timedOut || state.isError ? t('uploader:delivery_stopped') : t('uploader:delivery_checking')}
        </p>
      )}
      <LinkField link={absoluteLink(current.link)} label={t('uploader:own_link_label')} />
      <p className="field-hint">{t('uploader:own_link_hint')}</p>
      <div className="panel-actions">
        <button
          type="button"
          className="button button-primary"
          data-testid="send-another"
          onClick={onSendAnother}
        >
          {t('uploader:send_another')}
        </button>
      </div>
    </section>
  );
}
