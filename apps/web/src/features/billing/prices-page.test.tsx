import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle } from '../../test/render';
import { catalogue, choose, plain } from './billing.fixture';
import { PricesPage } from './prices-page';

const routes = [{ path: '/prices', element: <PricesPage /> }];

function taxRates(countryCode: string) {
  const rate = ({ FR: 20, DE: 19, US: 0 } as Record<string, number>)[countryCode] ?? 0;
  return json({ countryCode, rate, reverseCharge: false, vatNumberValid: null });
}

const select = choose;
const text = (root: ParentNode, id: string) => plain(byTestId(root, id).textContent);

describe('/prices', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(signedIn = false) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedIn ? signedInState() : anonymousState()),
      'GET /api/pay/plans': () => json(catalogue()),
      'GET /api/user/locations/country': () => json({ country: 'FR' }),
      'GET /api/pay/subscriptions/tax-rates': (call) => taxRates(call.query.get('countryCode') ?? ''),
    });
    view = await render(authHarness(routes, '/prices').ui);
    await settle(8);
    return { root: view.container, api };
  }

  it('shows each plan card with its price excl. and incl. the VAT of the visitor country', async () => {
    const { root, api } = await open();
    for (const code of ['PREMIUM', 'TEAM', 'TEAM10', 'TEAM25', 'CUSTOM']) byTestId(root, `plan-card-${code}`);
    expect(api.to('GET /api/pay/subscriptions/tax-rates')[0]?.query.get('countryCode')).toBe('FR');
    expect(byTestId<HTMLSelectElement>(root, 'prices-country').value).toBe('FR');
    expect(text(root, 'price-PREMIUM-excl')).toBe('€10.00');
    expect(text(root, 'price-PREMIUM-incl')).toBe('€12.00 incl. 20 % VAT');
    expect(text(root, 'prices-trial')).toContain('14 days');
    expect(byTestId(root, 'choose-CUSTOM').getAttribute('href')).toBe('/register/enterprise');
  });

  it('switches frequency (with the saving), currency and country', async () => {
    const { root } = await open();
    expect(text(root, 'frequency-switch')).toContain('save up to 25 %');
    await click(byTestId(root, 'frequency-ANNUAL'));
    expect(text(root, 'price-PREMIUM-excl')).toBe('€100.00');
    expect(text(root, 'price-PREMIUM')).toContain('per year');
    expect(text(root, 'saving-PREMIUM')).toBe('You save 17 %');
    await click(byTestId(root, 'frequency-BIANNUAL'));
    expect(text(root, 'price-TEAM10-excl')).toBe('€900.00');
    expect(text(root, 'saving-TEAM10')).toBe('You save 25 %');

    await select(byTestId(root, 'prices-currency'), 'USD');
    expect(text(root, 'price-PREMIUM-excl')).toBe('$198.00');

    await select(byTestId(root, 'prices-country'), 'DE');
    await settle(5);
    expect(text(root, 'price-PREMIUM-incl')).toBe('$235.62 incl. 19 % VAT');
    await select(byTestId(root, 'prices-country'), 'US');
    await settle(5);
    expect(text(root, 'price-PREMIUM-incl')).toBe('$198.00 incl. 0 % VAT');
  });

  it('offers the PREMIUM storage choice 1, 2, 5 and 10 TB', async () => {
    const { root } = await open();
    const storage = byTestId<HTMLSelectElement>(root, 'premium-storage');
    expect([...storage.options].map((o) => o.textContent)).toEqual(['1 TB', '2 TB', '5 TB', '10 TB']);
    await select(storage, 'PREMIUM_5TB');
    expect(text(root, 'price-PREMIUM_5TB-excl')).toBe('€25.00');
    expect(byTestId(root, 'choose-PREMIUM_5TB').getAttribute('href')).toBe(
      '/register?type=PREMIUM_5TB&frequency=MONTHLY&trial=false',
    );
  });

  it('leads a visitor to sign-up with the plan, and a signed-in user to checkout', async () => {
    let { root } = await open();
    await click(byTestId(root, 'frequency-ANNUAL'));
    expect(byTestId(root, 'choose-TEAM10').getAttribute('href')).toBe(
      '/register?type=TEAM10&frequency=ANNUAL&trial=false',
    );
    expect(byTestId(root, 'trial-TEAM10').getAttribute('href')).toBe(
      '/register?type=TEAM10&frequency=ANNUAL&trial=true',
    );
    await view.unmount();
    ({ root } = await open(true));
    expect(byTestId(root, 'trial-PREMIUM').getAttribute('href')).toBe(
      '/account/subscriptions?plan=PREMIUM&frequency=MONTHLY&trial=true&currency=EUR',
    );
  });
});
