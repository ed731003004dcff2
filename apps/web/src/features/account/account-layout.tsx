import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink } from 'react-router';
import { PRODUCT_NAME } from '../../lib/config';

const SECTIONS = ['profile', 'security', 'integrations', 'subscriptions', 'invoices'] as const;
export type AccountSection = (typeof SECTIONS)[number];

/** The billing sections are named in the billing namespace. */
const SECTION_LABELS: Record<AccountSection, string> = {
  profile: 'account:nav_profile',
  security: 'account:nav_security',
  integrations: 'account:nav_integrations',
  subscriptions: 'billing:nav_subscriptions',
  invoices: 'billing:nav_invoices',
};

/**
 * The frame of /account/* inside the sliding panel (spec §2): the section links (aria-current on the open one)
 * with the way to the dashboard, a heading, the section.
 */
export function AccountLayout({
  section,
  title,
  children,
}: {
  section: AccountSection;
  title: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <div className="account-layout" data-testid={`page-account-${section}`}>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <nav className="account-nav" aria-label={t('account:nav_label')} data-testid="account-nav">
        <ul>
          {SECTIONS.map((name) => (
            <li key={name}>
              <NavLink
                to={`/account/${name}`}
                className="account-nav-link"
                data-testid={`account-nav-${name}`}
              >
                {t(SECTION_LABELS[name])}
              </NavLink>
            </li>
          ))}
          <li className="account-nav-extra">
            <NavLink to="/dashboard" end className="account-nav-link" data-testid="account-nav-dashboard">
              {t('account:dashboard_title')}
            </NavLink>
          </li>
        </ul>
      </nav>
      <section className="panel account-panel" aria-labelledby="account-title">
        <h1 id="account-title" className="panel-title">
          {title}
        </h1>
        {children}
      </section>
    </div>
  );
}
