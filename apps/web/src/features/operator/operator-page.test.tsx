import type { OperatorInvoice, OperatorUser } from '@ferry/core';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, coded, json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { RequireAuth } from '../auth/require-auth';
import { OperatorPage } from './operator-page';

const routes = [{ element: <RequireAuth />, children: [{ path: '/operator', element: <OperatorPage /> }] }];
const page = [{ path: '/page', element: <p>page</p> }];

function user(overrides: Partial<OperatorUser> = {}): OperatorUser {
  return {
    uid: 'u_2',
    email: 'sam@example.com',
    firstname: 'Sam',
    planType: 'NONE',
    planCode: null,
    planEndsAt: null,
    licences: null,
    managerId: null,
    storageUsed: 2048,
    lastLoginAt: '2026-11-20T10:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
    emailVerified: true,
    suspended: false,
    suspendedAt: null,
    ...overrides,
  };
}

function invoice(overrides: Partial<OperatorInvoice> = {}): OperatorInvoice {
  return {
    number: 'FRY-2026-000001',
    email: 'sam@example.com',
    uid: 'u_2',
    amountDue: 9600,
    total: 9600,
    currency: 'EUR',
    status: 'open',
    provider: 'MANUAL',
    issuedAt: '2026-11-27T10:00:00.000Z',
    paidAt: null,
    pdfUrl: '/api/pay/invoices/FRY-2026-000001/pdf',
    ...overrides,
  };
}

const operatorRoutes = {
  'GET /api/auth/me': () => json(signedInState()),
  'GET /api/operator/me': () => json({ operator: true, email: 'ada@example.com' }),
};

