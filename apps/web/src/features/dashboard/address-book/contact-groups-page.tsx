import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '../../../lib/config';
import { ContactGroupsManager } from './contact-groups-manager';
import './address-book.css';

/** `/dashboard/contact-groups` (spec §2): create, rename and delete groups, and choose their members. */
export function ContactGroupsPage() {
  const { t } = useTranslation();
  return (
    <div className="dashboard-page address-book-page" data-testid="page-contact-groups">
      <title>{`${t('account:dashboard.menu_contact_groups')} · ${PRODUCT_NAME}`}</title>
      <header className="dashboard-page-header">
        <h1 className="panel-title">{t('account:dashboard.menu_contact_groups')}</h1>
        <p className="muted">
          {t('account:groups.intro')}{' '}
          <Link to="/dashboard/address-book">{t('account:groups.to_address_book')}</Link>
        </p>
      </header>
      <section className="panel dashboard-card" aria-label={t('account:dashboard.menu_contact_groups')}>
        <ContactGroupsManager />
      </section>
    </div>
  );
}
