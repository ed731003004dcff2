import { type KeyboardEvent, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '../../../lib/config';
import { AddressBookContacts } from './address-book-contacts';
import { AddressBookImport } from './address-book-import';
import { AddressBookSettings } from './address-book-settings';
import { ContactGroupsManager, useContactGroups } from './contact-groups-manager';
import './address-book.css';

/** The hash of the groups tab (spec §2: /dashboard/address-book#my-groups). */
export const GROUPS_HASH = '#my-groups';
const TABS = ['contacts', 'groups'] as const;
type Tab = (typeof TABS)[number];

/**
 * `/dashboard/address-book` (spec §2): the contacts (search, add, edit, delete, import, export, the auto-save
 * switch) and, as a second tab reached with #my-groups, the contact groups. Tabs follow the ARIA tabs pattern
 * (arrow keys, Home, End); the tab is the address's hash, so it survives a reload and works as a link.
 */
export function AddressBookPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const tabs = useRef<Record<Tab, HTMLButtonElement | null>>({ contacts: null, groups: null });
  const tab: Tab = location.hash === GROUPS_HASH ? 'groups' : 'contacts';
  const groups = useContactGroups();

  const select = (next: Tab, focus = false) => {
    void navigate({ hash: next === 'groups' ? GROUPS_HASH : '' }, { replace: true });
    if (focus) tabs.current[next]?.focus();
  };
  const keyDown = (event: KeyboardEvent) => {
    const index = TABS.indexOf(tab);
    const next =
      event.key === 'ArrowRight'
        ? TABS[(index + 1) % TABS.length]
        : event.key === 'ArrowLeft'
          ? TABS[(index + TABS.length - 1) % TABS.length]
          : event.key === 'Home'
            ? TABS[0]
            : event.key === 'End'
              ? TABS[TABS.length - 1]
              : undefined;
    if (!next) return;
    event.preventDefault();
    select(next, true);
  };

  return (
    <div className="dashboard-page address-book-page" data-testid="page-address-book">
      <title>{`${t('account:dashboard.menu_address_book')} · ${PRODUCT_NAME}`}</title>
      <header className="dashboard-page-header">
        <h1 className="panel-title">{t('account:dashboard.menu_address_book')}</h1>
        <p className="muted">{t('account:contacts.intro')}</p>
      </header>
      <div className="address-book-tabs" role="tablist" aria-label={t('account:contacts.tabs_label')}>
        {TABS.map((name) => (
          <button
            key={name}
            ref={(element) => {
              tabs.current[name] = element;
            }}
            type="button"
            role="tab"
            id={`address-book-tab-${name}`}
            aria-selected={tab === name}
            aria-controls={name === 'groups' ? 'my-groups' : 'address-book-contacts'}
            tabIndex={tab === name ? 0 : -1}
            className="address-book-tab"
            onClick={() => select(name)}
            onKeyDown={keyDown}
            data-testid={`address-book-tab-${name}`}
          >
            {t(`account:contacts.tab_${name}`)}
          </button>
        ))}
      </div>
      {tab === 'contacts' ? (
        <div
          role="tabpanel"
          id="address-book-contacts"
          aria-labelledby="address-book-tab-contacts"
          className="address-book-panel"
        >
          <section className="panel dashboard-card" aria-label={t('account:contacts.tab_contacts')}>
            <AddressBookSettings />
            <AddressBookContacts groups={groups.data?.items ?? []} />
          </section>
          <AddressBookImport groups={groups.data?.items ?? []} />
        </div>
      ) : (
        <div
          role="tabpanel"
          id="my-groups"
          aria-labelledby="address-book-tab-groups"
          className="address-book-panel"
        >
          <section className="panel dashboard-card" aria-label={t('account:contacts.tab_groups')}>
            <ContactGroupsManager />
          </section>
        </div>
      )}
    </div>
  );
}
