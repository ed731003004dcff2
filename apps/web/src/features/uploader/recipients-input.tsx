import { type ClipboardEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/icons';
import { addRecipients, endsWithSeparator } from './recipients';

interface RecipientsInputProps {
  recipients: readonly string[];
  /** Text typed and not yet turned into an address chip. */
  draft: string;
  /** At most this many recipients (plan limit, spec §9). */
  max: number;
  onChange: (recipients: string[], draft: string) => void;
  /** The form was submitted without any recipient. */
  missing: boolean;
}

interface Feedback {
  invalid: string[];
  duplicates: string[];
  overLimit: number;
  added: number;
}

const NO_FEEDBACK: Feedback = { invalid: [], duplicates: [], overLimit: 0, added: 0 };

/**
 * The recipients of an e-mail transfer as chips: type or paste several addresses separated by commas,
 * semicolons, spaces or new lines; Enter (or leaving the field) adds what is typed, Backspace in the empty
 * field removes the last one. Each address is checked; duplicates are ignored; at most `max`. What is not an
 * address stays in the field with a message, so nothing typed is silently lost.
 */
export function RecipientsInput({ recipients, draft, max, onChange, missing }: RecipientsInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [feedback, setFeedback] = useState<Feedback>(NO_FEEDBACK);

  /** Turns the addresses of `text` into chips; leaves what could not be added in the field. */
  const commit = (text: string) => {
    const result = addRecipients(recipients, text, max);
    const left = [...result.invalid, ...result.overLimit];
    setFeedback({
      invalid: result.invalid,
      duplicates: result.duplicates,
      overLimit: result.overLimit.length,
      added: result.recipients.length - recipients.length,
    });
    onChange(result.recipients, left.join(', '));
  };

  const type = (value: string) => {
    if (endsWithSeparator(value) && value.trim() !== '') commit(value);
    else {
      if (value === '' && feedback.invalid.length > 0) setFeedback(NO_FEEDBACK);
      onChange([...recipients], value);
    }
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Enter adds the address; it never sends the form from here.
      event.preventDefault();
      if (draft.trim() !== '') commit(draft);
    } else if (event.key === 'Backspace' && draft === '' && recipients.length > 0) {
      event.preventDefault();
      setFeedback(NO_FEEDBACK);
      onChange(recipients.slice(0, -1), '');
    }
  };

  const paste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!text) return;
    event.preventDefault();
    const element = event.currentTarget;
    const start = element.selectionStart ?? draft.length;
    const end = element.selectionEnd ?? draft.length;
    commit(`${draft.slice(0, start)}${text}${draft.slice(end)}`);
  };

  const remove = (index: number) => {
    setFeedback(NO_FEEDBACK);
    onChange(
      recipients.filter((_, i) => i !== index),
      draft,
    );
    input.current?.focus();
  };

  const full = recipients.length >= max;
  const errors: string[] = [];
  if (feedback.invalid.length > 0)
    errors.push(
      t('uploader:recipients_invalid', { count: feedback.invalid.length, list: feedback.invalid.join(', ') }),
    );
  if (feedback.overLimit > 0) errors.push(t('uploader:recipients_limit', { max }));
  if (errors.length === 0 && missing && recipients.length === 0 && draft.trim() === '')
    errors.push(t('uploader:recipients_missing'));
  let status = '';
  if (feedback.duplicates.length > 0)
    status = t('uploader:recipients_duplicates', {
      count: feedback.duplicates.length,
      list: feedback.duplicates.join(', '),
    });
  else if (feedback.added > 0) status = t('uploader:recipients_added', { count: feedback.added });

  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={`${id}-input`}>{t('uploader:field_recipients')}</label>
        <span
          id={`${id}-count`}
          className={`counter${full ? ' is-full' : ''}`}
          data-testid="recipients-count"
        >
          {t('uploader:recipients_counter', { count: recipients.length, max })}
        </span>
      </div>
      <div className={`chips-input${errors.length > 0 ? ' is-invalid' : ''}`}>
        {recipients.length > 0 && (
          <ul className="chips" aria-label={t('uploader:recipients_label')}>
            {recipients.map((address, index) => (
              <li key={address} className="chip" data-testid="recipient-chip">
                <span className="chip-text" title={address}>
                  {address}
                </span>
                <button
                  type="button"
                  className="chip-remove"
                  aria-label={t('uploader:recipient_remove', { email: address })}
                  onClick={() => remove(index)}
                >
                  <CloseIcon width={14} height={14} />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={`${id}-input`}
          type="text"
          inputMode="email"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={draft}
          placeholder={full ? '' : t('uploader:recipients_placeholder')}
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={`${id}-hint ${id}-count${errors.length > 0 ? ` ${id}-error` : ''}`}
          onChange={(event) => type(event.target.value)}
          onKeyDown={keyDown}
          onPaste={paste}
          onBlur={() => {
            if (draft.trim() !== '') commit(draft);
          }}
          data-testid="recipients-input"
        />
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {t('uploader:recipients_hint', { max })}
      </p>
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="recipients-error">
          {errors.join(' ')}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {status}
      </p>
      {feedback.duplicates.length > 0 && (
        <p className="field-hint" data-testid="recipients-duplicates">
          {status}
        </p>
      )}
    </div>
  );
}
