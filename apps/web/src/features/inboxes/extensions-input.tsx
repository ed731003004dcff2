import { type ClipboardEvent, type KeyboardEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/icons';

const EXTENSION = /^[a-z0-9][a-z0-9._+-]{0,19}$/;
export const MAX_EXTENSIONS = 200;

/** "PDF", ".pdf", " pdf " → "pdf" (the server's rule); null when it is not a file extension. */
export function normalizeExtension(value: string): string | null {
  const ext = value.trim().toLowerCase().replace(/^\.+/, '');
  return EXTENSION.test(ext) ? ext : null;
}

/** Splits typed or pasted text into extensions; what is not one is returned as invalid, never dropped. */
export function parseExtensions(text: string, current: readonly string[]) {
  const added: string[] = [];
  const invalid: string[] = [];
  for (const part of text.split(/[\s,;]+/)) {
    if (part.trim() === '') continue;
    const ext = normalizeExtension(part);
    if (!ext) invalid.push(part.trim());
    else if (!current.includes(ext) && !added.includes(ext)) added.push(ext);
  }
  return { added, invalid };
}

/**
 * The allowed extensions as chips: type or paste several (separated by commas, spaces or Enter), Backspace in
 * the empty field removes the last one. Empty means every extension.
 */
export function ExtensionsInput(props: {
  value: string[];
  onChange: (value: string[]) => void;
  /** Extensions the team does not allow (shown as errors). */
  outside?: readonly string[];
  hint: string;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [draft, setDraft] = useState('');
  const [invalid, setInvalid] = useState<string[]>([]);
  const { value, onChange } = props;

  const commit = (text: string) => {
    const parsed = parseExtensions(text, value);
    const room = Math.max(0, MAX_EXTENSIONS - value.length);
    if (parsed.added.length > 0) onChange([...value, ...parsed.added.slice(0, room)]);
    setInvalid(parsed.invalid);
    setDraft(parsed.invalid.join(' '));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' || event.key === ',' || event.key === ';') {
      event.preventDefault();
      if (draft.trim() !== '') commit(draft);
    } else if (event.key === 'Backspace' && draft === '' && value.length > 0) {
      onChange(value.slice(0, -1));
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const text = event.clipboardData.getData('text');
    if (!/[\s,;]/.test(text)) return;
    event.preventDefault();
    commit(`${draft} ${text}`);
  };
  const outside = props.outside ?? [];
  const errors: string[] = [];
  if (invalid.length > 0) errors.push(t('account:inboxes.extensions_invalid', { list: invalid.join(', ') }));
  if (outside.length > 0) errors.push(t('account:inboxes.extensions_outside', { list: outside.join(', ') }));

  return (
    <div className="field">
      <label htmlFor={id}>{t('account:inboxes.extensions_label')}</label>
      <div className={`chips-input${errors.length > 0 ? ' is-invalid' : ''}`}>
        {value.length > 0 && (
          <ul className="chips" aria-label={t('account:inboxes.extensions_label')}>
            {value.map((ext, index) => (
              <li
                key={ext}
                className={`chip${outside.includes(ext) ? ' is-invalid' : ''}`}
                data-testid={`${props.testId}-chip`}
              >
                <span className="chip-text">.{ext}</span>
                <button
                  type="button"
                  className="chip-remove"
                  aria-label={t('account:inboxes.extensions_remove', { ext })}
                  onClick={() => onChange(value.filter((_, i) => i !== index))}
                >
                  <CloseIcon width={14} height={14} />
                </button>
              </li>
            ))}
          </ul>
        )}
        <input
          ref={input}
          id={id}
          type="text"
          autoComplete="off"
          autoCapitalize="off"
          spellCheck={false}
          value={draft}
          placeholder={value.length === 0 ? t('account:inboxes.extensions_placeholder') : ''}
          aria-invalid={errors.length > 0 || undefined}
          aria-describedby={`${id}-hint${errors.length > 0 ? ` ${id}-error` : ''}`}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={onKeyDown}
          onPaste={onPaste}
          onBlur={() => {
            if (draft.trim() !== '') commit(draft);
          }}
          data-testid={props.testId}
        />
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {props.hint}
      </p>
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid={`${props.testId}-error`}>
          {errors.join(' ')}
        </p>
      )}
    </div>
  );
}
