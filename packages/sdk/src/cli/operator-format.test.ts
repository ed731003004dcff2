import type { OperatorInvoice, OperatorUser } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import {
  dayArgument,
  describePlan,
  formatAmount,
  formatInvoiceLines,
  formatInvoiceTable,
  formatUserLines,
  invoiceJson,
  planCodeArgument,
  userJson,
} from './operator-format.js';

const user: OperatorUser = {
  uid: 'u1',
  email: 'ann@example.com',
  firstname: 'Ann',
  planType: 'PREMIUM',
  planCode: 'PREMIUM_2TB',
  planEndsAt: '2026-12-31T23:59:59.999Z',
  licences: null,
  managerId: null,
  storageUsed: 2048,
  lastLoginAt: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  emailVerified: true,
  suspended: false,
  suspendedAt: null,
};
const invoice: OperatorInvoice = {
  number: 'FRY-2026-000007',
  email: 'ann@example.com',
  uid: 'u1',
  amountDue: 1250,
  total: 1250,
  currency: 'EUR',
  status: 'open',
  provider: 'MANUAL',
  issuedAt: '2026-11-27T10:00:00.000Z',
  paidAt: null,
  pdfUrl: '/x.pdf',
};

describe('ferry operator arguments', () => {
  it('takes a plan code of the catalogue or NONE, in any case', () => {
    expect(planCodeArgument('premium_5tb')).toBe('PREMIUM_5TB');
    expect(planCodeArgument('none')).toBe('NONE');
    expect(() => planCodeArgument('GOLD')).toThrow(/expected one of PREMIUM, /);
  });

  it('takes a day that exists, as YYYY-MM-DD', () => {
    expect(dayArgument('2028-02-29')).toBe('2028-02-29');
    for (const bad of ['2026-02-29', '2026-13-01', '31/12/2026', '2026-1-1', ''])
      expect(() => dayArgument(bad), bad).toThrow(/YYYY-MM-DD/);
  });
});

describe('ferry operator output', () => {
  it('prints the JSON fields the docs promise, and nothing more', () => {
    expect(userJson(user)).toEqual({
      uid: 'u1',
      email: 'ann@example.com',
      planType: 'PREMIUM',
      planCode: 'PREMIUM_2TB',
      planEndsAt: '2026-12-31T23:59:59.999Z',
      suspended: false,
    });
    expect(invoiceJson(invoice)).toEqual({
      number: 'FRY-2026-000007',
      email: 'ann@example.com',
      amountDue: 1250,
      currency: 'EUR',
      status: 'open',
      issuedAt: '2026-11-27T10:00:00.000Z',
    });
  });

  it('prints tab-separated lines with control characters made harmless', () => {
    expect(formatUserLines([{ ...user, email: 'a\tb@example.com' }])).toBe(
      'u1\ta?b@example.com\tPREMIUM\tPREMIUM_2TB\t2026-12-31T23:59:59.999Z\t2048\tactive\n',
    );
    expect(formatInvoiceLines([invoice])).toBe(
      'FRY-2026-000007\tann@example.com\t1250\tEUR\topen\t2026-11-27T10:00:00.000Z\n',
    );
  });

  it('prints amounts in major units and aligns the invoice table', () => {
    expect(formatAmount(1250, 'EUR')).toBe('12.50 EUR');
    expect(formatAmount(5, 'USD')).toBe('0.05 USD');
    expect(formatAmount(-100, 'GBP')).toBe('-1.00 GBP');
    const table = formatInvoiceTable([invoice, { ...invoice, number: 'FRY-2026-000008', amountDue: 120000 }]);
    expect(table).toBe(
      'NUMBER           EMAIL                    DUE  STATUS  PROVIDER  ISSUED\n' +
        'FRY-2026-000007  ann@example.com    12.50 EUR  open    MANUAL    2026-11-27\n' +
        'FRY-2026-000008  ann@example.com  1200.00 EUR  open    MANUAL    2026-11-27\n',
    );
  });

  it('says what plan an account has now', () => {
    expect(describePlan(user)).toBe('ann@example.com: PREMIUM (PREMIUM_2TB) until 2026-12-31');
    expect(describePlan({ ...user, planType: 'NONE', planCode: null, planEndsAt: null })).toBe(
      'ann@example.com: NONE',
    );
    expect(
      describePlan({ ...user, planType: 'ENTERPRISE', planCode: 'CUSTOM', licences: 40, planEndsAt: null }),
    ).toBe('ann@example.com: ENTERPRISE (CUSTOM), 40 seats');
  });
});
