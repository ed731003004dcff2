import { truncateFileName } from '@ferry/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { AlertIcon } from '../../components/icons';
import { formatSize } from '../../lib/format';
import type { PendingState } from './use-pending-transfer';

const SHOWN_MISSING = 5;

/**
 * Offers to resume an unfinished transfer: the same files added again are re-attached and their uploads go
 * on from where they stopped. Lists what is still missing; "discard" forgets the transfer. `children` (the
 * sender's code, when the transfer waits for it) can be dealt with before the files are back.
 */
export function ResumeBanner({
  state,
  onDiscard,
  onFinish,
  children,
}: {
  state: PendingState;
  onDiscard: () => void;
  onFinish: () => void;
  children?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const total = state.pending.files.length;
  const ready = total - state.missing.length;
  const shown = state.missing.slice(0, SHOWN_MISSING);
  return (
    <section
      className="banner banner-warning"
      data-testid="resume-banner"
      aria-labelledby="resume-banner-title"
    >
      <AlertIcon className="banner-icon" />
      <div className="banner-body">
        <h2 id="resume-banner-title" className="banner-title">
          {t('uploader:resume_title')}
        </h2>
        {state.missing.length > 0 ? (
          <>
            <p>{t('uploader:resume_text')}</p>
            <p className="banner-progress" aria-live="polite">
              {t('uploader:resume_found', { ready, count: total })}
            </p>
            <ul className="banner-list">
              {shown.map((f) => (
                <li key={f.id} title={f.relativePath ?? f.name}>
                  {truncateFileName(f.name)}{' '}
                  <span className="muted">{formatSize(f.size, i18n.language)}</span>
                </li>
              ))}
              {state.missing.length > SHOWN_MISSING && (
                <li className="muted">
                  {t('uploader:resume_more', { count: state.missing.length - SHOWN_MISSING })}
                </li>
              )}
            </ul>
          </>
        ) : (
          <p>{t('uploader:resume_all_uploaded')}</p>
        )}
        {state.pending.verification?.type === 'S1' && state.pending.verification.recipients.length > 0 && (
          <p className="banner-recipients" data-testid="resume-recipients">
            {t('uploader:resume_recipients', { list: state.pending.verification.recipients.join(', ') })}
          </p>
        )}
        {children}
        <div className="banner-actions">
          {state.missing.length === 0 && (
            <button
              type="button"
              className="button button-primary"
              data-testid="resume-transfer"
              onClick={onFinish}
            >
              {t('uploader:resume_finish')}
            </button>
          )}
          <button
            type="button"
            className="button button-secondary"
            data-testid="resume-discard"
            onClick={onDiscard}
          >
            {t('uploader:resume_discard')}
          </button>
        </div>
      </div>
    </section>
  );
}
