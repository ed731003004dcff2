import { type TransferFile, truncateFileName } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { DownloadIcon, FileIcon } from '../../components/icons';
import { formatSize } from '../../lib/format';
import { folderOf } from '../uploader/selection';

interface DownloadFileListProps {
  files: readonly TransferFile[];
  highlightedId: string | undefined;
  busyId: string | null;
  disabled: boolean;
  onDownload: (file: TransferFile) => void;
}

/** The transfer's files, folders shown as paths, each with its own download button. */
export function DownloadFileList({
  files,
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
            <button
              type="button"
              className={`button button-small ${highlighted ? 'button-primary' : 'button-secondary'}`}
              data-testid={`download-file-${f.id}`}
              aria-label={t('downloader:download_file', { name: fullName })}
              disabled={disabled || busyId !== null}
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
