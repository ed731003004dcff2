import { formatSize, type TransferDetail, truncateFileName } from '@ferry/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { cancelAddition, deleteFile, renameFile } from '../../../lib/dashboard-api';
import { useToast } from '../../toasts/toast-context';
import { ConfirmButton } from './confirm-button';
import { TransferAddFiles } from './transfer-add-files';
import { isSentAndStored } from './transfer-labels';
import { useTransferAction } from './use-transfer-action';
import { ValueForm } from './value-form';

type File = TransferDetail['files'][number];

function FileItem({ transferId, file, editable }: { transferId: string; file: File; editable: boolean }) {
  const { t } = useTranslation();
  const toast = useToast();
  const [renaming, setRenaming] = useState(false);
  const rename = useTransferAction(transferId, 'file_renamed');
  const remove = useTransferAction(transferId, 'file_deleted');
  const copy = (sha: string) =>
    navigator.clipboard.writeText(sha).then(
      () => toast.show(t('account:transfer.sha_copied'), 'success'),
      () => toast.show(t('account:transfer.sha_copy_failed'), 'error'),
    );
  return (
    <li data-testid="transfer-file">
      <p>
        <strong title={file.name} data-testid="file-name">
          {truncateFileName(file.name)}
        </strong>{' '}
        <span className="muted" data-testid="file-size">
          {formatSize(file.size)}
        </span>
      </p>
      {file.sha256 && (
        <p>
          <span className="muted">{t('account:transfer.sha256')} </span>
          <code className="sha256" data-testid="file-sha">
            {file.sha256}
          </code>{' '}
          <button
            type="button"
            className="button button-secondary button-small"
            data-testid="file-sha-copy"
            aria-label={t('account:transfer.sha_copy_label', { name: file.name })}
            onClick={() => void copy(file.sha256 as string)}
          >
            {t('account:transfer.sha_copy')}
          </button>
        </p>
      )}
      {editable && (
        <div className="transfer-actions">
          <button
            type="button"
            className="button button-secondary button-small"
            aria-expanded={renaming}
            data-testid="file-rename"
            onClick={() => setRenaming(!renaming)}
          >
            {t('account:transfer.rename')}
          </button>
          <ConfirmButton
            label={t('account:transfer.file_delete')}
            question={t('account:transfer.file_delete_confirm', { name: file.name })}
            testId="file-delete"
            disabled={remove.pending}
            onConfirm={() => remove.run(() => deleteFile(transferId, file.id))}
          />
        </div>
      )}
      {renaming && (
        <ValueForm
          label={t('account:transfer.file_name_label')}
          submit={t('account:transfer.save')}
          initial={file.name}
          required
          testId="file-rename-form"
          action={rename}
          onSubmit={(name) =>
            rename.run(
              () => renameFile(transferId, file.id, { name }),
              () => setRenaming(false),
            )
          }
        />
      )}
      {remove.error && (
        <p className="field-error" role="alert" data-testid="file-delete-error">
          {remove.error}
        </p>
      )}
    </li>
  );
}

/** Files being added and not completed: an upload left unfinished (another tab, a closed page) can be dropped. */
function PendingAdditions({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation();
  const cancel = useTransferAction(transfer.transferId, 'addition_cancelled');
  if (transfer.additions.length === 0) return null;
  return (
    <div className="transfer-additions" data-testid="transfer-additions">
      <h3 className="section-title">{t('account:transfer.additions_title')}</h3>
      <ul className="transfer-list-plain">
        {transfer.additions.map((addition) => (
          <li key={addition.additionId} data-testid="transfer-addition">
            <p>
              {addition.files.map((f) => truncateFileName(f.name)).join(', ')}{' '}
              <span className="muted">
                {t('account:transfer.addition_state', {
                  count: addition.files.length,
                  uploaded: addition.files.filter((f) => f.uploaded).length,
                })}
              </span>
            </p>
            <ConfirmButton
              label={t('account:transfer.addition_cancel')}
              question={t('account:transfer.addition_cancel_confirm')}
              testId="addition-cancel"
              disabled={cancel.pending}
              onConfirm={() => cancel.run(() => cancelAddition(transfer.transferId, addition.additionId))}
            />
          </li>
        ))}
      </ul>
      {cancel.error && (
        <p className="field-error" role="alert">
          {cancel.error}
        </p>
      )}
    </div>
  );
}

export function TransferFiles({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation();
  const editable = transfer.bytesDeletedAt === null && transfer.files.length > 0;
  return (
    <section className="panel dashboard-card transfer-section" aria-labelledby="transfer-files-title">
      <h2 id="transfer-files-title" className="section-title">
        {t('account:transfer.files_title', { count: transfer.files.length })}
      </h2>
      <ul className="transfer-list-plain">
        {transfer.files.map((file) => (
          <FileItem
            key={file.id}
            transferId={transfer.transferId}
            file={file}
            editable={editable && transfer.files.length > 0}
          />
        ))}
      </ul>
      <PendingAdditions transfer={transfer} />
      {isSentAndStored(transfer) && (
        <div className="transfer-add">
          <TransferAddFiles transfer={transfer} />
        </div>
      )}
    </section>
  );
}
