import { TOAST_AUTO_CLOSE_MS } from '@ferry/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/icons';
import { type Toast, useToast, useToasts } from './toast-context';

function ToastItem({ toast, onDismiss }: { toast: Toast; onDismiss: (id: number) => void }) {
  const { t } = useTranslation();
  // Hovering or focusing a toast holds it open, so it can be read at one's own pace.
  const [held, setHeld] = useState(false);
  useEffect(() => {
    if (held) return;
    const timer = setTimeout(() => onDismiss(toast.id), TOAST_AUTO_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [held, onDismiss, toast.id]);
  return (
    <li
      className={`toast toast-${toast.kind}`}
      data-testid="toast"
      onMouseEnter={() => setHeld(true)}
      onMouseLeave={() => setHeld(false)}
      onFocus={() => setHeld(true)}
      onBlur={() => setHeld(false)}
    >
      <p className="toast-message">{toast.message}</p>
      <button
        type="button"
        className="icon-button toast-close"
        aria-label={t('common:dismiss')}
        onClick={() => onDismiss(toast.id)}
      >
        <CloseIcon />
      </button>
    </li>
  );
}

/** The toast area of spec §2: top-right, stacked, auto-closing after TOAST_AUTO_CLOSE_MS, announced politely. */
export function ToastArea() {
  const toasts = useToasts();
  const { dismiss } = useToast();
  return (
    <div className="toast-area" role="status" aria-live="polite" aria-relevant="additions">
      <ul className="toast-list">
        {toasts.map((toast) => (
          <ToastItem key={toast.id} toast={toast} onDismiss={dismiss} />
        ))}
      </ul>
    </div>
  );
}
