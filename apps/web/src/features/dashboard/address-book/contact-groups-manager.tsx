import { CONTACT_GROUP_NAME_MAX, type ContactGroupDetail, MAX_CONTACT_GROUPS } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDescribeError } from '../../../hooks/use-describe-error';
import {
  addGroupMembers,
  CONTACTS_QUERY_KEY,
  contactsExportUrl,
  createContactGroup,
  deleteContactGroup,
  getContactGroup,
  listContactGroups,
  listContacts,
  removeGroupMember,
  renameContactGroup,
} from '../../../lib/contacts-api';
import { isEmail, splitAddresses } from '../../uploader/recipients';
import { ConfirmButton } from '../transfers/confirm-button';
import { useDebouncedValue } from '../transfers/use-debounced-value';
import { CONTACT_SEARCH_DEBOUNCE_MS } from './address-book-contacts';
import { useContactsAction } from './contacts-action';

/** The account's groups (all of them: at most MAX_CONTACT_GROUPS), one query for both pages, forms and import. */
export function useContactGroups() {
  return useQuery({
    queryKey: [CONTACTS_QUERY_KEY, 'groups'],
    queryFn: ({ signal }) => listContactGroups({ limit: MAX_CONTACT_GROUPS }, signal),
  });
}

/** A name field with its button: create a group, or rename one. */
function NameForm(props: {
  initial: string;
  label: string;
  submit: string;
  testId: string;
  pending: boolean;
  onSubmit: (name: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [name, setName] = useState(props.initial);
  const [checked, setChecked] = useState(false);
  const empty = checked && name.trim() === '';
  return (
    <form
      className="group-name-form"
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        setChecked(true);
        if (name.trim() !== '') props.onSubmit(name.trim());
      }}
    >
      <div className="field">
        <label htmlFor={id}>{props.label}</label>
        <div className="input-with-button">
          <input
            id={id}
            type="text"
            value={name}
            maxLength={CONTACT_GROUP_NAME_MAX}
            autoComplete="off"
            aria-invalid={empty || undefined}
            onChange={(event) => setName(event.target.value)}
            data-testid={`${props.testId}-name`}
          />
          <button
            type="submit"
            className="button button-primary button-small"
            disabled={props.pending}
            data-testid={`${props.testId}-submit`}
          >
            {props.submit}
          </button>
        </div>
        {empty && <p className="field-error">{t('account:groups.name_required')}</p>}
      </div>
    </form>
  );
}

