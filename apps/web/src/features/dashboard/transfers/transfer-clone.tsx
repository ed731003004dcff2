import type { TransferCloneRequest, TransferDetail } from '@ferry/core';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { FormActions } from '../../../components/form-actions';
import { PasswordInput } from '../../../components/password-input';
import { useDescribeError } from '../../../hooks/use-describe-error';
import { usePlanLimits } from '../../../hooks/use-plan-limits';
import { cloneTransfer, TRANSFERS_QUERY_KEY } from '../../../lib/dashboard-api';
import { useToast } from '../../toasts/toast-context';
import { ActionError } from './confirm-button';
import { splitEmails } from './transfer-recipients';
import { detailKey } from './use-transfer-action';

const DAY_MS = 86_400_000;
const day = (date: Date) => date.toISOString().slice(0, 10);

type PasswordChoice = 'keep' | 'none' | 'new';

/** What the clone form holds, and the request it makes (only what differs from "the source's" is sent). */
export interface CloneForm {
  name: string;
  type: 'S1' | 'S2';
  recipients: string;
  expiresAt: string;
  password: PasswordChoice;
  newPassword: string;
  maxDownloads: string;
  allowPreview: boolean;
}

export function cloneFormOf(transfer: TransferDetail): CloneForm {
  return {
    name: transfer.name ?? '',
    type: transfer.type === 'S1' ? 'S1' : 'S2',
    recipients: transfer.recipients.map((r) => r.email).join(', '),
    expiresAt: '',
    password: transfer.passwordProtected ? 'keep' : 'none',
    newPassword: '',
    maxDownloads: transfer.maxDownloads === null ? '' : String(transfer.maxDownloads),
    allowPreview: transfer.allowPreview,
  };
}

export function cloneRequestOf(form: CloneForm): TransferCloneRequest {
  return {
    name: form.name.trim() || null,
    type: form.type,
    ...(form.type === 'S1' ? { recipients: splitEmails(form.recipients) } : {}),
    ...(form.expiresAt ? { expiresAt: form.expiresAt } : {}),
    ...(form.password === 'keep' ? {} : { password: form.password === 'new' ? form.newPassword : null }),
    maxDownloads: form.maxDownloads.trim() ? Number(form.maxDownloads) : null,
    allowPreview: form.allowPreview,
  };
}

/**
 * "Clone": a modal form with what may differ from the source (name, how it is sent, recipients, expiry,
 * password, download limit, preview); the clone is then opened, and shows "cloning" until its files are copied.
 */
export function TransferClone({ transfer }: { transfer: TransferDetail }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        className="button button-secondary button-small"
        data-testid="clone-open"
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
      >
        {t('account:transfer.clone')}
      </button>
      {open && <CloneDialog transfer={transfer} onClose={() => setOpen(false)} />}
    </>
  );
}

