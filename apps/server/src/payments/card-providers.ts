import type { Logger } from 'pino';
import type { CspSources } from '../http/plugins/security-headers.plugin.js';
import type { BillingConfig } from './config.js';
import { PayPalProvider, type PayPalProviderOptions } from './paypal.js';
import type { PaymentProvider } from './provider.js';
import { StripeProvider } from './stripe.js';

export interface CardProviders {
  STRIPE?: PaymentProvider;
  PAYPAL?: PaymentProvider;
}

/** The card providers named in PAYMENT_PROVIDERS (config.ts has already required their keys). */
export function createCardProviders(
  billing: BillingConfig,
  logger: Logger,
  paypal: PayPalProviderOptions = {},
): CardProviders {
  const providers: CardProviders = {};
  if (billing.providers.includes('STRIPE') && billing.stripe)
    providers.STRIPE = new StripeProvider(billing.stripe, logger.child({ provider: 'STRIPE' }));
  if (billing.providers.includes('PAYPAL') && billing.paypal)
    providers.PAYPAL = new PayPalProvider(billing.paypal, logger.child({ provider: 'PAYPAL' }), paypal);
  return providers;
}

/**
 * What the pages' CSP must allow for Stripe.js: its script (STRIPE_JS_URL), the frames it opens (card fields, 3D
 * Secure) and Stripe's API (or the stand-in at STRIPE_API_BASE). Nothing without STRIPE.
 */
export function stripeCspSources(stripe: BillingConfig['stripe']): CspSources {
  if (!stripe) return { script: [], frame: [], connect: [] };
  const js = new URL(stripe.jsUrl).origin;
  const official = js === 'https://js.stripe.com';
  return {
    script: official ? [js, 'https://*.js.stripe.com'] : [js],
    frame: official ? [js, 'https://*.js.stripe.com', 'https://hooks.stripe.com'] : [js],
    connect: [stripe.apiBase ? new URL(stripe.apiBase).origin : 'https://api.stripe.com'],
  };
}
