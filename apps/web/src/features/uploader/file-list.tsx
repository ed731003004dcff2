import { truncateFileName } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { CloseIcon, FileIcon } from '../../components/icons';
import { formatSize } from '../../lib/format';
import { folderOf, type SelectedFile, totalSize } from './selection';

/**
 * The chosen files: truncated names (full path in the tooltip), sizes, a remove button each, and the total.
 * Empty (0-byte) files are kept — one may be meant — but marked, with a warning that offers to drop them all:
 * an empty file is usually a placeholder or a failed export that would otherwise be sent without a word.
 */
export function FileList({
  files,
  onRemove,
}: {
  files: readonly SelectedFile[];
  onRemove: (keys: readonly string[]) => void;
}) {
  const { t, i18n } = useTranslation();
  if (files.length === 0) return null;
  const empty = files.filter((f) => f.size === 0);
  return (
    <div className="file-list-wrap">
      {empty.length > 0 && (
        <div className="notice notice-warn empty-files" role="status" data-testid="empty-files-warning">
          <p>
            {empty.length === 1
              ? t('uploader:empty_file_one_named', { name: empty[0]?.relativePath ?? empty[0]?.name ?? '' })
              : t('uploader:empty_files', { count: empty.length })}
          </p>
          <button
            type="button"
            className="button button-small"
            onClick={() => onRemove(empty.map((f) => f.key))}
            data-testid="remove-empty-files"
          >
            {t('uploader:remove_empty_files', { count: empty.length })}
          </button>
        </div>
      )}
      <ul className="file-list" aria-label={t('uploader:selected_files')} data-testid="file-list">
        {files.map((f) => {
          const folder = folderOf(f.relativePath);
          const fullName = f.relativePath ?? f.name;
          return (
            <li key={f.key} className="file-row">
              <FileIcon className="file-row-icon" />
              <span className="file-row-name" title={fullName}>
                {folder && <span className="file-row-folder">{folder}</span>}
                <span className="file-row-base">{truncateFileName(f.name)}</span>
              </span>
              <span className="file-row-size">
                {f.size === 0 ? (
                  <span className="file-row-empty" data-testid="file-row-empty">
                    {t('uploader:empty_file_badge')}
                  </span>
                ) : (
                  formatSize(f.size, i18n.language)
                )}
              </span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('uploader:remove_file', { name: fullName })}
                onClick={() => onRemove([f.key])}
              >
                <CloseIcon />
              </button>
            </li>
          );
        })}
      </ul>
      <p className="file-total" data-testid="file-total">
        {t('uploader:total', { count: files.length, size: formatSize(totalSize(files), i18n.language) })}
      </p>
    </div>
  );
}
