import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FileIcon, FolderIcon, UploadIcon } from '../../components/icons';
import { collectDropped, collectFromInput, type WalkResult } from './collect-files';

function hasFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

/**
 * Step 1's way in: a drop zone for files and folders (a real button, so Enter and Space open the file picker),
 * and "add files" / "add folder" buttons backed by hidden file inputs.
 */
export function FilePicker({
  onFiles,
  compact,
}: {
  onFiles: (result: WalkResult) => void;
  compact: boolean;
}) {
  const { t } = useTranslation();
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const depth = useRef(0);
  const [dragging, setDragging] = useState(false);
  const hintId = useId();

  // React has no prop for these non-standard attributes; every current browser supports them.
  useEffect(() => {
    folderInput.current?.setAttribute('webkitdirectory', '');
    folderInput.current?.setAttribute('directory', '');
  }, []);

  const fromInput = (input: HTMLInputElement | null) => {
    if (!input) return;
    const files = collectFromInput(input.files);
    input.value = '';
    if (files.length > 0) onFiles({ files, unreadable: 0 });
  };

  const onDragEnter = (event: DragEvent<HTMLButtonElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    depth.current++;
    setDragging(true);
  };
  const onDragOver = (event: DragEvent<HTMLButtonElement>) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  };
  const onDragLeave = () => {
    depth.current = Math.max(0, depth.current - 1);
    if (depth.current === 0) setDragging(false);
  };
  const onDrop = (event: DragEvent<HTMLButtonElement>) => {
    event.preventDefault();
    depth.current = 0;
    setDragging(false);
    // The entries must be taken now: the browser empties the DataTransfer once this handler returns.
    void collectDropped(event.dataTransfer.items, event.dataTransfer.files).then(onFiles);
  };

  return (
    <div className={`file-picker${compact ? ' is-compact' : ''}`}>
      <button
        type="button"
        className={`dropzone${dragging ? ' is-dragging' : ''}`}
        data-testid="dropzone"
        aria-describedby={hintId}
        onClick={() => fileInput.current?.click()}
        onDragEnter={onDragEnter}
        onDragOver={onDragOver}
        onDragLeave={onDragLeave}
        onDrop={onDrop}
      >
        <span className="dropzone-icon">
          <UploadIcon width={28} height={28} />
        </span>
        <span className="dropzone-title">
          {t(compact ? 'uploader:drop_more_title' : 'uploader:drop_title')}
        </span>
        <span className="dropzone-hint" id={hintId}>
          {t('uploader:drop_hint')}
        </span>
      </button>
      <div className="picker-buttons">
        <button type="button" className="button button-secondary" onClick={() => fileInput.current?.click()}>
          <FileIcon />
          {t('uploader:add_files')}
        </button>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => folderInput.current?.click()}
        >
          <FolderIcon />
          {t('uploader:add_folder')}
        </button>
      </div>
      <input
        ref={fileInput}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="file-input"
        aria-label={t('uploader:add_files')}
        onChange={(event) => fromInput(event.currentTarget)}
      />
      <input
        ref={folderInput}
        type="file"
        multiple
        hidden
        tabIndex={-1}
        data-testid="folder-input"
        aria-label={t('uploader:add_folder')}
        onChange={(event) => fromInput(event.currentTarget)}
      />
    </div>
  );
}
