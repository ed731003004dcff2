import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { signedInState } from '../../test/fixtures';
import { byTestId, type Rendered, render, settle } from '../../test/render';
import { invoice, plain } from './billing.fixture';
import { InvoicesPage } from './invoices-page';

const routes = [{ path: '/account/invoices', element: <InvoicesPage /> }];

describe('/account/invoices', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(invoices: unknown[]) {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/pay/invoices': () => json({ invoices }),
    });
    view = await render(authHarness(routes, '/account/invoices').ui);
    await settle(8);
    return view.container;
  }

  it('lists number, date, status, total, amount due and the PDF link of each invoice', async () => {
    const root = await open([
      invoice({ number: 'FRY-2030-000002', issuedAt: '2030-02-01T10:00:00.000Z' }),
      invoice({ status: 'paid', amountDue: 0, paidAt: '2030-01-05T10:00:00.000Z' }),
    ]);
    const rows = [...root.querySelectorAll('[data-testid="invoice-row"]')].map((row) =>
      [...row.querySelectorAll('th, td')].map((cell) => plain(cell.textContent)),
    );
    expect(rows).toEqual([
      [
        'FRY-2030-000002',
        'February 1, 2030',
        'Open',
        '€120.00',
        '€120.00',
        'Download invoice FRY-2030-000002 (PDF)',
      ],
      [
        'FRY-2030-000001',
        'January 1, 2030',
        'Paid',
        '€120.00',
        '€0.00',
        'Download invoice FRY-2030-000001 (PDF)',
      ],
    ]);
    const link = root.querySelector<HTMLAnchorElement>('[data-testid="invoice-pdf"]');
    expect(link?.getAttribute('href')).toBe('/api/pay/invoices/FRY-2030-000001/pdf');
    expect(link?.hasAttribute('download')).toBe(true);
  });

  it('says when there is no invoice yet', async () => {
    const root = await open([]);
    expect(byTestId(root, 'invoices-empty').textContent).toContain('No invoices yet.');
  });
});
