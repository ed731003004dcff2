import { type TransferDetail, truncateFileName } from '@ferry/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { cancelAddition, deleteFile, renameFile } from '../../../lib/dashboard-api';
import { formatSize } from '../../../lib/format';
import { openThroughHiddenLink } from '../../../lib/hidden-download';
import { getDownloadLink } from '../../../lib/transfer-api';
import { useAuth } from '../../auth/auth-context';
import { useToast } from '../../toasts/toast-context';
import { ConfirmButton } from './confirm-button';
import { TransferAddFiles } from './transfer-add-files';
import { isSentAndStored } from './transfer-labels';
import { useTransferAction } from './use-transfer-action';
import { ValueForm } from './value-form';

type File = TransferDetail['files'][number];

/**
 * Downloads for a team's manager or transfer manager looking at a member's transfer: each link is asked with the
 * admin-dashboard flag, so it does not use up the transfer's downloads (the server decides who it trusts it from).
 * Null for the owner (their own download page is the transfer's link) and when nothing can be downloaded.
 */
function useAdminDownload(transfer: TransferDetail) {
  const { t } = useTranslation();
  const toast = useToast();
  const describe = useDescribeError();
  const { state } = useAuth();
  const [busy, setBusy] = useState<string | null>(null);
  const viewer = state.user?.uid ?? null;
  const downloadable = transfer.status === 'ENABLED' && !transfer.expired && transfer.bytesDeletedAt === null;
  if (!viewer || transfer.ownerId === null || transfer.ownerId === viewer || !downloadable) return null;
  return {
    busy,
    run: async (fileId: string | null) => {
      setBusy(fileId ?? 'all');
      try {
        const link = await getDownloadLink({
          transferId: transfer.transferId,
          fileId: fileId ?? undefined,
          'admin-dashboard': true,
        });
        openThroughHiddenLink(link.url, link.fileName);
        toast.show(t('downloader:download_started', { name: link.fileName }), 'success');
      } catch (error) {
        toast.show(describe(error), 'error');
      } finally {
        setBusy(null);
      }
    },
  };
}

type AdminDownload = ReturnType<typeof useAdminDownload>;

function FileItem({
  transferId,
  file,
  editable,
  download,
}: {
  transferId: string;
  file: File;
  editable: boolean;
  download: AdminDownload;
}) {
  const { t, i18n } = useTranslation();
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
          {formatSize(file.size, i18n.language)}
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
      {download && (
        <p>
          <button
            type="button"
            className="button button-secondary button-small"
            data-testid="file-admin-download"
            aria-label={t('downloader:download_file', { name: file.name })}
            disabled={download.busy !== null}
            aria-busy={download.busy === file.id}
            onClick={() => void download.run(file.id)}
          >
            {t('downloader:download')}
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
  const download = useAdminDownload(transfer);
  return (
    <section className="panel dashboard-card transfer-section" aria-labelledby="transfer-files-title">
      <h2 id="transfer-files-title" className="section-title">
        {t('account:transfer.files_title', { count: transfer.files.length })}
      </h2>
      {download && transfer.files.length > 0 && (
        <div className="transfer-admin-download" data-testid="transfer-admin-download">
          <p className="muted">{t('account:transfer.admin_download_hint')}</p>
          <button
            type="button"
            className="button button-secondary"
            data-testid="transfer-admin-download-all"
            disabled={download.busy !== null}
            aria-busy={download.busy === 'all'}
            onClick={() => void download.run(null)}
          >
            {t('downloader:download_all')}
          </button>
        </div>
      )}
      <ul className="transfer-list-plain">
        {transfer.files.map((file) => (
          <FileItem
            key={file.id}
            transferId={transfer.transferId}
            file={file}
            editable={editable && transfer.files.length > 0}
            download={download}
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
