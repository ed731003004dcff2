import type { ModerationCase, TransferStatus } from '@ferry/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDateTime, formatSize } from '../../lib/format';
import { decideModeration, getModerationCase, type ModerationAction } from '../../lib/moderation-api';
import { useToast } from '../toasts/toast-context';
import { ConfirmDialog } from './confirm-dialog';
import { OPERATOR_KEY, operatorKeys } from './operator-keys';

const HOLDABLE: readonly TransferStatus[] = ['UPLOADING', 'ENABLED', 'SCANNING', 'PENDING'];
const RETAINABLE: readonly TransferStatus[] = ['ENABLED', 'MODERATING', 'SCANNING', 'PENDING', 'DISABLED'];

/** The decisions this case allows now (the server checks again). */
export function actionsFor(c: ModerationCase): ModerationAction[] {
  const actions: ModerationAction[] = [];
  const held = c.hold !== null || c.status === 'MODERATING';
  if (!held && HOLDABLE.includes(c.status)) actions.push('hold');
  if (held) actions.push('release');
  if (RETAINABLE.includes(c.status)) actions.push('retain');
  if (c.reports.length > 0) actions.push('dismiss');
  return actions;
}

/** One transfer of the queue: what it holds, who reported it and why, and the decisions (each confirmed first). */
export function ModerationCaseDetail({ transferId, onClose }: { transferId: string; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const describe = useDescribeError();
  const found = useQuery({
    queryKey: operatorKeys.moderationCase(transferId),
    queryFn: ({ signal }) => getModerationCase(transferId, signal),
  });
  const c = found.data;

  return (
    <section className="operator-detail" aria-labelledby={`${id}-title`} data-testid="moderation-case">
      <div className="operator-detail-head">
        <h2 id={`${id}-title`} className="operator-title">
          {c?.name ?? transferId}
        </h2>
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={onClose}
          data-testid="moderation-case-close"
        >
          {t('operator:close')}
        </button>
      </div>
      {found.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {found.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(found.error)}
        </p>
      )}
      {c && (
        <>
          <dl className="operator-facts">
            <dt>{t('operator:moderation_col_transfer')}</dt>
            <dd>
              {c.transferId} · {t(`account:transfers.type_${c.type}`)}
            </dd>
            <dt>{t('operator:col_status')}</dt>
            <dd data-testid="moderation-case-status">{c.status}</dd>
            {c.hold && (
              <>
                <dt>{t('operator:moderation_held')}</dt>
                <dd data-testid="moderation-case-hold">
                  {t(`operator:moderation_hold_${c.hold.source}`)} · {c.hold.by} ·{' '}
                  {formatDateTime(c.hold.at, i18n.language)}
                </dd>
              </>
            )}
            <dt>{t('operator:moderation_sender')}</dt>
            <dd>{[c.senderName, c.senderEmail].filter(Boolean).join(' · ') || '–'}</dd>
            <dt>{t('operator:moderation_owner')}</dt>
            <dd>{c.ownerEmail ?? t('operator:moderation_anonymous')}</dd>
            <dt>{t('operator:moderation_recipients')}</dt>
            <dd>{c.recipientCount}</dd>
            <dt>{t('operator:moderation_created')}</dt>
            <dd>{formatDateTime(c.createdAt, i18n.language)}</dd>
            <dt>{t('operator:moderation_sent')}</dt>
            <dd>{c.sentAt ? formatDateTime(c.sentAt, i18n.language) : t('operator:moderation_not_sent')}</dd>
            <dt>{t('operator:moderation_message')}</dt>
            <dd className="operator-pre">{c.message ?? '–'}</dd>
          </dl>
          <h3 className="operator-subtitle">{t('operator:moderation_files_title')}</h3>
          <ul className="operator-list" data-testid="moderation-case-files">
            {c.files.map((f) => (
              <li key={f.id}>
                {f.name} · {formatSize(f.size, i18n.language)}
                {f.sha256 && <span className="muted"> · SHA-256 {f.sha256}</span>}
              </li>
            ))}
          </ul>
          <h3 className="operator-subtitle">
            {t('operator:moderation_reports_title', { count: c.reports.length })}
          </h3>
          {c.reports.length === 0 ? (
            <p className="muted">{t('operator:moderation_no_reports')}</p>
          ) : (
            <ul className="operator-list" data-testid="moderation-case-reports">
              {c.reports.map((r) => (
                <li key={r.id}>
                  <strong>{t(`downloader:report_reasons.${r.reason}`)}</strong> ·{' '}
                  {formatDateTime(r.at, i18n.language)}
                  {r.reporterEmail && ` · ${r.reporterEmail}`}
                  {r.details && <p className="operator-pre">{r.details}</p>}
                </li>
              ))}
            </ul>
          )}
          <Decisions moderationCase={c} />
        </>
      )}
    </section>
  );
}

function Decisions({ moderationCase: c }: { moderationCase: ModerationCase }) {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const client = useQueryClient();
  const [asking, setAsking] = useState<ModerationAction | null>(null);
  const [busy, setBusy] = useState(false);

  const confirm = async (action: ModerationAction) => {
    setBusy(true);
    try {
      const updated = await decideModeration(c.transferId, action);
      client.setQueryData(operatorKeys.moderationCase(c.transferId), updated);
      void client.invalidateQueries({
        predicate: (q) => q.queryKey[0] === OPERATOR_KEY && q.queryKey[1] !== 'moderation-case',
      });
      toast.show(t(`operator:moderation_${action}_done`), 'success');
      setAsking(null);
    } catch (error) {
      toast.show(describe(error), 'error');
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="operator-actions">
      {actionsFor(c).map((action) => (
        <button
          key={action}
          type="button"
          className={`button ${action === 'retain' ? 'button-primary' : 'button-secondary'}`}
          onClick={() => setAsking(action)}
          data-testid={`moderation-${action}`}
        >
          {t(`operator:moderation_${action}`)}
        </button>
      ))}
      {asking && (
        <ConfirmDialog
          title={t(`operator:moderation_${asking}_title`)}
          text={t(`operator:moderation_${asking}_text`)}
          confirmLabel={t(`operator:moderation_${asking}`)}
          busy={busy}
          onConfirm={() => void confirm(asking)}
          onCancel={() => setAsking(null)}
          testId="moderation-confirm"
        />
      )}
    </div>
  );
}
