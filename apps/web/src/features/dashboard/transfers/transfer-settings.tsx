import type { TransferDetail } from '@ferry/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { usePlanLimits } from '../../../hooks/use-plan-limits';
import { deleteTransfer, setTransferEnabled, updateTransfer } from '../../../lib/dashboard-api';
import { fromLocalInput, toLocalInput } from '../../../lib/local-datetime';
import { ActionError, ConfirmButton } from './confirm-button';
import { useTransferAction } from './use-transfer-action';
import { ValueForm } from './value-form';

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

/** The last day the plan allows, counted from the transfer's creation (the server has the last word). */
export function lastAllowedDay(createdAt: string, validityDays: number): string {
  return day(new Date(new Date(createdAt).getTime() + validityDays * DAY_MS));
}

/** Whether the transfer has not opened yet (PENDING, or its availability window still ahead): its date may move. */
export function beforeWindow(
  transfer: Pick<TransferDetail, 'status' | 'availableFrom'>,
  now = new Date(),
): boolean {
  if (transfer.status === 'PENDING') return true;
  return transfer.availableFrom !== null && new Date(transfer.availableFrom).getTime() > now.getTime();
}

/** Rename, expiry, opening date, password, preview, download limit, enable/disable and delete. */
export function TransferSettings({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { limits } = usePlanLimits();
  const id = transfer.transferId;
  const rename = useTransferAction(id, 'renamed');
  const expiry = useTransferAction(id, 'expiry');
  const password = useTransferAction(id, 'password');
  const preview = useTransferAction(id, 'preview');
  const maxDownloads = useTransferAction(id, 'max_downloads');
  const availability = useTransferAction(id, 'availability');
  const enable = useTransferAction(id, transfer.status === 'DISABLED' ? 'enabled' : 'disabled');
  const remove = useTransferAction(id, 'deleted');
  const gone = transfer.status === 'DELETED' || transfer.status === 'RETAINED';
  const toggleable = transfer.status === 'ENABLED' || transfer.status === 'DISABLED';

  return (
    <section className="panel dashboard-card transfer-section" aria-labelledby="transfer-settings-title">
      <h2 id="transfer-settings-title" className="section-title">
        {t('account:transfer.settings_title')}
      </h2>
      <ValueForm
        label={t('account:transfer.name_label')}
        submit={t('account:transfer.rename')}
        initial={transfer.name ?? ''}
        testId="rename-form"
        action={rename}
        onSubmit={(name) => rename.run(() => updateTransfer(id, { name: name || null }))}
      />
      <ValueForm
        label={t('account:transfer.expiry_label')}
        submit={t('account:transfer.save')}
        initial={day(new Date(transfer.expiresAt))}
        type="date"
        min={day(new Date())}
        max={lastAllowedDay(transfer.createdAt, limits.fileValidityInDays)}
        required
        testId="expiry-form"
        action={expiry}
        onSubmit={(value) => expiry.run(() => updateTransfer(id, { expiresAt: value }))}
      />
      {beforeWindow(transfer) && (
        <ValueForm
          label={t('account:transfer.available_from_label')}
          submit={t('account:transfer.save')}
          initial={transfer.availableFrom ? toLocalInput(new Date(transfer.availableFrom)) : ''}
          type="datetime-local"
          min={toLocalInput(new Date())}
          required
          testId="available-from-form"
          action={availability}
          onSubmit={(value) => {
            const at = fromLocalInput(value);
            if (at) availability.run(() => updateTransfer(id, { availableFrom: at.toISOString() }));
          }}
          extra={
            <ConfirmButton
              label={t('account:transfer.open_now')}
              question={t('account:transfer.open_now_confirm')}
              testId="open-now"
              disabled={availability.pending}
              onConfirm={() => availability.run(() => updateTransfer(id, { availableFrom: null }))}
            />
          }
        />
      )}
      <ValueForm
        label={t(
          transfer.passwordProtected ? 'account:transfer.password_change' : 'account:transfer.password_set',
        )}
        submit={t('account:transfer.save')}
        initial=""
        type="password"
        required
        resetOnDone
        testId="password-form"
        action={password}
        onSubmit={(value, done) => password.run(() => updateTransfer(id, { password: value }), done)}
        extra={
          transfer.passwordProtected && (
            <ConfirmButton
              label={t('account:transfer.password_remove')}
              question={t('account:transfer.password_remove_confirm')}
              testId="password-remove"
              disabled={password.pending}
              onConfirm={() => password.run(() => updateTransfer(id, { password: null }))}
            />
          )
        }
      />
      <ValueForm
        label={t('account:transfer.max_downloads_label')}
        submit={t('account:transfer.save')}
        initial={transfer.maxDownloads === null ? '' : String(transfer.maxDownloads)}
        type="number"
        min="1"
        testId="max-downloads-form"
        action={maxDownloads}
        onSubmit={(value) =>
          maxDownloads.run(() => updateTransfer(id, { maxDownloads: value ? Number(value) : null }))
        }
      />
      <p className="field-hint">{t('account:transfer.max_downloads_hint')}</p>
      <label className="field">
        <span>
          <input
            type="checkbox"
            checked={transfer.allowPreview}
            disabled={preview.pending}
            data-testid="preview-switch"
            onChange={(event) => {
              const allowPreview = event.target.checked;
              preview.run(() => updateTransfer(id, { allowPreview }));
            }}
          />{' '}
          {t('account:transfer.preview_label')}
        </span>
      </label>
      <ActionError error={preview.error} testId="preview-error" />
      <div className="transfer-actions">
        {toggleable && (
          <button
            type="button"
            className="button button-secondary button-small"
            data-testid="toggle-enabled"
            disabled={enable.pending}
            onClick={() => enable.run(() => setTransferEnabled(id, transfer.status === 'DISABLED'))}
          >
            {t(transfer.status === 'DISABLED' ? 'account:transfer.enable' : 'account:transfer.disable')}
          </button>
        )}
        {!gone && (
          <ConfirmButton
            label={t('account:transfer.delete')}
            question={t('account:transfer.delete_confirm')}
            testId="delete-transfer"
            disabled={remove.pending}
            onConfirm={() =>
              remove.run(
                () => deleteTransfer(id),
                () => void navigate('/dashboard/transfers'),
              )
            }
          />
        )}
      </div>
      <ActionError error={enable.error ?? remove.error} testId="transfer-action-error" />
    </section>
  );
}
