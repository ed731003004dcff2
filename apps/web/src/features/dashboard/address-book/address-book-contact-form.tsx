import {
  CONTACT_COMPANY_MAX,
  CONTACT_NAME_MAX,
  CONTACT_NOTES_MAX,
  type Contact,
  type ContactGroup,
} from '@ferry/core';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isEmail } from '../../uploader/recipients';

export interface ContactDraft {
  email: string;
  name: string;
  company: string;
  notes: string;
  groupIds: string[];
}

const draftOf = (contact?: Contact): ContactDraft => ({
  email: contact?.email ?? '',
  name: contact?.name ?? '',
  company: contact?.company ?? '',
  notes: contact?.notes ?? '',
  groupIds: contact?.groupIds ?? [],
});

/**
 * A contact's fields (address, name, company, notes) and its groups: to add a contact, or to edit one in place.
 * The address is checked before anything is sent; the server's refusal shows under the form.
 */
export function ContactForm(props: {
  contact?: Contact;
  groups: readonly ContactGroup[];
  pending: boolean;
  error: string | null;
  testId: string;
  onSubmit: (draft: ContactDraft) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [draft, setDraft] = useState<ContactDraft>(() => draftOf(props.contact));
  const [checked, setChecked] = useState(false);
  const email = useRef<HTMLInputElement>(null);
  const badEmail = checked && !isEmail(draft.email);
  const set = (field: keyof Omit<ContactDraft, 'groupIds'>) => (value: string) =>
    setDraft((d) => ({ ...d, [field]: value }));

  useEffect(() => {
    email.current?.focus();
  }, []);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (!isEmail(draft.email)) {
      email.current?.focus();
      return;
    }
    props.onSubmit({ ...draft, email: draft.email.trim() });
  };

  const field = (name: 'name' | 'company', max: number) => (
    <div className="field">
      <label htmlFor={`${id}-${name}`}>{t(`account:contacts.field_${name}`)}</label>
      <input
        id={`${id}-${name}`}
        type="text"
        value={draft[name]}
        maxLength={max}
        autoComplete="off"
        onChange={(event) => set(name)(event.target.value)}
        data-testid={`${props.testId}-${name}`}
      />
    </div>
  );

  return (
    <form className="contact-form" noValidate onSubmit={submit} data-testid={props.testId}>
      <div className="field">
        <label htmlFor={`${id}-email`}>{t('account:contacts.field_email')}</label>
        <input
          ref={email}
          id={`${id}-email`}
          type="email"
          inputMode="email"
          autoCapitalize="off"
          spellCheck={false}
          required
          value={draft.email}
          maxLength={320}
          aria-invalid={badEmail || undefined}
          aria-describedby={badEmail ? `${id}-email-error` : undefined}
          onChange={(event) => set('email')(event.target.value)}
          data-testid={`${props.testId}-email`}
        />
        {badEmail && (
          <p id={`${id}-email-error`} className="field-error" data-testid={`${props.testId}-email-error`}>
            {t('account:contacts.email_invalid')}
          </p>
        )}
      </div>
      <div className="contact-form-row">
        {field('name', CONTACT_NAME_MAX)}
        {field('company', CONTACT_COMPANY_MAX)}
      </div>
      <div className="field">
        <label htmlFor={`${id}-notes`}>{t('account:contacts.field_notes')}</label>
        <textarea
          id={`${id}-notes`}
          rows={2}
          value={draft.notes}
          maxLength={CONTACT_NOTES_MAX}
          onChange={(event) => set('notes')(event.target.value)}
          data-testid={`${props.testId}-notes`}
        />
      </div>
      {props.groups.length > 0 && (
        <fieldset className="fieldset contact-form-groups">
          <legend>{t('account:contacts.field_groups')}</legend>
          {props.groups.map((group) => (
            <label key={group.id} className="checkbox">
              <input
                type="checkbox"
                checked={draft.groupIds.includes(group.id)}
                onChange={(event) =>
                  setDraft((d) => ({
                    ...d,
                    groupIds: event.target.checked
                      ? [...d.groupIds, group.id]
                      : d.groupIds.filter((g) => g !== group.id),
                  }))
                }
                data-testid={`${props.testId}-group-${group.id}`}
              />
              <span>{group.name}</span>
            </label>
          ))}
        </fieldset>
      )}
      {props.error && (
        <p className="field-error" role="alert" data-testid={`${props.testId}-error`}>
          {props.error}
        </p>
      )}
      <div className="contact-form-actions">
        <button
          type="submit"
          className="button button-primary button-small"
          disabled={props.pending}
          data-testid={`${props.testId}-save`}
        >
          {t(props.contact ? 'account:contacts.save' : 'account:contacts.add')}
        </button>
        <button type="button" className="button button-secondary button-small" onClick={props.onCancel}>
          {t('common:cancel')}
        </button>
      </div>
    </form>
  );
}
