/*
 * The part of Stripe.js (https://docs.stripe.com/js) the checkout uses, and nothing more: the browser tests
 * serve a stand-in with exactly this interface. Stripe.js is loaded with a <script> tag from the catalogue's
 * `stripeJsUrl`, only on the pages that take a card, only when STRIPE is offered.
 */

export interface StripeChangeEvent {
  complete: boolean;
  empty?: boolean;
  error?: { message?: string } | null;
}

export interface StripeCardElement {
  mount(element: HTMLElement): void;
  on(event: 'change', handler: (event: StripeChangeEvent) => void): void;
  destroy(): void;
}

export interface StripeElements {
  create(type: 'card', options?: Record<string, unknown>): StripeCardElement;
}

export interface StripeResult {
  error?: { message?: string; code?: string } | null;
  paymentIntent?: { status: string } | null;
  setupIntent?: { status: string } | null;
}

export interface StripeLike {
  elements(): StripeElements;
  confirmCardPayment(
    clientSecret: string,
    data?: {
      payment_method: { card: StripeCardElement; billing_details?: { name?: string; email?: string } };
    },
  ): Promise<StripeResult>;
  confirmCardSetup(
    clientSecret: string,
    data?: { payment_method: { card: StripeCardElement } },
  ): Promise<StripeResult>;
}

declare global {
  interface Window {
    Stripe?: (publishableKey: string) => StripeLike;
  }
}

const loading = new Map<string, Promise<void>>();

/** Adds Stripe.js's <script> once per address; resolves when `window.Stripe` is there. */
function loadScript(url: string): Promise<void> {
  if (window.Stripe) return Promise.resolve();
  let pending = loading.get(url);
  if (!pending) {
    pending = new Promise<void>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.dataset.stripeJs = 'true';
      script.addEventListener('load', () =>
        window.Stripe ? resolve() : reject(new Error('Stripe.js loaded without Stripe')),
      );
      script.addEventListener('error', () => reject(new Error(`Stripe.js could not be loaded from ${url}`)));
      document.head.appendChild(script);
    });
    // A failed load may be tried again (another visit of the page).
    pending.catch(() => loading.delete(url));
    loading.set(url, pending);
  }
  return pending;
}

const instances = new Map<string, StripeLike>();

/** Stripe.js for a publishable key (one instance per key, as Stripe asks). */
export async function loadStripe(url: string, publishableKey: string): Promise<StripeLike> {
  await loadScript(url);
  const make = window.Stripe;
  if (!make) throw new Error('Stripe.js is not available');
  let stripe = instances.get(publishableKey);
  if (!stripe) {
    stripe = make(publishableKey);
    instances.set(publishableKey, stripe);
  }
  return stripe;
}

/** Tests start from a page that never loaded Stripe.js. */
export function forgetStripe(): void {
  loading.clear();
  instances.clear();
}
