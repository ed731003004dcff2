import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyText } from '../features/account/clipboard';
import { useToast } from '../features/toasts/toast-context';
import { CheckIcon, CopyIcon } from './icons';

/**
 * A new secret (an API token, a webhook's signing secret) the server shows this once: the warning, the value
 * in a read-only field that has the focus, a copy button, and "Done", after which the page forgets it.
 */
export function ShownOnceSecret({
  title,
  once,
  label,
  value,
  hint,
  copied: copiedMessage,
  testIds,
  onDone,
}: {
  /** A first line naming what was made. */
  title?: string;
  /** Says the secret is shown this once. */
  once: string;
  label: string;
  value: string;
  /** How to use it, under the field. */
  hint?: string;
  /** Said by the toast once copied. */
  copied: string;
  testIds: { panel: string; value: string; copy: string; done: string };
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    input.current?.focus();
  }, []);
  const copy = async () => {
    const ok = await copyText(value, input.current);
    setCopied(ok);
    toast.show(ok ? copiedMessage : t('account:token_copy_failed'), ok ? 'success' : 'error');
  };
  return (
    <div className="notice notice-success token-created" role="status" data-testid={testIds.panel}>
      {title && <p className="item-title">{title}</p>}
      <p>{once}</p>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <div className="input-with-button">
        <input
          ref={input}
          id={id}
          type="text"
          readOnly
          className="mono"
          value={value}
          onFocus={(event) => event.currentTarget.select()}
          data-testid={testIds.value}
        />
        <button
          type="button"
          className="button button-primary"
          onClick={() => void copy()}
          data-testid={testIds.copy}
        >
          {copied ? <CheckIcon /> : <CopyIcon />}
          {t(copied ? 'uploader:copied' : 'uploader:copy')}
        </button>
      </div>
      {hint && <p className="field-hint">{hint}</p>}
      <div className="auth-actions">
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={onDone}
          data-testid={testIds.done}
        >
          {t('account:token_done')}
        </button>
      </div>
    </div>
  );
}
