import { type ClipboardEvent, type KeyboardEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '../../components/icons';
import { getContactGroup } from '../../lib/contacts-api';
import { useAuth } from '../auth/auth-context';
import { type Suggestion, useContactSuggestions } from './contacts-suggestions';
import {
  type AddRecipientsResult,
  addAddresses,
  addRecipients,
  addressKey,
  endsWithSeparator,
  suggestionQuery,
} from './recipients';
import './contacts-suggestions.css';

interface RecipientsInputProps {
  recipients: readonly string[];
  /** Text typed and not yet turned into an address chip. */
  draft: string;
  /** At most this many recipients (plan limit, spec §9). */
  max: number;
  onChange: (recipients: string[], draft: string) => void;
  /** The form was submitted without any recipient. */
  missing: boolean;
  /** The field's label (default: uploader:field_recipients). */
  label?: string;
}

interface Feedback {
  invalid: string[];
  duplicates: string[];
  overLimit: number;
  added: number;
  /** The last contact group chosen: how many of its members came in, and how many did not fit. */
  group: { name: string; added: number; overLimit: number } | null;
  /** A group's members could not be read. */
  groupFailed: boolean;
}

const NO_FEEDBACK: Feedback = {
  invalid: [],
  duplicates: [],
  overLimit: 0,
  added: 0,
  group: null,
  groupFailed: false,
};

const feedbackOf = (result: AddRecipientsResult, before: number): Feedback => ({
  ...NO_FEEDBACK,
  invalid: result.invalid,
  duplicates: result.duplicates,
  overLimit: result.overLimit.length,
  added: result.recipients.length - before,
});

/**
 * The recipients of an e-mail transfer as chips: type or paste several addresses separated by commas,
 * semicolons, spaces or new lines; Enter (or leaving the field) adds what is typed, Backspace in the empty
 * field removes the last one. Each address is checked; duplicates are ignored; at most `max`. What is not an
 * address stays in the field with a message, so nothing typed is silently lost.
 *
 * Signed in, the field is a combobox over the address book: what is typed is looked up (contacts recently used
 * first, then groups); arrow keys move through the suggestions, Enter or a click takes one, Escape closes them.
 * A group brings in its members, skipping those already there, up to `max` (the rest is named, not added).
 */
export function RecipientsInput({ recipients, draft, max, onChange, missing, label }: RecipientsInputProps) {
  const { t } = useTranslation();
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [feedback, setFeedback] = useState<Feedback>(NO_FEEDBACK);
  const signedIn = useAuth().state.user !== null;
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [loadingGroup, setLoadingGroup] = useState<string | null>(null);
  // A group's members arrive later: they join the recipients of that moment, not of the click.
  const latest = useRef({ recipients, draft, onChange });
  latest.current = { recipients, draft, onChange };

  const query = suggestionQuery(draft);
  const found = useContactSuggestions(query, signedIn);
  const taken = new Set(recipients.map(addressKey));
  const suggestions = found.filter((s) => s.kind === 'group' || !taken.has(addressKey(s.email)));
  const listOpen = signedIn && open && query !== '' && suggestions.length > 0;
  const optionId = (index: number) => `${id}-option-${index}`;

  // A new list starts with nothing chosen.
  const listKey = suggestions.map((s) => s.id).join(',');
  useEffect(() => {
    void listKey;
    setActive(-1);
  }, [listKey]);

  /** Turns the addresses of `text` into chips; leaves what could not be added in the field. */
  const commit = (text: string) => {
    const result = addRecipients(recipients, text, max);
    const left = [...result.invalid, ...result.overLimit];
    setFeedback(feedbackOf(result, recipients.length));
    onChange(result.recipients, left.join(', '));
  };

  const choose = (suggestion: Suggestion) => {
    setOpen(false);
    if (suggestion.kind === 'contact') {
      const result = addAddresses(recipients, [suggestion.email], max);
      setFeedback(feedbackOf(result, recipients.length));
      // The text typed to find the contact is done with, unless the contact did not fit.
      onChange(result.recipients, result.overLimit.length > 0 ? draft : '');
      input.current?.focus();
      return;
    }
    setLoadingGroup(suggestion.name);
    getContactGroup(suggestion.id).then(
      (group) => {
        const now = latest.current;
        const result = addAddresses(
          now.recipients,
          group.members.map((m) => m.email),
          max,
        );
        setFeedback({
          ...NO_FEEDBACK,
          group: {
            name: group.name,
            added: result.recipients.length - now.recipients.length,
            overLimit: result.overLimit.length,
          },
        });
        now.onChange(result.recipients, '');
        setLoadingGroup(null);
      },
      () => {
        setFeedback({ ...NO_FEEDBACK, groupFailed: true });
        setLoadingGroup(null);
      },
    );
    input.current?.focus();
  };

  const type = (value: string) => {
    setOpen(true);
    if (endsWithSeparator(value) && value.trim() !== '') commit(value);
    else {
      if (value === '' && feedback.invalid.length > 0) setFeedback(NO_FEEDBACK);
      onChange([...recipients], value);
    }
  };

  const keyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const count = suggestions.length;
    if (signedIn && (event.key === 'ArrowDown' || event.key === 'ArrowUp') && query !== '' && count > 0) {
      event.preventDefault();
      setOpen(true);
      const down = event.key === 'ArrowDown';
      setActive((current) =>
        !listOpen
          ? down
            ? 0
            : count - 1
          : down
            ? (current + 1) % count
            : current <= 0
              ? count - 1
              : current - 1,
      );
    } else if (event.key === 'Escape' && listOpen) {
      // Closes the suggestions only; the page around stays as it is.
      event.preventDefault();
      event.stopPropagation();
      setOpen(false);
    } else if (event.key === 'Enter') {
      // Enter adds the address (or the suggestion chosen); it never sends the form from here.
      event.preventDefault();
      const chosen = listOpen && active >= 0 ? suggestions[active] : undefined;
      if (chosen) choose(chosen);
      else if (draft.trim() !== '') commit(draft);
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
  if (feedback.group && feedback.group.overLimit > 0)
    errors.push(
      t('uploader:recipients_group_trimmed', {
        count: feedback.group.overLimit,
        group: feedback.group.name,
        max,
      }),
    );
  if (feedback.groupFailed) errors.push(t('uploader:recipients_group_failed'));
  if (errors.length === 0 && missing && recipients.length === 0 && draft.trim() === '')
    errors.push(t('uploader:recipients_missing'));
  let status = '';
  if (loadingGroup) status = t('uploader:recipients_group_loading', { group: loadingGroup });
  else if (feedback.group)
    status =
      feedback.group.added > 0
        ? t('uploader:recipients_group_added', { count: feedback.group.added, group: feedback.group.name })
        : feedback.group.overLimit > 0
          ? ''
          : t('uploader:recipients_group_nothing', { group: feedback.group.name });
  else if (feedback.duplicates.length > 0)
    status = t('uploader:recipients_duplicates', {
      count: feedback.duplicates.length,
      list: feedback.duplicates.join(', '),
    });
  else if (feedback.added > 0) status = t('uploader:recipients_added', { count: feedback.added });
  const groupStatus = feedback.group !== null || loadingGroup !== null;

  const combobox = signedIn
    ? {
        role: 'combobox',
        'aria-autocomplete': 'list' as const,
        'aria-expanded': listOpen,
        'aria-controls': `${id}-suggestions`,
        'aria-activedescendant': listOpen && active >= 0 ? optionId(active) : undefined,
      }
    : {};

  return (
    <div className="field">
      <div className="field-label-row">
        <label htmlFor={`${id}-input`}>{label ?? t('uploader:field_recipients')}</label>
        <span
          id={`${id}-count`}
          className={`counter${full ? ' is-full' : ''}`}
          data-testid="recipients-count"
        >
          {t('uploader:recipients_counter', { count: recipients.length, max })}
        </span>
      </div>
      <div className="recipients-combobox">
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
            {...combobox}
            onChange={(event) => type(event.target.value)}
            onKeyDown={keyDown}
            onPaste={paste}
            onBlur={() => {
              setOpen(false);
              if (draft.trim() !== '') commit(draft);
            }}
            data-testid="recipients-input"
          />
        </div>
        {signedIn && (
          <div
            id={`${id}-suggestions`}
            role="listbox"
            className="contact-suggestions"
            aria-label={t('uploader:suggestions_label')}
            hidden={!listOpen}
            data-testid="recipient-suggestions"
          >
            {listOpen &&
              suggestions.map((suggestion, index) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys (ARIA combobox pattern).
                <div
                  key={suggestion.id}
                  id={optionId(index)}
                  role="option"
                  tabIndex={-1}
                  aria-selected={index === active}
                  className={`contact-suggestion${index === active ? ' is-active' : ''}`}
                  data-testid="recipient-suggestion"
                  // The input keeps focus (no blur, so what is typed is not turned into a chip first).
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => choose(suggestion)}
                >
                  {suggestion.kind === 'contact' ? (
                    <>
                      <span className="contact-suggestion-main">{suggestion.name ?? suggestion.email}</span>
                      {suggestion.name && (
                        <span className="contact-suggestion-detail">{suggestion.email}</span>
                      )}
                    </>
                  ) : (
                    <>
                      <span className="contact-suggestion-main">
                        {t('uploader:suggestion_group', { name: suggestion.name })}
                      </span>
                      <span className="contact-suggestion-detail">
                        {t('uploader:suggestion_group_members', { count: suggestion.memberCount })}
                      </span>
                    </>
                  )}
                </div>
              ))}
          </div>
        )}
      </div>
      <p id={`${id}-hint`} className="field-hint">
        {t(signedIn ? 'uploader:recipients_hint_contacts' : 'uploader:recipients_hint', { max })}
      </p>
      {errors.length > 0 && (
        <p id={`${id}-error`} className="field-error" role="alert" data-testid="recipients-error">
          {errors.join(' ')}
        </p>
      )}
      <p className="visually-hidden" role="status">
        {listOpen ? t('uploader:suggestions_count', { count: suggestions.length }) : status}
      </p>
      {status && (groupStatus || feedback.duplicates.length > 0) && (
        <p className="field-hint" data-testid={groupStatus ? 'recipients-group' : 'recipients-duplicates'}>
          {status}
        </p>
      )}
    </div>
  );
}
