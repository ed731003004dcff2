import {
  BILLING_FREQUENCIES,
  INVOICE_STATUSES,
  PAYMENT_METHODS,
  PLAN_CODES,
  SUBSCRIPTION_STATUSES,
} from '@ferry/core';
import { describe, expect, it } from 'vitest';
import en from '../../i18n/locales/en.json';
import fr from '../../i18n/locales/fr.json';

describe('billing texts built from enums', () => {
  it('exist in English and French', () => {
    const keys = [
      ...PLAN_CODES.map((code) => `plan_name_${code}`),
      ...SUBSCRIPTION_STATUSES.map((status) => `status_${status}`),
      ...PAYMENT_METHODS.map((name) => `provider_${name}`),
      ...INVOICE_STATUSES.map((status) => `invoice_status_${status}`),
      ...BILLING_FREQUENCIES.flatMap((frequency) => [`frequency_${frequency}`, `per_${frequency}`]),
    ];
    for (const tree of [en.billing, fr.billing] as Array<Record<string, string>>) {
      expect(keys.filter((key) => typeof tree[key] !== 'string')).toEqual([]);
    }
  });
});