/** Contacts of the book, searched, not yet in the group: each with an Add button; or addresses typed in. */
function MemberPicker({ group }: { group: ContactGroupDetail }) {
  const { t } = useTranslation();
  const id = useId();
  const [search, setSearch] = useState('');
  const [typed, setTyped] = useState('');
  const [typedError, setTypedError] = useState<string | null>(null);
  const q = useDebouncedValue(search.trim(), CONTACT_SEARCH_DEBOUNCE_MS);
  const add = useContactsAction('groups.done_members_added');
  const candidates = useQuery({
    queryKey: [CONTACTS_QUERY_KEY, 'contacts', 'picker', q],
    queryFn: ({ signal }) => listContacts({ q: q || undefined, limit: 20, sort: 'recent' }, signal),
  });
  const members = new Set(group.members.map((m) => m.id));
  const offered = (candidates.data?.items ?? []).filter((c) => !members.has(c.id));

  const addTyped = (event: FormEvent) => {
    event.preventDefault();
    const entries = splitAddresses(typed);
    const invalid = entries.filter((e) => !isEmail(e));
    if (entries.length === 0 || invalid.length > 0) {
      setTypedError(
        invalid.length > 0
          ? t('uploader:recipients_invalid', { count: invalid.length, list: invalid.join(', ') })
          : t('account:groups.add_emails_missing'),
      );
      return;
    }
    setTypedError(null);
    add.run(
      () => addGroupMembers(group.id, { emails: entries }),
      () => setTyped(''),
    );
  };

  return (
    <section className="group-picker" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`} className="section-title">
        {t('account:groups.add_title')}
      </h3>
      <div className="field">
        <label htmlFor={`${id}-search`}>{t('account:groups.pick_search')}</label>
        <input
          id={`${id}-search`}
          type="search"
          value={search}
          maxLength={200}
          placeholder={t('account:contacts.search_hint')}
          onChange={(event) => setSearch(event.target.value)}
          data-testid="group-pick-search"
        />
      </div>
      {candidates.data && offered.length === 0 && (
        <p className="muted" data-testid="group-pick-empty">
          {t('account:groups.pick_none')}
        </p>
      )}
      {offered.length > 0 && (
        <ul className="group-members" aria-label={t('account:groups.pick_label')}>
          {offered.map((contact) => (
            <li key={contact.id} className="group-member" data-testid="group-pick-row">
              <span className="group-member-text">
                <strong>{contact.name ?? contact.email}</strong>
                {contact.name && <span className="muted"> {contact.email}</span>}
              </span>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={add.pending}
                aria-label={t('account:groups.pick_add_label', {
                  name: contact.name ?? contact.email,
                  group: group.name,
                })}
                onClick={() => add.run(() => addGroupMembers(group.id, { contactIds: [contact.id] }))}
                data-testid="group-pick-add"
              >
                {t('account:groups.pick_add')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="field" noValidate onSubmit={addTyped}>
        <label htmlFor={`${id}-emails`}>{t('account:groups.add_emails')}</label>
        <div className="input-with-button">
          <input
            id={`${id}-emails`}
            type="text"
            inputMode="email"
            autoCapitalize="off"
            spellCheck={false}
            value={typed}
            placeholder={t('uploader:recipients_placeholder')}
            aria-invalid={typedError !== null || undefined}
            onChange={(event) => setTyped(event.target.value)}
            data-testid="group-add-emails"
          />
          <button
            type="submit"
            className="button button-secondary button-small"
            disabled={add.pending}
            data-testid="group-add-emails-submit"
          >
            {t('account:groups.pick_add')}
          </button>
        </div>
        <p className="field-hint">{t('account:groups.add_emails_hint')}</p>
      </form>
      {(typedError ?? add.error) && (
        <p className="field-error" role="alert" data-testid="group-add-error">
          {typedError ?? add.error}
        </p>
      )}
    </section>
  );
}

/** One group: rename, delete (after a question), its members (remove), and contacts to add. */
function GroupDetail({ id, onDeleted }: { id: string; onDeleted: () => void }) {
  const { t } = useTranslation();
  const describe = useDescribeError();
  const group = useQuery({
    queryKey: [CONTACTS_QUERY_KEY, 'group', id],
    queryFn: ({ signal }) => getContactGroup(id, signal),
  });
  const rename = useContactsAction('groups.done_renamed');
  const remove = useContactsAction('groups.done_deleted');
  const removeMember = useContactsAction('groups.done_member_removed');
  if (group.error)
    return (
      <p className="field-error" role="alert" data-testid="group-error">
        {describe(group.error)}
      </p>
    );
  if (!group.data)
    return (
      <p className="muted" role="status" aria-busy="true">
        {t('account:loading')}
      </p>
    );
  const data = group.data;
  return (
    <section className="group-detail" aria-labelledby="group-detail-title" data-testid="group-detail">
      <h2 id="group-detail-title" className="section-title" data-testid="group-detail-name">
        {data.name}
      </h2>
      <p className="muted">{t('account:groups.members', { count: data.memberCount })}</p>
      <NameForm
        key={data.name}
        initial={data.name}
        label={t('account:groups.rename_label')}
        submit={t('account:groups.rename')}
        testId="group-rename"
        pending={rename.pending}
        onSubmit={(name) => rename.run(() => renameContactGroup(id, name))}
      />
      {rename.error && (
        <p className="field-error" role="alert" data-testid="group-rename-error">
          {rename.error}
        </p>
      )}
      <div className="group-actions">
        <ConfirmButton
          label={t('account:groups.delete')}
          question={t('account:groups.delete_confirm', { name: data.name })}
          testId="group-delete"
          disabled={remove.pending}
          onConfirm={() => remove.run(() => deleteContactGroup(id), onDeleted)}
        />
        <a className="button button-secondary button-small" href={contactsExportUrl('vcard', id)} download>
          {t('account:groups.export')}
        </a>
      </div>
      {remove.error && (
        <p className="field-error" role="alert">
          {remove.error}
        </p>
      )}
      {data.members.length === 0 ? (
        <p className="muted" data-testid="group-members-empty">
          {t('account:groups.no_members')}
        </p>
      ) : (
        <ul className="group-members" aria-label={t('account:groups.members_label', { name: data.name })}>
          {data.members.map((member) => {
            const label = member.name ?? member.email;
            return (
              <li key={member.id} className="group-member" data-testid="group-member">
                <span className="group-member-text">
                  <strong>{label}</strong>
                  {member.name && <span className="muted"> {member.email}</span>}
                </span>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={removeMember.pending}
                  aria-label={t('account:groups.member_remove_label', { name: label, group: data.name })}
                  onClick={() => removeMember.run(() => removeGroupMember(id, member.id))}
                  data-testid="group-member-remove"
                >
                  {t('account:groups.member_remove')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {removeMember.error && (
        <p className="field-error" role="alert">
          {removeMember.error}
        </p>
      )}
      <MemberPicker group={data} />
    </section>
  );
}

/**
 * The contact groups (spec §1, §2): create, pick one to rename, delete, and manage its members. Shown as
 * /dashboard/contact-groups and as the "My groups" tab of /dashboard/address-book (#my-groups).
 */
export function ContactGroupsManager() {
  const { t } = useTranslation();
  const groups = useContactGroups();
  const describe = useDescribeError();
  const [selected, setSelected] = useState<string | null>(null);
  const create = useContactsAction('groups.done_created');
  const items = groups.data?.items ?? [];
  const current = selected && items.some((g) => g.id === selected) ? selected : null;

  return (
    <div className="contact-groups" data-testid="contact-groups">
      <div className="contact-groups-list">
        <NameForm
          initial=""
          key={create.pending ? 'creating' : 'idle'}
          label={t('account:groups.create_label')}
          submit={t('account:groups.create')}
          testId="group-create"
          pending={create.pending}
          onSubmit={(name) =>
            create.run(
              () => createContactGroup(name),
              (group) => setSelected(group.id),
            )
          }
        />
        {create.error && (
          <p className="field-error" role="alert" data-testid="group-create-error">
            {create.error}
          </p>
        )}
        {groups.isPending && (
          <p className="muted" role="status" aria-busy="true">
            {t('account:loading')}
          </p>
        )}
        {groups.error ? (
          <p className="field-error" role="alert">
            {describe(groups.error)}
          </p>
        ) : null}
        {groups.data && (
          <p className="muted" data-testid="groups-total">
            {t('account:groups.total', { count: groups.data.count, max: groups.data.max })}
          </p>
        )}
        {items.length > 0 && (
          <ul className="group-list" aria-label={t('account:groups.list_label')}>
            {items.map((group) => (
              <li key={group.id}>
                <button
                  type="button"
                  className="group-list-item"
                  aria-current={group.id === current || undefined}
                  onClick={() => setSelected(group.id)}
                  data-testid="group-item"
                >
                  <span className="group-list-name">{group.name}</span>
                  <span className="muted">{t('account:groups.members', { count: group.memberCount })}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      <div className="contact-groups-detail">
        {current ? (
          <GroupDetail key={current} id={current} onDeleted={() => setSelected(null)} />
        ) : (
          groups.data && (
            <p className="muted" data-testid="group-none-selected">
              {items.length > 0 ? t('account:groups.choose_group') : t('account:groups.empty')}
            </p>
          )
        )}
      </div>
    </div>
  );
}
