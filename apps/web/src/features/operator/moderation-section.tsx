import { type ModerationCase, TransferId } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { AlertIcon } from '../../components/icons';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { formatDateTime, formatSize } from '../../lib/format';
import { listModeration } from '../../lib/moderation-api';
import { ModerationCaseDetail } from './moderation-case';
import { operatorKeys } from './operator-keys';

/**
 * The moderation queue: transfers under review first, then those with open reports. One opens in detail
 * (`?case=<transferId>`), where it is held, released, retained or its reports dismissed; any transfer can be
 * opened by its id.
 */
export function ModerationSection() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const describe = useDescribeError();
  const [params, setParams] = useSearchParams();
  const selected = params.get('case');
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const queue = useQuery({
    queryKey: operatorKeys.moderation,
    queryFn: ({ signal }) => listModeration(signal),
  });

  const openCase = (transferId: string | null) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      if (transferId) next.set('case', transferId);
      else next.delete('case');
      return next;
    });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = typed.trim();
    if (!TransferId.safeParse(value).success) {
      setTypedError(t('operator:moderation_id_invalid'));
      return;
    }
    setTypedError(null);
    openCase(value);
  };

  return (
    <section aria-labelledby={`${id}-title`} data-testid="operator-moderation">
      <h2 id={`${id}-title`} className="operator-title">
        {t('operator:moderation_title')}
      </h2>
      {selected && <ModerationCaseDetail transferId={selected} onClose={() => openCase(null)} />}
      <form className="operator-search" onSubmit={submit} noValidate>
        <LabelledField label={t('operator:moderation_open_label')} error={typedError}>
          {(p) => (
            <input
              {...p}
              value={typed}
              onChange={(event) => setTyped(event.target.value)}
              autoComplete="off"
              data-testid="moderation-open-id"
            />
          )}
        </LabelledField>
        <button type="submit" className="button button-primary" data-testid="moderation-open-submit">
          {t('operator:moderation_open')}
        </button>
      </form>
      {queue.isError && (
        <p className="notice notice-error" role="alert">
          <AlertIcon /> {describe(queue.error)}
        </p>
      )}
      {queue.isPending && <p aria-busy="true">{t('operator:loading')}</p>}
      {queue.isSuccess && queue.data.cases.length === 0 && (
        <p data-testid="moderation-empty">{t('operator:moderation_empty')}</p>
      )}
      {queue.isSuccess && queue.data.cases.length > 0 && (
        <div className="operator-table-scroll">
          <table className="operator-table" data-testid="moderation-table">
            <thead>
              <tr>
                <th scope="col">{t('operator:moderation_col_transfer')}</th>
                <th scope="col">{t('operator:col_status')}</th>
                <th scope="col">{t('operator:moderation_col_reasons')}</th>
                <th scope="col">{t('operator:moderation_col_reporters')}</th>
                <th scope="col">{t('operator:moderation_col_since')}</th>
                <th scope="col">{t('operator:col_actions')}</th>
              </tr>
            </thead>
            <tbody>
              {queue.data.cases.map((c) => (
                <tr key={c.transferId} data-testid={`moderation-row-${c.transferId}`}>
                  <td>
                    <strong>{c.name ?? c.transferId}</strong>
                    <br />
                    <span className="muted">
                      {t('operator:moderation_files', {
                        count: c.fileCount,
                        size: formatSize(c.totalSize, i18n.language),
                      })}
                    </span>
                  </td>
                  <td>
                    {c.status}
                    {c.hold && (
                      <>
                        <br />
                        <span className="muted">{t(`operator:moderation_hold_${c.hold.source}`)}</span>
                      </>
                    )}
                  </td>
                  <td>{reasonsOf(c, t)}</td>
                  <td>{c.reporters}</td>
                  <td>{formatDateTime(sinceOf(c), i18n.language)}</td>
                  <td>
                    <button
                      type="button"
                      className="button button-small button-secondary"
                      onClick={() => openCase(c.transferId)}
                      aria-label={t('operator:moderation_open_case', { name: c.name ?? c.transferId })}
                      data-testid={`moderation-open-${c.transferId}`}
                    >
                      {t('operator:moderation_open')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** The distinct reasons of a case's open reports, in words. */
export function reasonsOf(c: ModerationCase, t: (key: string) => string): string {
  const reasons = [...new Set(c.reports.map((r) => r.reason))];
  return reasons.length > 0 ? reasons.map((r) => t(`downloader:report_reasons.${r}`)).join(', ') : '–';
}

/** Since when the case waits: its newest report, else its hold. */
function sinceOf(c: ModerationCase): string {
  return c.reports[0]?.at ?? c.hold?.at ?? c.createdAt;
}
