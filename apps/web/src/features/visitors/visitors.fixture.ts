import { SITE_CONFIG_ELEMENT_ID } from '../../lib/site-config';

/** Puts the server's site settings element in the page as index.html carries it; null takes it out. */
export function setSiteConfig(settings: Record<string, unknown> | string | null): void {
  document.getElementById(SITE_CONFIG_ELEMENT_ID)?.remove();
  if (settings === null) return;
  const element = document.createElement('script');
  element.id = SITE_CONFIG_ELEMENT_ID;
  element.type = 'application/json';
  element.textContent = typeof settings === 'string' ? settings : JSON.stringify(settings);
  document.head.append(element);
}

export const MAIN_DOMAIN_FR = { madeInCountry: 'FR', mainDomain: true };
