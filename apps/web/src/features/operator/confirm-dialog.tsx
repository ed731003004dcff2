import { useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A modal yes/no question (native <dialog>): focus goes to "Cancel", Escape cancels, and focus returns to what
 * opened it once it closes.
 */
export function ConfirmDialog(props: {
  title: string;
  text: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
  testId?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const previous = document.activeElement as HTMLElement | null;
    if (typeof element.showModal === 'function' && !element.open) element.showModal();
    else element.setAttribute('open', '');
    cancel.current?.focus();
    return () => {
      if (element.open && typeof element.close === 'function') element.close();
      previous?.focus();
    };
  }, []);

  return (
    <dialog
      ref={dialog}
      className="dialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      onCancel={(event) => {
        event.preventDefault();
        props.onCancel();
      }}
      data-testid={props.testId}
    >
      <h2 id={`${id}-title`} className="panel-title">
        {props.title}
      </h2>
      <p id={`${id}-text`}>{props.text}</p>
      <div className="panel-actions">
        <button
          ref={cancel}
          type="button"
          className="button button-secondary"
          onClick={props.onCancel}
          data-testid="confirm-cancel"
        >
          {t('operator:cancel')}
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={props.busy}
          aria-busy={props.busy || undefined}
          onClick={props.onConfirm}
          data-testid="confirm-ok"
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>
  );
}
