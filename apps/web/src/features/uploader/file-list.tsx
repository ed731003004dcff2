import { formatSize, truncateFileName } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { CloseIcon, FileIcon } from '../../components/icons';
import { folderOf, type SelectedFile, totalSize } from './selection';

/** The chosen files: truncated names (full path in the tooltip), sizes, a remove button each, and the total. */
export function FileList({
  files,
  onRemove,
}: {
  files: readonly SelectedFile[];
  onRemove: (key: string) => void;
}) {
  const { t } = useTranslation();
  if (files.length === 0) return null;
  return (
    <div className="file-list-wrap">
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
              <span className="file-row-size">{formatSize(f.size)}</span>
              <button
                type="button"
                className="icon-button"
                aria-label={t('uploader:remove_file', { name: fullName })}
                onClick={() => onRemove(f.key)}
              >
                <CloseIcon />
              </button>
            </li>
          );
        })}
      </ul>
      <p className="file-total" data-testid="file-total">
        {t('uploader:total', { count: files.length, size: formatSize(totalSize(files)) })}
      </p>
    </div>
  );
}