describe('/operator console', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(path = '/operator') {
    view = await render(authHarness(routes, path).ui);
    await settle();
    return view.container;
  }

  it('is the not-found page to a signed-in user who is not an operator', async () => {
    const api = mockApi({ 'GET /api/auth/me': () => json(signedInState()) });
    const root = await open();
    expect(byTestId(root, 'page-not-found')).toBeTruthy();
    expect(root.querySelector('[data-testid="operator-page"]')).toBeNull();
    expect(api.to('GET /api/operator/users')).toEqual([]);
  });

  it('finds users by address, opens one, and suspends it after a confirmation', async () => {
    let suspended = false;
    const api = mockApi({
      ...operatorRoutes,
      'GET /api/operator/users': (call: ApiCall) =>
        json({
          users:
            call.query.get('search') === 'sam'
              ? [user({ suspended })]
              : [user(), user({ uid: 'u_3', email: 'zoe@example.com' })],
          nextCursor: null,
        }),
      'GET /api/operator/users/u_2': () => json(user({ suspended })),
      'POST /api/operator/users/u_2/suspend': () => {
        suspended = true;
        return json(user({ suspended: true, suspendedAt: '2026-11-27T12:00:00.000Z' }));
      },
    });
    const root = await open();
    expect(byTestId(root, 'operator-page')).toBeTruthy();
    expect(root.querySelectorAll('[data-testid="operator-user-row"]')).toHaveLength(2);
    await typeInto(byTestId<HTMLInputElement>(root, 'operator-search'), 'sam');
    await click(byTestId(root, 'operator-search-submit'));
    await settle();
    expect(api.to('GET /api/operator/users').at(-1)?.query.get('search')).toBe('sam');
    const rows = root.querySelectorAll('[data-testid="operator-user-row"]');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.textContent).toContain('2.05 kB');
    await click(byTestId(root, 'operator-user-open'));
    await settle();
    expect(byTestId(root, 'location').textContent).toBe('/operator?q=sam&user=u_2');
    expect(byTestId(root, 'operator-user-state').textContent).toBe('Active');

    const suspend = byTestId(root, 'operator-suspend');
    await click(suspend);
    const dialog = byTestId(root, 'operator-confirm');
    expect(dialog.textContent).toContain('Suspend sam@example.com?');
    // Cancel first: nothing is sent, focus goes back.
    expect(document.activeElement).toBe(byTestId(dialog, 'confirm-cancel'));
    await click(byTestId(dialog, 'confirm-cancel'));
    expect(root.querySelector('[data-testid="operator-confirm"]')).toBeNull();
    expect(api.to('POST /api/operator/users/u_2/suspend')).toEqual([]);
    await click(byTestId(root, 'operator-suspend'));
    await click(byTestId(root, 'confirm-ok'));
    await settle();
    expect(api.to('POST /api/operator/users/u_2/suspend')).toHaveLength(1);
    expect(byTestId(root, 'operator-user-state').textContent).toBe('Suspended');
    expect(byTestId(root, 'operator-unsuspend')).toBeTruthy();
    expect(root.textContent).toContain('sam@example.com is suspended.');
  });

  it('sets a plan: a plan code, an end day and the seats of a CUSTOM plan', async () => {
    const api = mockApi({
      ...operatorRoutes,
      'GET /api/operator/users': () => json({ users: [user()], nextCursor: null }),
      'GET /api/operator/users/u_2': () => json(user()),
      'PUT /api/operator/users/u_2/plan': (call: ApiCall) =>
        json(
          user({
            planType: 'ENTERPRISE',
            planCode: 'CUSTOM',
            licences: (call.body as { seats: number }).seats,
          }),
        ),
    });
    const root = await open('/operator?user=u_2');
    const code = byTestId<HTMLSelectElement>(root, 'operator-plan-code');
    expect(code.value).toBe('NONE');
    expect(root.querySelector('[data-testid="operator-plan-seats"]')).toBeNull();
    await act(async () => {
      code.value = 'CUSTOM';
      code.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await typeInto(byTestId<HTMLInputElement>(root, 'operator-plan-until'), '2026-12-31');
    const seats = byTestId<HTMLInputElement>(root, 'operator-plan-seats');
    await typeInto(seats, '0');
    await click(byTestId(root, 'operator-plan-save'));
    expect(byTestId(root, 'operator-plan-seats-error').textContent).toContain('from 1 to 100,000');
    expect(seats.getAttribute('aria-describedby')).toBe(byTestId(root, 'operator-plan-seats-error').id);
    expect(api.to('PUT /api/operator/users/u_2/plan')).toEqual([]);
    await typeInto(seats, '25');
    await click(byTestId(root, 'operator-plan-save'));
    await settle();
    expect(api.to('PUT /api/operator/users/u_2/plan')[0]?.body).toEqual({
      planCode: 'CUSTOM',
      until: '2026-12-31',
      seats: 25,
    });
    expect(byTestId(root, 'operator-user-plan').textContent).toBe('Enterprise (CUSTOM)');
  });

  it('lists open invoices, marks a MANUAL one paid after a confirmation, and links its PDF', async () => {
    let paid = false;
    const api = mockApi({
      ...operatorRoutes,
      'GET /api/operator/invoices': (call: ApiCall) =>
        json({
          invoices:
            call.query.get('open') === 'true' && paid
              ? []
              : [
                  invoice({ status: paid ? 'paid' : 'open', amountDue: paid ? 0 : 9600 }),
                  invoice({ number: 'FRY-2026-000002', provider: 'STRIPE' }),
                ],
        }),
      'POST /api/operator/invoices/FRY-2026-000001/mark-paid': () => {
        paid = true;
        return json(invoice({ status: 'paid', amountDue: 0, paidAt: '2026-11-27T12:00:00.000Z' }));
      },
    });
    const root = await open('/operator?tab=invoices');
    expect(api.to('GET /api/operator/invoices')[0]?.query.get('open')).toBe('true');
    const rows = root.querySelectorAll('[data-testid="operator-invoice-row"]');
    expect(rows).toHaveLength(2);
    expect(rows[0]?.textContent).toContain('€96.00');
    expect(byTestId(rows[0]!, 'operator-invoice-pdf').getAttribute('href')).toBe(
      '/api/pay/invoices/FRY-2026-000001/pdf',
    );
    // A card invoice is voided, never marked paid by hand.
    expect(rows[1]!.querySelector('[data-testid="operator-invoice-mark-paid"]')).toBeNull();
    expect(byTestId(rows[1]!, 'operator-invoice-void')).toBeTruthy();
    await click(byTestId(rows[0]!, 'operator-invoice-mark-paid'));
    expect(byTestId(root, 'operator-invoice-confirm').textContent).toContain('€96.00 by sam@example.com');
    await click(byTestId(root, 'confirm-ok'));
    await settle();
    expect(api.to('POST /api/operator/invoices/FRY-2026-000001/mark-paid')).toHaveLength(1);
    expect(byTestId(root, 'operator-invoices-empty')).toBeTruthy();
    await click(byTestId(root, 'operator-invoices-open'));
    await settle();
    expect(api.to('GET /api/operator/invoices').at(-1)?.query.get('open')).toBeNull();
    expect(root.querySelector('[data-testid="operator-invoice-row"]')?.textContent).toContain('Paid');
  });

  it('shows the figures and the journal', async () => {
    mockApi({
      ...operatorRoutes,
      'GET /api/operator/figures': () =>
        json({
          accounts: 1200,
          payingAccounts: 80,
          suspendedAccounts: 2,
          transfers: 345,
          bytesStored: 5_000_000_000,
          bytesServed7Days: 1024 ** 2,
        }),
      'GET /api/operator/actions': () =>
        json({
          actions: [
            {
              id: 2,
              at: '2026-11-27T12:00:00.000Z',
              operator: 'ada@example.com',
              action: 'suspend',
              target: 'sam@example.com',
              details: { sessionsEnded: 1 },
            },
          ],
          nextCursor: null,
        }),
    });
    const root = await open('/operator?tab=figures');
    expect(byTestId(root, 'operator-figure-accounts').textContent).toBe('Accounts1,200');
    expect(byTestId(root, 'operator-figure-bytes_stored').textContent).toBe('Bytes stored5.00 GB');
    await click(byTestId(root, 'operator-tab-journal'));
    await settle();
    expect(byTestId(root, 'operator-tab-journal').getAttribute('aria-current')).toBe('page');
    expect(byTestId(root, 'operator-action').textContent).toContain(
      'ada@example.com: suspend sam@example.com',
    );
    expect(byTestId(root, 'operator-action').textContent).toContain('{"sessionsEnded":1}');
  });
});

describe('the header menu', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('links to the console only for an operator', async () => {
    const api = mockApi(operatorRoutes);
    view = await render(authHarness(page, '/page').ui);
    await settle();
    // Asked when the menu opens, not on every page load.
    expect(api.to('GET /api/operator/me')).toEqual([]);
    await click(byTestId(view.container, 'user-menu-button'));
    await settle();
    expect(byTestId(view.container, 'user-menu-operator').getAttribute('href')).toBe('/operator');
    await view.unmount();

    mockApi({ ...operatorRoutes, 'GET /api/operator/me': () => coded(404, 'NOT_FOUND') });
    view = await render(authHarness(page, '/page').ui);
    await settle();
    await click(byTestId(view.container, 'user-menu-button'));
    await settle();
    expect(view.container.querySelector('[data-testid="user-menu-operator"]')).toBeNull();
    expect(byTestId(view.container, 'user-menu-account')).toBeTruthy();
  });
});
