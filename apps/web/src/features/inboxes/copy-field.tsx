import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CheckIcon, CopyIcon } from '../../components/icons';
import { copyText } from '../account/clipboard';
import { useToast } from '../toasts/toast-context';

/** A read-only value (an address, a snippet) with a Copy button; the value selects itself on focus. */
export function CopyField(props: {
  label: string;
  value: string;
  testId: string;
  multiline?: boolean;
  /** Said by the toast once copied. */
  copied: string;
}) {
  const { t } = useTranslation();
  const toast = useToast();
  const id = useId();
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  const [done, setDone] = useState(false);
  const copy = async () => {
    const ok = await copyText(props.value, input.current);
    setDone(ok);
    toast.show(ok ? props.copied : t('account:inboxes.copy_failed'), ok ? 'success' : 'error');
  };
  const common = {
    id,
    readOnly: true,
    value: props.value,
    className: 'mono',
    spellCheck: false,
    onFocus: (event: { currentTarget: { select(): void } }) => event.currentTarget.select(),
    'data-testid': props.testId,
  };
  return (
    <div className="field copy-field">
      <label htmlFor={id}>{props.label}</label>
      <div className="input-with-button">
        {props.multiline ? (
          <textarea ref={input} rows={3} {...common} />
        ) : (
          <input ref={input} type="text" {...common} />
        )}
        <button
          type="button"
          className="button button-secondary button-small"
          onClick={() => void copy()}
          aria-label={`${t('uploader:copy')} · ${props.label}`}
          data-testid={`${props.testId}-copy`}
        >
          {done ? <CheckIcon /> : <CopyIcon />}
          {t(done ? 'uploader:copied' : 'uploader:copy')}
        </button>
      </div>
    </div>
  );
}
