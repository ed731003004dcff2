import { GB, type TransferDetail } from '@ferry/core';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { usePlanLimits } from '../../../hooks/use-plan-limits';
import { addFiles, cancelAddition, completeAddition, TRANSFERS_QUERY_KEY } from '../../../lib/dashboard-api';
import { formatSize } from '../../../lib/format';
import { useToast } from '../../toasts/toast-context';
import { FileList } from '../../uploader/file-list';
import { FilePicker } from '../../uploader/file-picker';
import {
  addFiles as addToSelection,
  removeFiles,
  type SelectedFile,
  totalSize,
} from '../../uploader/selection';
import { usePreventStrayDrops, useSelectionNotices } from '../../uploader/selection-notices';
import { engineFilesOfNew, pairCreatedFiles, targetOf } from '../../uploader/upload-plan';
import { UploadStep } from '../../uploader/upload-step';
import { useEngineRunner } from '../../uploader/use-upload-engine';
import { ActionError } from './confirm-button';
import { detailKey } from './use-transfer-action';

/**
 * "Add files" on a sent transfer: files picked or dropped (spec §5 names, the plan's limits over the whole
 * transfer), uploaded with the uploader's own engine (tus: resumable, with speed and time left, pause and retry),
 * then completed: only then do recipients see them. S1 recipients may be told by e-mail.
 */
export function TransferAddFiles({ transfer }: { transfer: TransferDetail }) {
  const { t, i18n } = useTranslation();
  const id = transfer.transferId;
  const toast = useToast();
  const describe = useDescribeError();
  const client = useQueryClient();
  const notices = useSelectionNotices();
  const { limits } = usePlanLimits();
  const checkboxId = useId();
  const [open, setOpen] = useState(false);
  const [selected, setSelected] = useState<SelectedFile[]>([]);
  const [notify, setNotify] = useState(false);
  const [starting, setStarting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const addition = useRef<string | null>(null);
  const notifyRef = useRef(notify);
  notifyRef.current = notify;

  const reset = () => {
    runner.release();
    addition.current = null;
    setSelected([]);
    setError(null);
  };
  const runner = useEngineRunner<TransferDetail>({
    complete: (target, files) =>
      completeAddition(target.transferId, addition.current ?? '', {
        files,
        notifyRecipients: notifyRef.current,
      }),
    onFinished: (detail) => {
      client.setQueryData(detailKey(id), detail);
      void client.invalidateQueries({ queryKey: [TRANSFERS_QUERY_KEY] });
      toast.show(t('account:transfer.done_files_added', { count: selected.length }), 'success');
      reset();
      setOpen(false);
    },
  });
  usePreventStrayDrops();

  // What the plan still allows in this transfer (the server checks again, counting additions in progress).
  const room = {
    files: Math.max(0, limits.files - transfer.fileCount),
    uploadSizeBytes: Math.max(0, limits.uploadSizeGB * GB - transfer.totalSize),
  };

  const start = async () => {
    setStarting(true);
    setError(null);
    try {
      const answer = await addFiles(
        id,
        selected.map((f) => ({ name: f.name, size: f.size, relativePath: f.relativePath ?? undefined })),
      );
      addition.current = answer.additionId;
      runner.launch(targetOf(answer), engineFilesOfNew(pairCreatedFiles(selected, answer.files)));
    } catch (cause) {
      setError(describe(cause));
    } finally {
      setStarting(false);
    }
  };

  const cancel = async () => {
    const started = addition.current;
    reset();
    setOpen(false);
    if (!started) return;
    try {
      client.setQueryData(detailKey(id), await cancelAddition(id, started));
    } catch {
      // Left to the hourly sweep: an addition never completed is dropped with its bytes.
    }
  };

  if (!open)
    return (
      <button
        type="button"
        className="button button-secondary button-small"
        data-testid="add-files-open"
        onClick={() => setOpen(true)}
      >
        {t('account:transfer.add_files')}
      </button>
    );

  const snapshot = runner.snapshot;
  const engine = runner.engine;
  return (
    <section className="transfer-add-files" aria-labelledby={`${checkboxId}-title`} data-testid="add-files">
      <h3 id={`${checkboxId}-title`} className="section-title">
        {t('account:transfer.add_files_title')}
      </h3>
      {engine ? (
        <UploadStep
          snapshot={snapshot}
          titled={false}
          onPause={() => engine.pause()}
          onResume={() => engine.resume()}
          onRetry={() => engine.retry()}
          onRetryFile={(fileId) => engine.retryFile(fileId)}
          onCancel={() => void cancel()}
        />
      ) : (
        <>
          <p className="muted">{t('account:transfer.add_files_hint')}</p>
          <FilePicker
            compact={selected.length > 0}
            onFiles={({ files }) => {
              const result = addToSelection(selected, files, room);
              notices(result);
              setSelected(result.files);
            }}
          />
          <FileList files={selected} onRemove={(keys) => setSelected(removeFiles(selected, keys))} />
          {transfer.type === 'S1' && (
            <label className="checkbox" htmlFor={checkboxId}>
              <input
                id={checkboxId}
                type="checkbox"
                checked={notify}
                onChange={(event) => setNotify(event.target.checked)}
                data-testid="add-files-notify"
              />
              <span>{t('account:transfer.add_files_notify')}</span>
            </label>
          )}
          <ActionError error={error} testId="add-files-error" />
          <div className="transfer-actions">
            <button
              type="button"
              className="button button-primary button-small"
              data-testid="add-files-start"
              disabled={selected.length === 0 || starting}
              aria-busy={starting || undefined}
              onClick={() => void start()}
            >
              {t('account:transfer.add_files_start', {
                count: selected.length,
                size: formatSize(totalSize(selected), i18n.language),
              })}
            </button>
            <button
              type="button"
              className="button button-secondary button-small"
              onClick={() => void cancel()}
            >
              {t('common:cancel')}
            </button>
          </div>
        </>
      )}
    </section>
  );
}
