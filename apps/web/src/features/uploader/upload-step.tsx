import { truncateFileName } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { AlertIcon, CheckIcon, PauseIcon, PlayIcon } from '../../components/icons';
import { useDescribeError } from '../../hooks/use-describe-error';
import { ApiError } from '../../lib/api';
import { formatDuration, formatPercent, formatSize, formatSpeed } from '../../lib/format';
import type { FileProgress, UploadSnapshot } from './upload-engine';

function isIncomplete(error: unknown): boolean {
  return error instanceof ApiError && error.hasCode('UPLOAD_INCOMPLETE');
}

export function percentOf(done: number, total: number): number {
  if (total <= 0) return 100;
  return Math.min(100, Math.floor((done / total) * 100));
}

function FileStatus({ file }: { file: FileProgress }) {
  const { t, i18n } = useTranslation();
  if (file.checksumMismatch)
    return <span className="status status-error">{t('uploader:file_checksum_mismatch')}</span>;
  switch (file.status) {
    case 'uploaded':
      return (
        <span className="status status-ok">
          <CheckIcon width={16} height={16} /> {t('uploader:file_uploaded')}
        </span>
      );
    case 'failed':
      return <span className="status status-error">{t('uploader:file_failed')}</span>;
    case 'retrying':
      return <span className="status status-warn">{t('uploader:file_retrying')}</span>;
    case 'paused':
      return <span className="status">{t('uploader:file_paused')}</span>;
    case 'queued':
      return <span className="status">{t('uploader:file_queued')}</span>;
    default:
      return <span className="status">{formatPercent(percentOf(file.sent, file.size), i18n.language)}</span>;
  }
}

interface UploadStepProps {
  /** Any upload's snapshot (a transfer's or a receive upload's: the summary is not read here). */
  snapshot: UploadSnapshot<unknown> | null;
  /** False when a headline above (the e-mail transfer's status) already says where things stand. */
  titled?: boolean;
  onPause: () => void;
  onResume: () => void;
  onRetry: () => void;
  onRetryFile: (id: string) => void;
  onCancel: () => void;
}

/** Step 3: total and per-file progress, speed and time left, pause/resume, connection state and errors. */
export function UploadStep({
  snapshot,
  titled = true,
  onPause,
  onResume,
  onRetry,
  onRetryFile,
  onCancel,
}: UploadStepProps) {
  const { t, i18n } = useTranslation();
  const describe = useDescribeError();
  if (!snapshot) {
    return (
      <section className="upload-step" aria-busy="true">
        <h2 className={titled ? 'panel-title' : 'upload-subtitle'}>{t('uploader:preparing')}</h2>
        <progress
          className="progress progress-total"
          data-testid="progress-total"
          aria-label={t('uploader:progress_label')}
        />
      </section>
    );
  }
  const { phase, sentBytes, totalBytes } = snapshot;
  const percent = percentOf(sentBytes, totalBytes);
  const title = t(`uploader:phase_${phase}`);
  const mismatched = snapshot.files.filter((f) => f.checksumMismatch);
  const failed = snapshot.files.filter((f) => f.status === 'failed' && !f.checksumMismatch);
  let errorText: string | null = null;
  if (snapshot.error && mismatched.length === 0 && !isIncomplete(snapshot.error))
    errorText = describe(snapshot.error);
  else if (failed[0] && phase === 'failed') {
    errorText = t('uploader:files_failed', { count: failed.length, reason: describe(failed[0].error) });
  }

  let detail = '';
  if (phase === 'uploading' && snapshot.connection === 'online' && snapshot.bytesPerSecond !== null) {
    detail = formatSpeed(snapshot.bytesPerSecond, i18n.language);
    if (snapshot.secondsLeft !== null) {
      detail += ` · ${t('uploader:time_left', { time: formatDuration(snapshot.secondsLeft, i18n.language) })}`;
    }
  } else if (phase === 'finishing' && snapshot.hashedBytes < snapshot.hashTotalBytes) {
    detail = t('uploader:verifying', {
      percent: formatPercent(percentOf(snapshot.hashedBytes, snapshot.hashTotalBytes), i18n.language),
    });
  }

  return (
    <section className="upload-step" aria-labelledby="upload-step-title">
      <h2 id="upload-step-title" className={titled ? 'panel-title' : 'upload-subtitle'}>
        {title}
      </h2>
      <div className="progress-head">
        <span className="progress-percent" aria-hidden="true">
          {formatPercent(percent, i18n.language)}
        </span>
        <span className="progress-bytes">
          {t('uploader:bytes_of', {
            sent: formatSize(sentBytes, i18n.language),
            total: formatSize(totalBytes, i18n.language),
          })}
        </span>
      </div>
      <progress
        className="progress progress-total"
        data-testid="progress-total"
        max={100}
        value={percent}
        aria-label={t('uploader:progress_label')}
        aria-valuetext={t('uploader:progress_value', { percent })}
      />
      <p className="progress-detail" data-testid="progress-detail">
        {detail}
      </p>
      <p className="visually-hidden" aria-live="polite">
        {t('uploader:progress_announce', { percent: Math.floor(percent / 10) * 10, phase: title })}
      </p>
      {snapshot.connection !== 'online' && phase !== 'done' && (
        <p className="notice notice-warn" role="status" data-testid="connection-status">
          <AlertIcon />{' '}
          {t(
            snapshot.connection === 'offline'
              ? 'uploader:connection_offline'
              : 'uploader:connection_retrying',
          )}
        </p>
      )}
      {mismatched.length > 0 && (
        <div className="notice notice-error" role="alert" data-testid="checksum-error">
          <AlertIcon />
          <div>
            {mismatched.map((f) => (
              <p key={f.id}>{t('uploader:checksum_mismatch', { name: f.relativePath ?? f.name })}</p>
            ))}
          </div>
        </div>
      )}
      {errorText && (
        <p className="notice notice-error" role="alert" data-testid="upload-error">
          <AlertIcon /> {errorText}
        </p>
      )}

      <ul className="file-list file-list-progress" aria-label={t('uploader:selected_files')}>
        {snapshot.files.map((f) => (
          <li key={f.id} className={`file-row file-row-${f.status}`} data-testid={`upload-file-${f.id}`}>
            <span className="file-row-name" title={f.relativePath ?? f.name}>
              {truncateFileName(f.name)}
            </span>
            <span className="file-row-size">{formatSize(f.size, i18n.language)}</span>
            <FileStatus file={f} />
            <progress
              className="progress progress-file"
              max={100}
              value={percentOf(f.sent, f.size)}
              aria-hidden="true"
            />
            {f.status === 'failed' && !f.missingLocally && (
              <button
                type="button"
                className="button button-small button-secondary"
                data-testid={`retry-file-${f.id}`}
                onClick={() => onRetryFile(f.id)}
              >
                {t(f.checksumMismatch ? 'uploader:upload_again' : 'common:retry')}
              </button>
            )}
          </li>
        ))}
      </ul>

      <div className="panel-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          {t('common:cancel')}
        </button>
        {phase === 'paused' ? (
          <button type="button" className="button button-primary" data-testid="resume" onClick={onResume}>
            <PlayIcon /> {t('uploader:resume')}
          </button>
        ) : phase === 'failed' ? (
          <button type="button" className="button button-primary" data-testid="retry" onClick={onRetry}>
            {t('common:retry')}
          </button>
        ) : (
          <button
            type="button"
            className="button button-primary"
            data-testid="pause"
            onClick={onPause}
            disabled={phase !== 'uploading'}
          >
            <PauseIcon /> {t('uploader:pause')}
          </button>
        )}
      </div>
    </section>
  );
}
