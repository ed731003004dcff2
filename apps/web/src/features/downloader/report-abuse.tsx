import { isEmail, REPORT_DETAILS_MAX, REPORT_REASONS, type ReportReason } from '@ferry/core';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormActions } from '../../components/form-actions';
import { LabelledField } from '../../components/labelled-field';
import { useDescribeError } from '../../hooks/use-describe-error';
import { reportTransfer } from '../../lib/moderation-api';

/**
 * "Report abuse" on every download page: a button that opens a modal form (native <dialog>: Escape closes it, focus
 * goes to the first field and back to the button afterwards). The reason is required; details and the reporter's
 * address are optional. The server answers alike for any transfer; a rate limit says how long to wait.
 */
export function ReportAbuse({ transferId }: { transferId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div className="report-abuse">
      <button
        type="button"
        className="button button-small button-secondary report-abuse-button"
        onClick={() => setOpen(true)}
        aria-haspopup="dialog"
        data-testid="report-abuse"
      >
        {t('downloader:report_abuse')}
      </button>
      {open && <ReportDialog transferId={transferId} onClose={() => setOpen(false)} />}
    </div>
  );
}

function ReportDialog({ transferId, onClose }: { transferId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const first = useRef<HTMLSelectElement>(null);
  const [reason, setReason] = useState<ReportReason | ''>('');
  const [details, setDetails] = useState('');
  const [email, setEmail] = useState('');
  const [errors, setErrors] = useState<{ reason?: string; email?: string }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(false);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement as HTMLElement | null;
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
    const problems = {
      reason: reason ? undefined : t('downloader:report_reason_required'),
      email: email.trim() && !isEmail(email) ? t('downloader:email_invalid') : undefined,
    };
    setErrors(problems);
    if (problems.reason || problems.email || !reason) return;
    setBusy(true);
    setFailure(null);
    try {
      await reportTransfer({
        transferId,
        reason,
        details: details.trim() || undefined,
        email: email.trim() || undefined,
      });
      setSent(true);
    } catch (error) {
      setFailure(describe(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <dialog
      ref={dialog}
      className="dialog report-dialog"
      aria-labelledby={`${id}-title`}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
      data-testid="report-dialog"
    >
      <h2 id={`${id}-title`} className="panel-title">
        {t('downloader:report_title')}
      </h2>
      {sent ? (
        <>
          <p role="status" data-testid="report-sent">
            {t('downloader:report_sent')}
          </p>
          <div className="panel-actions">
            <button
              type="button"
              className="button button-primary"
              onClick={onClose}
              data-testid="report-close"
            >
              {t('downloader:report_close')}
            </button>
          </div>
        </>
      ) : (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p className="muted">{t('downloader:report_text')}</p>
          <LabelledField label={t('downloader:report_reason_label')} error={errors.reason}>
            {(p) => (
              <select
                {...p}
                ref={first}
                required
                value={reason}
                onChange={(event) => setReason(event.target.value as ReportReason)}
                data-testid="report-reason"
              >
                <option value="">{t('downloader:report_reason_choose')}</option>
                {REPORT_REASONS.map((r) => (
                  <option key={r} value={r}>
                    {t(`downloader:report_reasons.${r}`)}
                  </option>
                ))}
              </select>
            )}
          </LabelledField>
          <LabelledField
            label={t('downloader:report_details_label')}
            hint={t('downloader:report_details_hint')}
          >
            {(p) => (
              <textarea
                {...p}
                rows={4}
                maxLength={REPORT_DETAILS_MAX}
                value={details}
                onChange={(event) => setDetails(event.target.value)}
                data-testid="report-details"
              />
            )}
          </LabelledField>
          <LabelledField
            label={t('downloader:report_email_label')}
            hint={t('downloader:report_email_hint')}
            error={errors.email}
          >
            {(p) => (
              <input
                {...p}
                type="email"
                autoComplete="email"
                inputMode="email"
                value={email}
                onChange={(event) => setEmail(event.target.value)}
                data-testid="report-email"
              />
            )}
          </LabelledField>
          {failure && (
            <p className="notice notice-error" role="alert" data-testid="report-error">
              {failure}
            </p>
          )}
          <FormActions
            className="panel-actions"
            onCancel={onClose}
            busy={busy}
            submitLabel={t('downloader:report_submit')}
            testId="report"
          />
        </form>
      )}
    </dialog>
  );
}
