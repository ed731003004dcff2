import type { AuthState, PlanCatalogue } from '@ferry/core';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../i18n';
import UploaderRoute from '../../routes/uploader.route';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { catalogue } from '../billing/billing.fixture';
import { MOBILE_BANNER_DISMISSED_KEY, MobileBanner } from './mobile-banner';
import { PROMO_DISMISSED_KEY, PromoPanel } from './promo-panel';
import { MAIN_DOMAIN_FR, setSiteConfig } from './visitors.fixture';

const routes = [
  { path: '/', element: <UploaderRoute /> },
  {
    path: '/prices',
    element: (
      <>
        <MobileBanner />
        <PromoPanel />
      </>
    ),
  },
];

let view: Rendered | undefined;

function serve(me: AuthState, plans: PlanCatalogue = catalogue()) {
  return mockApi({ 'GET /api/auth/me': () => json(me), 'GET /api/pay/plans': () => json(plans) });
}

async function open(path: string): Promise<HTMLElement> {
  view = await render(authHarness(routes, path).ui);
  await settle();
  return view.container;
}

async function reopen(path: string): Promise<HTMLElement> {
  await view?.unmount();
  return open(path);
}

const find = (root: ParentNode, id: string) => root.querySelector(`[data-testid="${id}"]`);

describe('the mobile banner and the promo panel of the home page', () => {
  beforeEach(() => {
    sessionStorage.clear();
    setSiteConfig(MAIN_DOMAIN_FR);
  });
  afterEach(async () => {
    await view?.unmount();
    view = undefined;
    setSiteConfig(null);
    sessionStorage.clear();
    await act(async () => {
      await i18next.changeLanguage('en');
    });
    vi.unstubAllGlobals();
  });

  it('shows both beside the uploader to a signed-out visitor of the main domain’s home', async () => {
    serve(anonymousState());
    const root = await open('/');
    expect(find(root, 'file-input')).not.toBeNull();
    const banner = byTestId(root, 'mobile-banner');
    expect(banner.textContent).toContain('Ferry works right in your phone’s browser, nothing to install.');
    expect(byTestId<HTMLAnchorElement>(root, 'mobile-banner-apps').getAttribute('href')).toBe('/apps');
    const promo = byTestId(root, 'promo-panel');
    expect(promo.closest('.uploader-aside')).not.toBeNull();
    expect(promo.querySelector('h2')?.textContent).toBe('Need to send more?');
    expect(promo.getAttribute('aria-labelledby')).toBe(promo.querySelector('h2')?.id);
    // The limits are core's plan table, formatted: nothing in the text is written out by hand.
    expect(byTestId(root, 'promo-PREMIUM').textContent).toBe(
      'Premium: transfers up to 250 GB, available for up to 365 days.',
    );
    expect(byTestId(root, 'promo-TEAM').textContent).toBe(
      'Team: transfers up to 500 GB, available for up to 365 days.',
    );
    expect(byTestId(root, 'promo-free').textContent).toBe(
      'Free: transfers up to 5 GB, available for up to 7 days.',
    );
    expect(byTestId(root, 'promo-prices').getAttribute('href')).toBe('/prices');
    const register = byTestId(root, 'promo-register');
    expect(register.getAttribute('href')).toBe('/register?type=PREMIUM&trial=true');
    expect(register.textContent).toBe('Try Premium free for 14 days');
  });

  it('offers no trial when the instance gives none, and only the plans it sells', async () => {
    const plans = catalogue({ trialDays: 0 });
    serve(anonymousState(), { ...plans, plans: plans.plans.filter((plan) => plan.planType !== 'TEAM') });
    const root = await open('/');
    expect(find(root, 'promo-PREMIUM')).not.toBeNull();
    expect(find(root, 'promo-TEAM')).toBeNull();
    const register = byTestId(root, 'promo-register');
    expect(register.getAttribute('href')).toBe('/register?type=PREMIUM');
    expect(register.textContent).toBe('Choose Premium');
  });

  it('shows no promo panel when the catalogue cannot be read or sells no plan', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    let root = await open('/');
    expect(find(root, 'mobile-banner')).not.toBeNull();
    expect(find(root, 'promo-panel')).toBeNull();
    serve(anonymousState(), { ...catalogue(), plans: [] });
    root = await reopen('/');
    expect(find(root, 'promo-panel')).toBeNull();
  });

  it('shows neither to a signed-in user, nor asks for the catalogue', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/pay/plans': () => json(catalogue()),
    });
    const root = await open('/');
    expect(find(root, 'file-input')).not.toBeNull();
    expect(find(root, 'mobile-banner')).toBeNull();
    expect(find(root, 'promo-panel')).toBeNull();
    expect(api.to('GET /api/pay/plans')).toEqual([]);
  });

  it('shows neither off the main domain or without the server’s settings', async () => {
    serve(anonymousState());
    setSiteConfig({ madeInCountry: 'FR', mainDomain: false });
    let root = await open('/');
    expect(find(root, 'mobile-banner')).toBeNull();
    expect(find(root, 'promo-panel')).toBeNull();
    setSiteConfig(null);
    root = await reopen('/');
    expect(find(root, 'file-input')).not.toBeNull();
    expect(find(root, 'mobile-banner')).toBeNull();
    expect(find(root, 'promo-panel')).toBeNull();
  });

  it('shows neither on another page', async () => {
    serve(anonymousState());
    const root = await open('/prices');
    expect(find(root, 'mobile-banner')).toBeNull();
    expect(find(root, 'promo-panel')).toBeNull();
  });

  it('each stays dismissed for the session, the other one staying', async () => {
    serve(anonymousState());
    let root = await open('/');
    await click(byTestId(root, 'mobile-banner-dismiss'));
    expect(find(root, 'mobile-banner')).toBeNull();
    expect(find(root, 'promo-panel')).not.toBeNull();
    expect(sessionStorage.getItem(MOBILE_BANNER_DISMISSED_KEY)).toBe('1');
    root = await reopen('/');
    expect(find(root, 'mobile-banner')).toBeNull();
    await click(byTestId(root, 'promo-dismiss'));
    expect(find(root, 'promo-panel')).toBeNull();
    expect(sessionStorage.getItem(PROMO_DISMISSED_KEY)).toBe('1');
    root = await reopen('/');
    expect(find(root, 'file-input')).not.toBeNull();
    expect(find(root, 'promo-panel')).toBeNull();
    // A new session shows them again.
    sessionStorage.clear();
    root = await reopen('/');
    expect(find(root, 'mobile-banner')).not.toBeNull();
    expect(find(root, 'promo-panel')).not.toBeNull();
  });

  it('speaks the page’s language: the apps link under its prefix, the limits formatted for it', async () => {
    serve(anonymousState());
    await act(async () => {
      await i18next.changeLanguage('fr');
    });
    const root = await open('/');
    expect(byTestId<HTMLAnchorElement>(root, 'mobile-banner-apps').getAttribute('href')).toBe('/fr/apps');
    expect(byTestId(root, 'promo-PREMIUM').textContent).toBe(
      'Premium\u00a0: transferts jusqu’à 250\u202fGo, disponibles jusqu’à 365\u00a0jours.',
    );
    expect(byTestId(root, 'promo-register').textContent).toBe(
      'Essayer Premium gratuitement pendant 14\u00a0jours',
    );
  });
});
