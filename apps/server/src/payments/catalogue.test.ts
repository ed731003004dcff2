import { describe, expect, it } from 'vitest';
import { Catalogue, DEFAULT_PRICES, parsePrices } from './catalogue.js';

const billing = { trialDays: 14, providers: ['MANUAL' as const], stripe: null, paypal: null };

describe('prices', () => {
  it('built in: every self-service code in EUR, USD and GBP, longer periods cheaper per month', () => {
    const catalogue = new Catalogue(DEFAULT_PRICES, billing);
    for (const code of [
      'PREMIUM',
      'PREMIUM_2TB',
      'PREMIUM_5TB',
      'PREMIUM_10TB',
      'TEAM',
      'TEAM10',
      'TEAM25',
    ] as const)
      for (const currency of ['EUR', 'USD', 'GBP'] as const) {
        const monthly = catalogue.price(code, 'MONTHLY', currency)!;
        const annual = catalogue.price(code, 'ANNUAL', currency)!;
        const biannual = catalogue.price(code, 'BIANNUAL', currency)!;
        expect(annual / 12).toBeLessThan(monthly);
        expect(biannual / 24).toBeLessThan(annual / 12);
      }
    expect(catalogue.price('CUSTOM', 'ANNUAL', 'EUR')).toBeNull();
    expect(catalogue.currencies()).toEqual(['EUR', 'USD', 'GBP']);
  });

  it('from a file: only what it lists is sold; a bad entry names the file and its path', () => {
    const table = parsePrices({ plans: { PREMIUM: { ANNUAL: { GBP: 9900 } } } }, 'prices.json');
    const catalogue = new Catalogue(table, billing);
    expect(catalogue.price('PREMIUM', 'ANNUAL', 'GBP')).toBe(9900);
    expect(catalogue.price('PREMIUM', 'MONTHLY', 'GBP')).toBeNull();
    expect(catalogue.currencies()).toEqual(['GBP']);
    expect(catalogue.offers().plans.map((p) => p.planCode)).toEqual(['PREMIUM', 'CUSTOM']);
    expect(() =>
      parsePrices({ plans: { PREMIUM: { ANNUAL: { EUR: 12.5 } } } }, '/etc/ferry/prices.json'),
    ).toThrow(/PRICES_FILE \/etc\/ferry\/prices.json has bad entries:\n {2}plans\.PREMIUM\.ANNUAL\.EUR: /);
    expect(() => parsePrices({ plans: { CUSTOM: {} } }, 'p.json')).toThrow(/p.json/);
    expect(() => parsePrices({ plans: { PREMIUM: { WEEKLY: {} } } }, 'p.json')).toThrow(/plans\.PREMIUM/);
  });
});
