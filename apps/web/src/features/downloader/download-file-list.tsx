import { type DownloadFile, truncateFileName } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { DownloadIcon, FileIcon } from '../../components/icons';
import { formatSize } from '../../lib/format';
import { folderOf } from '../uploader/selection';

interface DownloadFileListProps {
  files: readonly DownloadFile[];
  /** The server scans files: only then is a file's "not scanned" news (too large for the scanner). */
  virusScan: boolean;
  highlightedId: string | undefined;
  busyId: string | null;
  disabled: boolean;
  onDownload: (file: DownloadFile) => void;
}

/** What the virus scan says of a file, when there is something to say (clean files need no word). */
const SCAN_NOTICE = {
  pending: 'downloader:scan_pending',
  infected: 'downloader:scan_infected',
  'not-scanned': 'downloader:scan_not_scanned',
} as const;

/**
 * The transfer's files, folders shown as paths, each with its own download button and its virus scan's status; an
 * infected file cannot be downloaded.
 */
export function DownloadFileList({
  files,
  virusScan,
  highlightedId,
  busyId,
  disabled,
  onDownload,
}: DownloadFileListProps) {
  const { t, i18n } = useTranslation();
  return (
    <ul className="file-list download-list" aria-label={t('downloader:files_label')}>
      {files.map((f) => {
        const fullName = f.relativePath ?? f.name;
        const folder = folderOf(f.relativePath);
        const highlighted = f.id === highlightedId;
        return (
          <li
            key={f.id}
            className={`file-row${highlighted ? ' is-highlighted' : ''}`}
            aria-current={highlighted ? 'true' : undefined}
            data-testid={`file-row-${f.id}`}
          >
            <FileIcon className="file-row-icon" />
            <span className="file-row-name" title={fullName}>
              {folder && <span className="file-row-folder">{folder}</span>}
              <span className="file-row-base">{truncateFileName(f.name)}</span>
            </span>
            <span className="file-row-size">{formatSize(f.size, i18n.language)}</span>
            {f.scanStatus !== 'clean' && (virusScan || f.scanStatus !== 'not-scanned') && (
              <span
                className={`file-row-scan scan-${f.scanStatus}`}
                data-testid={`file-scan-${f.id}`}
                role={f.scanStatus === 'infected' ? 'alert' : undefined}
              >
                {t(SCAN_NOTICE[f.scanStatus])}
              </span>
            )}
            <button
              type="button"
              className={`button button-small ${highlighted ? 'button-primary' : 'button-secondary'}`}
              data-testid={`download-file-${f.id}`}
              aria-label={t('downloader:download_file', { name: fullName })}
              disabled={disabled || busyId !== null || f.scanStatus === 'infected'}
              aria-busy={busyId === f.id || undefined}
              onClick={() => onDownload(f)}
            >
              <DownloadIcon width={16} height={16} />
              <span className="button-text">{t('downloader:download')}</span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
