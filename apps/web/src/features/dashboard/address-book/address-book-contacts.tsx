import type { Contact, ContactGroup } from '@ferry/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../../hooks/use-describe-error';
import {
  CONTACTS_QUERY_KEY,
  createContact,
  deleteContact,
  listContacts,
  updateContact,
} from '../../../lib/contacts-api';
import { formatDate } from '../../../lib/format';
import { ConfirmButton } from '../transfers/confirm-button';
import { useDebouncedValue } from '../transfers/use-debounced-value';
import { type ContactDraft, ContactForm } from './address-book-contact-form';
import { useContactsAction } from './contacts-action';

/** How long typing must pause before the search asks the server. */
export const CONTACT_SEARCH_DEBOUNCE_MS = 300;
const PAGE = 50;

const fields = (draft: ContactDraft) => ({
  email: draft.email,
  name: draft.name,
  company: draft.company,
  notes: draft.notes,
  groupIds: draft.groupIds,
});

function ContactRow({ contact, groups }: { contact: Contact; groups: readonly ContactGroup[] }) {
  const { t, i18n } = useTranslation();
  const groupNames = new Map(groups.map((g) => [g.id, g.name]));
  const [editing, setEditing] = useState(false);
  const save = useContactsAction('contacts.done_saved');
  const remove = useContactsAction('contacts.done_deleted');
  const label = contact.name ?? contact.email;
  if (editing)
    return (
      <li className="contact-card" data-testid="contact-row">
        <ContactForm
          contact={contact}
          groups={groups}
          pending={save.pending}
          error={save.error}
          testId="contact-edit"
          onSubmit={(draft) =>
            save.run(
              () => updateContact(contact.id, fields(draft)),
              () => setEditing(false),
            )
          }
          onCancel={() => {
            save.reset();
            setEditing(false);
          }}
        />
      </li>
    );
  return (
    <li className="contact-card" data-testid="contact-row">
      <div className="contact-card-body">
        <p className="contact-card-title">
          <strong data-testid="contact-name">{label}</strong>
          {contact.source !== 'manual' && (
            <span className="contact-badge">{t(`account:contacts.source_${contact.source}`)}</span>
          )}
        </p>
        {contact.name && (
          <p className="contact-card-email" data-testid="contact-email">
            {contact.email}
          </p>
        )}
        {contact.company && <p className="muted">{contact.company}</p>}
        {contact.notes && <p className="contact-card-notes muted">{contact.notes}</p>}
        {contact.groupIds.length > 0 && (
          <ul className="contact-groups-chips" aria-label={t('account:contacts.in_groups')}>
            {contact.groupIds.map((id) => (
              <li key={id} className="contact-badge">
                {groupNames.get(id) ?? ''}
              </li>
            ))}
          </ul>
        )}
        {contact.lastUsedAt && (
          <p className="muted contact-card-used">
            {t('account:contacts.last_used', {
              date: formatDate(contact.lastUsedAt, i18n.language),
              count: contact.useCount,
            })}
          </p>
        )}
      </div>
      <div className="contact-card-actions">
        <button
          type="button"
          className="button button-secondary button-small"
          aria-label={t('account:contacts.edit_label', { name: label })}
          onClick={() => setEditing(true)}
          data-testid="contact-edit-open"
        >
          {t('account:contacts.edit')}
        </button>
        <ConfirmButton
          label={t('account:contacts.delete')}
          question={t('account:contacts.delete_confirm', { name: label })}
          testId="contact-delete"
          disabled={remove.pending}
          onConfirm={() => remove.run(() => deleteContact(contact.id))}
        />
      </div>
      {remove.error && (
        <p className="field-error" role="alert">
          {remove.error}
        </p>
      )}
    </li>
  );
}

/** The contacts tab of /dashboard/address-book: add one, search, edit or delete (after a question), page by page. */
export function AddressBookContacts({ groups }: { groups: readonly ContactGroup[] }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const searchId = useId();
  const [search, setSearch] = useState('');
  const q = useDebouncedValue(search.trim(), CONTACT_SEARCH_DEBOUNCE_MS);
  const [adding, setAdding] = useState(false);
  const add = useContactsAction('contacts.done_added');
  const list = useInfiniteQuery({
    queryKey: [CONTACTS_QUERY_KEY, 'contacts', q],
    queryFn: ({ pageParam, signal }) =>
      listContacts({ q: q || undefined, cursor: pageParam, limit: PAGE }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
  const items = list.data?.pages.flatMap((page) => page.items) ?? [];
  const first = list.data?.pages[0];

  return (
    <div className="address-book-contacts">
      <div className="address-book-toolbar">
        <div className="field address-book-search">
          <label htmlFor={searchId}>{t('account:contacts.search')}</label>
          <input
            id={searchId}
            type="search"
            value={search}
            maxLength={200}
            placeholder={t('account:contacts.search_hint')}
            onChange={(event) => setSearch(event.target.value)}
            data-testid="contacts-search"
          />
        </div>
        {!adding && (
          <button
            type="button"
            className="button button-primary button-small"
            onClick={() => setAdding(true)}
            data-testid="contact-add-open"
          >
            {t('account:contacts.add_open')}
          </button>
        )}
      </div>
      {adding && (
        <section className="contact-card contact-add" aria-label={t('account:contacts.add_title')}>
          <ContactForm
            groups={groups}
            pending={add.pending}
            error={add.error}
            testId="contact-add"
            onSubmit={(draft) =>
              add.run(
                () => createContact(fields(draft)),
                () => setAdding(false),
              )
            }
            onCancel={() => {
              add.reset();
              setAdding(false);
            }}
          />
        </section>
      )}
      {list.isPending && (
        <p className="muted" role="status" aria-busy="true" data-testid="contacts-loading">
          {t('account:loading')}
        </p>
      )}
      {list.error && (
        <div className="notice notice-error" role="alert" data-testid="contacts-error">
          <p>{describe(list.error)}</p>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => void list.refetch()}
          >
            {t('common:retry')}
          </button>
        </div>
      )}
      {first && (
        <p className="muted" role="status" data-testid="contacts-total">
          {q
            ? t('account:contacts.total_found', { count: first.total })
            : t('account:contacts.total', { count: first.count, max: first.max })}
        </p>
      )}
      {first && items.length === 0 && (
        <p className="muted" data-testid="contacts-empty">
          {q ? t('account:contacts.none_found') : t('account:contacts.empty')}
        </p>
      )}
      {items.length > 0 && (
        <ul className="contact-list" aria-label={t('account:contacts.list_label')}>
          {items.map((contact) => (
            <ContactRow key={contact.id} contact={contact} groups={groups} />
          ))}
        </ul>
      )}
      {list.hasNextPage && (
        <button
          type="button"
          className="button button-secondary"
          disabled={list.isFetchingNextPage}
          onClick={() => void list.fetchNextPage()}
          data-testid="contacts-more"
        >
          {t('account:contacts.more')}
        </button>
      )}
    </div>
  );
}
