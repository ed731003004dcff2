// @vitest-environment happy-dom
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { StripeProvider } from '../payments/stripe.js';
import { StripeStandin, TEST_CARDS } from './stripe-standin.js';

/*
 * The Stripe.js stand-in as a page uses it: loaded from the stand-in's /v3/, a card typed into its element, and
 * payments and setups confirmed over HTTP against the stand-in, 3D Secure dialog included.
 */

interface CardChange {
  complete: boolean;
  empty: boolean;
  error?: { message: string };
}
interface StripeJs {
  elements(): { create(type: string, options?: unknown): CardElement };
  confirmCardPayment(
    secret: string,
    data: unknown,
  ): Promise<Record<string, { id: string; status: string } & Record<string, unknown>>>;
  confirmCardSetup(
    secret: string,
    data: unknown,
  ): Promise<Record<string, { id: string; status: string } & Record<string, unknown>>>;
}
interface CardElement {
  mount(target: string | Element): void;
  on(event: 'change', cb: (e: CardChange) => void): void;
  destroy(): void;
}

let standin: StripeStandin;
let stripe: StripeProvider;
let Stripe: (key: string) => StripeJs;

beforeAll(async () => {
  standin = await StripeStandin.start();
  stripe = new StripeProvider(
    {
      secretKey: standin.secretKey,
      publishableKey: standin.publishableKey,
      webhookSecret: standin.webhookSecret,
      apiBase: standin.url,
      jsUrl: `${standin.url}/v3/`,
    },
    pino({ level: 'silent' }),
  );
  // As if loaded by <script src="<stand-in>/v3/">: the script finds its API from its own address.
  Object.defineProperty(document, 'currentScript', {
    configurable: true,
    get: () => ({ src: `${standin.url}/v3/` }),
  });
  const code = await (await fetch(`${standin.url}/v3/`)).text();
  new Function(code)();
  Stripe = (window as unknown as { Stripe: typeof Stripe }).Stripe;
});

afterAll(async () => {
  await standin?.close();
});

function mountCard(): { card: CardElement; changes: CardChange[]; host: HTMLElement } {
  document.body.innerHTML = '<form><div id="card"></div></form>';
  const card = Stripe(standin.publishableKey).elements().create('card', { hidePostalCode: true });
  const changes: CardChange[] = [];
  card.on('change', (e) => changes.push(e));
  card.mount('#card');
  return { card, changes, host: document.getElementById('card') as HTMLElement };
}

function type(label: string, value: string): void {
  const input = document.querySelector(`input[aria-label^="${label}"]`) as HTMLInputElement;
  input.value = value;
  input.dispatchEvent(new Event('input', { bubbles: true }));
}

function typeCard(number: string): void {
  type('Card number', number);
  type('Expiration date', `12 / ${String((new Date().getUTCFullYear() + 2) % 100).padStart(2, '0')}`);
  type('Security code', '123');
}

async function paymentSecret(): Promise<string> {
  const customer = await stripe.ensureCustomer(
    { userId: `u${Math.random()}`, email: 'a@example.com', name: null, countryCode: null },
    null,
  );
  const started = await stripe.startSubscription({
    subscriptionId: 'ferry-sub',
    customerRef: customer,
    planCode: 'PREMIUM',
    frequency: 'MONTHLY',
    currency: 'EUR',
    amount: 1000,
    taxRate: 0,
    trialDays: 0,
    description: 'Ferry PREMIUM',
  });
  return started.clientSecret as string;
}

describe('the Stripe.js stand-in', () => {
  it('mounts a card element of labelled inputs and tells whether the card is complete', () => {
    const { card, changes, host } = mountCard();
    const inputs = host.querySelectorAll('input');
    expect([...inputs].map((i) => i.getAttribute('aria-label'))).toEqual([
      'Card number',
      'Expiration date (MM / YY)',
      'Security code (CVC)',
    ]);
    type('Card number', '4242 4242 4242 4241');
    expect(changes.at(-1)).toMatchObject({
      complete: false,
      error: { message: 'Your card number is invalid.' },
    });
    typeCard(TEST_CARDS.succeeds);
    expect(changes.at(-1)).toEqual(expect.objectContaining({ complete: true, empty: false }));
    expect(changes.at(-1)?.error).toBeUndefined();
    card.destroy();
    expect(host.querySelectorAll('input')).toHaveLength(0);
  });

  it('confirms a payment with a card that needs nothing more', async () => {
    const { card } = mountCard();
    typeCard(TEST_CARDS.succeeds);
    const secret = await paymentSecret();
    const result = await Stripe(standin.publishableKey).confirmCardPayment(secret, {
      payment_method: { card, billing_details: { name: 'Ada' } },
    });
    expect(result).toEqual({ paymentIntent: { id: secret.split('_secret_')[0], status: 'succeeded' } });
  });

  it('shows an accessible authentication dialog for an SCA card; completing it pays, failing it errs', async () => {
    const { card } = mountCard();
    typeCard(TEST_CARDS.requiresAuthentication);
    const js = Stripe(standin.publishableKey);
    const secret = await paymentSecret();
    const pending = js.confirmCardPayment(secret, { payment_method: { card } });
    const dialog = await vi.waitFor(() => {
      const found = document.querySelector('[role="dialog"]');
      if (!found) throw new Error('no dialog yet');
      return found as HTMLElement;
    });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.getElementById(dialog.getAttribute('aria-labelledby') ?? '')?.textContent).toBe(
      'Authenticate this payment',
    );
    const buttons = [...dialog.querySelectorAll('button')];
    expect(buttons.map((b) => b.textContent)).toEqual(['Complete authentication', 'Fail authentication']);
    expect(document.activeElement).toBe(buttons[0]);
    buttons[1]?.click();
    expect(await pending).toMatchObject({ error: { code: 'payment_intent_authentication_failure' } });
    expect(document.querySelector('[role="dialog"]')).toBeNull();

    const retry = js.confirmCardPayment(secret, { payment_method: { card } });
    const again = await vi.waitFor(() => {
      const found = document.querySelector('[role="dialog"]');
      if (!found) throw new Error('no dialog yet');
      return found as HTMLElement;
    });
    (again.querySelector('button') as HTMLButtonElement).click();
    expect(await retry).toEqual({ paymentIntent: { id: secret.split('_secret_')[0], status: 'succeeded' } });
  });

  it('reports a declined card as an error, and confirms a trial setup', async () => {
    const { card } = mountCard();
    typeCard(TEST_CARDS.chargeDeclined);
    const js = Stripe(standin.publishableKey);
    expect(await js.confirmCardPayment(await paymentSecret(), { payment_method: { card } })).toMatchObject({
      error: { code: 'card_declined', message: 'Your card was declined.' },
    });
    const customer = await stripe.ensureCustomer(
      { userId: 'trial', email: 't@example.com', name: null, countryCode: null },
      null,
    );
    const trial = await stripe.startSubscription({
      subscriptionId: 'ferry-trial',
      customerRef: customer,
      planCode: 'PREMIUM',
      frequency: 'ANNUAL',
      currency: 'USD',
      amount: 9000,
      taxRate: 0,
      trialDays: 14,
      description: 'Ferry PREMIUM trial',
    });
    typeCard(TEST_CARDS.succeeds);
    expect(await js.confirmCardSetup(trial.clientSecret as string, { payment_method: { card } })).toEqual({
      setupIntent: { id: (trial.clientSecret as string).split('_secret_')[0], status: 'succeeded' },
    });
    expect(await stripe.defaultCard(customer)).toMatchObject({ brand: 'visa', last4: '4242' });
  });
});
