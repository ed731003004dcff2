import { useTranslation } from 'react-i18next';

/**
 * The end of a form in a dialog: Cancel, then the form's submit button, busy (and disabled) while it is sent.
 * `testId` names both: `{testId}-cancel` and `{testId}-submit`.
 */
export function FormActions({
  className,
  onCancel,
  busy,
  submitLabel,
  testId,
}: {
  className: string;
  onCancel: () => void;
  busy: boolean;
  submitLabel: string;
  testId: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={className}>
      <button
        type="button"
        className="button button-secondary"
        onClick={onCancel}
        data-testid={`${testId}-cancel`}
      >
        {t('common:cancel')}
      </button>
      <button
        type="submit"
        className="button button-primary"
        disabled={busy}
        aria-busy={busy || undefined}
        data-testid={`${testId}-submit`}
      >
        {submitLabel}
      </button>
    </div>
  );
}