function CloneDialog({ transfer, onClose }: { transfer: TransferDetail; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const navigate = useNavigate();
  const toast = useToast();
  const describe = useDescribeError();
  const client = useQueryClient();
  const { limits } = usePlanLimits();
  const dialog = useRef<HTMLDialogElement>(null);
  const first = useRef<HTMLInputElement>(null);
  const [form, setForm] = useState(() => cloneFormOf(transfer));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof CloneForm>(key: K, value: CloneForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    first.current?.focus();
    return () => {
      if (element.open && typeof element.close === 'function') element.close();
      previous?.focus();
    };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setError(null);
    try {
      const clone = await cloneTransfer(transfer.transferId, cloneRequestOf(form));
      client.setQueryData(detailKey(clone.transferId), clone);
      void client.invalidateQueries({ queryKey: [TRANSFERS_QUERY_KEY] });
      toast.show(t('account:transfer.done_cloned'), 'success');
      onClose();
      void navigate(`/dashboard/transfers/${clone.transferId}`);
    } catch (cause) {
      setError(describe(cause));
      setBusy(false);
    }
  };

  const today = new Date();
  return (
    <dialog
      ref={dialog}
      className="dialog transfer-clone-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="clone-dialog"
    >
      <form className="transfer-clone-form" onSubmit={(event) => void submit(event)}>
        <h2 id={`${id}-title`} className="panel-title">
          {t('account:transfer.clone_title')}
        </h2>
        <p className="muted">{t('account:transfer.clone_hint')}</p>
        <div className="field">
          <label htmlFor={`${id}-name`}>{t('account:transfer.name_label')}</label>
          <input
            ref={first}
            id={`${id}-name`}
            type="text"
            maxLength={255}
            value={form.name}
            onChange={(event) => set('name', event.target.value)}
            data-testid="clone-name"
          />
        </div>
        <fieldset className="field transfer-clone-type">
          <legend>{t('account:transfer.clone_type')}</legend>
          {(['S2', 'S1'] as const).map((type) => (
            <label key={type} className="checkbox">
              <input
                type="radio"
                name={`${id}-type`}
                value={type}
                checked={form.type === type}
                onChange={() => set('type', type)}
                data-testid={`clone-type-${type}`}
              />
              <span>{t(`account:transfers.type_${type}`)}</span>
            </label>
          ))}
        </fieldset>
        {form.type === 'S1' && (
          <div className="field">
            <label htmlFor={`${id}-recipients`}>{t('account:transfer.clone_recipients')}</label>
            <textarea
              id={`${id}-recipients`}
              rows={2}
              required
              value={form.recipients}
              onChange={(event) => set('recipients', event.target.value)}
              data-testid="clone-recipients"
            />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-expiry`}>{t('account:transfer.expiry_label')}</label>
          <input
            id={`${id}-expiry`}
            type="date"
            min={day(today)}
            max={day(new Date(today.getTime() + limits.fileValidityInDays * DAY_MS))}
            value={form.expiresAt}
            aria-describedby={`${id}-expiry-hint`}
            onChange={(event) => set('expiresAt', event.target.value)}
            data-testid="clone-expiry"
          />
          <p id={`${id}-expiry-hint`} className="field-hint">
            {t('account:transfer.clone_expiry_hint')}
          </p>
        </div>
        <div className="field">
          <label htmlFor={`${id}-password`}>{t('account:transfer.clone_password')}</label>
          <select
            id={`${id}-password`}
            value={form.password}
            onChange={(event) => set('password', event.target.value as PasswordChoice)}
            data-testid="clone-password"
          >
            {transfer.passwordProtected && (
              <option value="keep">{t('account:transfer.clone_password_keep')}</option>
            )}
            <option value="none">{t('account:transfer.clone_password_none')}</option>
            <option value="new">{t('account:transfer.clone_password_new')}</option>
          </select>
        </div>
        {form.password === 'new' && (
          <div className="field">
            <label htmlFor={`${id}-new-password`}>{t('account:transfer.password_set')}</label>
            <PasswordInput
              id={`${id}-new-password`}
              autoComplete="new-password"
              required
              maxLength={256}
              value={form.newPassword}
              onValueChange={(value) => set('newPassword', value)}
              testId="clone-new-password"
            />
          </div>
        )}
        <div className="field">
          <label htmlFor={`${id}-max`}>{t('account:transfer.max_downloads_label')}</label>
          <input
            id={`${id}-max`}
            type="number"
            min="1"
            value={form.maxDownloads}
            aria-describedby={`${id}-max-hint`}
            onChange={(event) => set('maxDownloads', event.target.value)}
            data-testid="clone-max-downloads"
          />
          <p id={`${id}-max-hint`} className="field-hint">
            {t('account:transfer.max_downloads_hint')}
          </p>
        </div>
        <label className="checkbox">
          <input
            type="checkbox"
            checked={form.allowPreview}
            onChange={(event) => set('allowPreview', event.target.checked)}
            data-testid="clone-preview"
          />
          <span>{t('account:transfer.preview_label')}</span>
        </label>
        <ActionError error={error} testId="clone-error" />
        <FormActions
          className="transfer-actions"
          onCancel={onClose}
          busy={busy}
          submitLabel={t('account:transfer.clone_submit')}
          testId="clone"
        />
      </form>
    </dialog>
  );
}
