import {
  type DashboardMenuItem,
  type DashboardMenuItemId,
  type DashboardMenuSection,
  dashboardMenu,
  expandedDashboardMenu,
  menuViewerOf,
  normalizeMenuPath,
} from '@ferry/core';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NavLink, useLocation } from 'react-router';
import { MOBILE_QUERY, useMediaQuery } from '../../components/slide-panel-media';
import { useAuth } from '../auth/auth-context';
import { dashboardDestination } from './dashboard-pages';

/** The label of each entry (literal keys, so that the locale check sees them). */
const LABELS: Record<DashboardMenuItemId, string> = {
  overview: 'account:dashboard.menu_overview',
  transfers: 'account:dashboard.menu_transfers',
  settings: 'account:dashboard.menu_settings',
  address_book: 'account:dashboard.menu_address_book',
  contact_groups: 'account:dashboard.menu_contact_groups',
  customization: 'account:dashboard.menu_customization',
  inboxes: 'account:dashboard.menu_inboxes',
  api: 'account:dashboard.menu_api',
  admin_overview: 'account:dashboard.menu_admin_overview',
  admin_transfers: 'account:dashboard.menu_admin_transfers',
  admin_transfer_settings: 'account:dashboard.menu_admin_transfer_settings',
  security_logs: 'account:dashboard.menu_security_logs',
  users: 'account:dashboard.menu_users',
  user_groups: 'account:dashboard.menu_user_groups',
  authentication: 'account:dashboard.menu_authentication',
};

const SECTION_LABELS: Record<DashboardMenuSection, string> = {
  main: 'account:dashboard.menu_section_main',
  admin: 'account:dashboard.menu_section_admin',
};

type Expansion = Record<DashboardMenuSection, boolean>;

function expansionOf(section: DashboardMenuSection): Expansion {
  return { main: section === 'main', admin: section === 'admin' };
}

function MenuEntry({ item }: { item: DashboardMenuItem }) {
  const { t } = useTranslation();
  const label = t(LABELS[item.id]);
  const destination = dashboardDestination(item.path);
  if (destination === null) {
    // Not built yet: named, never a dead link.
    return (
      <span className="dashboard-menu-item is-coming" data-testid={`menu-${item.id}`}>
        <span>{label}</span>
        <span className="badge">{t('account:dashboard.menu_soon')}</span>
      </span>
    );
  }
  return (
    <NavLink
      to={destination}
      end={item.path === '/dashboard'}
      className="dashboard-menu-item"
      data-testid={`menu-${item.id}`}
    >
      {label}
    </NavLink>
  );
}

/**
 * The dashboard menu (spec §2, §6): the main menu and, for a user with team features, the admin menu (its
 * administration entries only for whoever may use them: the manager, or a member with the permission), each a
 * disclosure that starts expanded by the spec's rule on each new page (expandedDashboardMenu); on phones the
 * whole menu folds behind one button that names the current page. Escape folds it back.
 */
export function DashboardMenu() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const { pathname } = useLocation();
  const mobile = useMediaQuery(MOBILE_QUERY);
  const id = useId();
  const toggle = useRef<HTMLButtonElement>(null);
  const viewer = menuViewerOf(state);
  const menu = dashboardMenu(viewer);
  const sections = (['main', 'admin'] as const).filter((section) => menu[section].length > 0);
  // Without an admin menu, its rule opens the only one there is.
  const rule = menu.admin.length === 0 ? 'main' : expandedDashboardMenu(pathname, viewer);

  const [expanded, setExpanded] = useState<Expansion>(() => expansionOf(rule));
  const [open, setOpen] = useState(false);
  const [seen, setSeen] = useState({ pathname, rule });
  if (seen.pathname !== pathname || seen.rule !== rule) {
    // A new page (or a new plan): the rule decides again; a new page folds the phone menu.
    if (seen.pathname !== pathname) setOpen(false);
    setSeen({ pathname, rule });
    setExpanded(expansionOf(rule));
  }

  const path = normalizeMenuPath(pathname);
  // The page's own entry, or the one it lies under (a transfer's detail, an inbox's page): the longest match.
  const current = [...menu.main, ...menu.admin]
    .filter((item) => item.path === path || (item.path !== '/dashboard' && path.startsWith(`${item.path}/`)))
    .sort((a, b) => b.path.length - a.path.length)[0];
  const folded = mobile && !open;

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !mobile || !open) return;
    setOpen(false);
    toggle.current?.focus();
  };

  return (
    <nav
      className="dashboard-menu"
      aria-label={t('account:dashboard.menu_label')}
      data-mobile={mobile}
      onKeyDown={onKeyDown}
      data-testid="dashboard-menu"
    >
      {mobile && (
        <button
          ref={toggle}
          type="button"
          className="dashboard-menu-toggle"
          aria-expanded={open}
          aria-controls={`${id}-sections`}
          onClick={() => setOpen((value) => !value)}
          data-testid="dashboard-menu-toggle"
        >
          <span className="dashboard-menu-toggle-label">{t('account:dashboard.menu_toggle')}</span>
          <span>{current ? t(LABELS[current.id]) : t('account:dashboard.menu_label')}</span>
          <span className="dashboard-menu-chevron" aria-hidden="true" />
        </button>
      )}
      <div id={`${id}-sections`} className="dashboard-menu-sections" hidden={folded}>
        {sections.map((section) => (
          <div key={section} className="dashboard-menu-section" data-testid={`menu-section-${section}`}>
            <button
              type="button"
              className="dashboard-menu-heading"
              aria-expanded={expanded[section]}
              aria-controls={`${id}-${section}`}
              onClick={() => setExpanded((value) => ({ ...value, [section]: !value[section] }))}
              data-testid={`menu-heading-${section}`}
            >
              <span>{t(SECTION_LABELS[section])}</span>
              <span className="dashboard-menu-chevron" aria-hidden="true" />
            </button>
            <ul id={`${id}-${section}`} hidden={!expanded[section]}>
              {menu[section].map((item) => (
                <li key={item.id}>
                  <MenuEntry item={item} />
                </li>
              ))}
            </ul>
          </div>
        ))}
      </div>
    </nav>
  );
}
