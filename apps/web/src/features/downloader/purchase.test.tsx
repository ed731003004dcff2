import type { DownloadInfo, PurchaseState } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { harness } from '../../test/app-harness';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { fakeStripe, plain, stripeCatalogue } from '../billing/billing.fixture';
import { forgetStripe } from '../billing/stripe';
import { DownloadPage } from './download-page';

const ID = 'AbCdEfGhIjKlMnOp';
const PURCHASE = 'Pq'.repeat(12);
const TOKEN = `${PURCHASE}.mac`;

const onSale: DownloadInfo = {
  transferId: ID,
  name: 'Mix stems',
  message: null,
  senderName: 'Sam',
  status: 'ENABLED',
  expiresAt: '2030-03-12T14:03:00.000Z',
  passwordProtected: false,
  locked: false,
  allowPreview: true,
  fileCount: 1,
  totalSize: 40_000,
  downloadsLeft: null,
  files: [
    {
      id: 'FILE01',
      name: 'stems.wav',
      relativePath: null,
      size: 40_000,
      sha256: null,
      uploaded: true,
      scanStatus: 'clean',
    },
  ],
  downloaderEmailRequired: false,
  recipientEmail: null,
  virusScan: true,
  price: { amount: 1250, currency: 'EUR' },
  purchased: false,
};

const paid: PurchaseState = {
  purchaseId: PURCHASE,
  status: 'paid',
  intentStatus: 'succeeded',
  purchaseToken: TOKEN,
  receiptNumber: 'FRY-2030-000007',
};

function server() {
  return mockApi({
    'GET /api/transfer/downloads/info': (call) =>
      json({ ...onSale, purchased: call.query.get('purchaseToken') === TOKEN }),
    'GET /api/transfer/downloads/link': (call) =>
      call.query.get('purchaseToken') === TOKEN
        ? json({
            url: '/api/transfer/downloads/blob/x',
            fileName: 'stems.wav',
            size: 40_000,
            sha256: null,
            expiresAt: '2030-01-01T00:00:00.000Z',
          })
        : json({ status: 402, error: 'x', message: 'for sale', codes: ['PAYMENT_REQUIRED'] }, 402),
    'GET /api/pay/plans': () => json(stripeCatalogue()),
    'GET /api/user/locations/country': () => json({ country: 'DE' }),
    'GET /api/pay/subscriptions/tax-rates': (call) =>
      json({
        countryCode: call.query.get('countryCode'),
        rate: 19,
        reverseCharge: false,
        vatNumberValid: null,
      }),
    'POST /api/pay/purchases': () =>
      json(
        {
          purchaseId: PURCHASE,
          amount: 1250,
          tax: 238,
          total: 1488,
          currency: 'EUR',
          clientSecret: 'pi_1_secret_x',
        },
        201,
      ),
    [`GET /api/pay/purchases/${PURCHASE}`]: () => json(paid),
  });
}

describe('buying a transfer on sale', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
    forgetStripe();
    delete window.Stripe;
    localStorage.clear();
  });

  it('shows the price with the VAT, takes the card, then unlocks the downloads in this browser', async () => {
    const api = server();
    const stripe = fakeStripe();
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, '/dl/:transferId/:fileId?').ui);
    const root = view.container;
    await until(() => root.querySelector('[data-testid="purchase"]') !== null, 'the purchase panel');
    await settle(10);
    expect(plain(byTestId(root, 'purchase-total').textContent)).toBe('€14.88');
    expect(byTestId<HTMLButtonElement>(root, 'download-all').disabled).toBe(true);

    // Without an address nothing is started.
    await click(byTestId(root, 'purchase-pay'));
    expect(byTestId(root, 'purchase-error').textContent).toContain('e-mail address');
    expect(api.to('POST /api/pay/purchases')).toHaveLength(0);

    await typeInto(byTestId<HTMLInputElement>(root, 'purchase-email'), 'buyer@example.com');
    await stripe.change({ complete: true });
    await click(byTestId(root, 'purchase-pay'));
    await until(
      () => root.querySelector('[data-testid="purchase"]') === null,
      'the purchase to complete',
      4000,
    );
    expect(api.to('POST /api/pay/purchases')[0]?.body).toEqual({
      transferId: ID,
      email: 'buyer@example.com',
      countryCode: 'DE',
      provider: 'STRIPE',
    });
    expect(stripe.stripe.confirmCardPayment).toHaveBeenCalledWith('pi_1_secret_x', {
      payment_method: { card: stripe.card, billing_details: { email: 'buyer@example.com' } },
    });
    await until(() => !byTestId<HTMLButtonElement>(root, 'download-all').disabled, 'downloads unlocked');
    expect(JSON.parse(localStorage.getItem(`ferry.purchase.${ID}`) ?? '{}')).toEqual({ token: TOKEN });

    await click(byTestId(root, 'download-all'));
    await settle();
    expect(api.to('GET /api/transfer/downloads/link')[0]?.query.get('purchaseToken')).toBe(TOKEN);
  });

  it("takes the buyer's mailed link, and forgets a token the server does not take", async () => {
    const api = server();
    fakeStripe();
    view = await render(
      harness(<DownloadPage />, `/dl/${ID}?purchase=${TOKEN}`, '/dl/:transferId/:fileId?').ui,
    );
    const root = view.container;
    await until(() => root.querySelector('[data-testid="download-all"]') !== null, 'the page');
    await settle(5);
    expect(byTestId<HTMLButtonElement>(root, 'download-all').disabled).toBe(false);
    expect(root.querySelector('[data-testid="purchase"]')).toBeNull();
    await view.unmount();

    localStorage.setItem(`ferry.purchase.${ID}`, JSON.stringify({ token: 'someone-else.token' }));
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, '/dl/:transferId/:fileId?').ui);
    await until(
      () => view.container.querySelector('[data-testid="purchase"]') !== null,
      'the purchase panel',
    );
    expect(localStorage.getItem(`ferry.purchase.${ID}`)).toBeNull();
    expect(
      api
        .to('GET /api/transfer/downloads/info')
        .some((c) => c.query.get('purchaseToken') === 'someone-else.token'),
    ).toBe(true);
  });
});
