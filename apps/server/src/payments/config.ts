import { z } from 'zod';

/*
 * Settings of plans, payments, invoices and operators (docs/configuration.md, "Plans, payments and invoices").
 * The embedded default needs none of them: MANUAL invoices, no keys.
 */

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean),
);

const url = z.string().url();

/** The environment variables, merged into the main config schema. */
export const BillingEnv = {
  /** Verified accounts with one of these addresses are operators (comma-separated, case-insensitive). */
  OPERATOR_EMAILS: list.default([]),
  /** Providers offered at checkout, in order: MANUAL, STRIPE, PAYPAL (comma-separated). */
  PAYMENT_PROVIDERS: list
    .pipe(z.array(z.enum(['MANUAL', 'STRIPE', 'PAYPAL'])).min(1, 'name at least one provider'))
    .default(['MANUAL']),
  /** A JSON file of prices (docs/configuration.md shows its shape); the built-in prices otherwise. */
  PRICES_FILE: z.string().min(1).optional(),
  TRIAL_DAYS: z.coerce.number().int().min(0).max(365).default(14),
  SELLER_NAME: z.string().min(1).optional(),
  SELLER_ADDRESS: z.string().min(1).optional(),
  SELLER_COUNTRY: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'a two-letter country code')
    .transform((v) => v.toUpperCase())
    .default('FR'),
  SELLER_VAT_ID: z.string().min(1).optional(),
  SELLER_EMAIL: z.string().email().optional(),
  /** Printed on MANUAL invoices: where to pay (IBAN, BIC, bank name…); "\n" starts a new line. */
  SELLER_BANK_DETAILS: z.string().min(1).optional(),
  INVOICE_PREFIX: z
    .string()
    .regex(/^[A-Z0-9-]{1,10}$/, 'upper-case letters, digits and "-", up to 10')
    .default('FRY'),
  /** Days a MANUAL invoice may stay open before it is overdue (printed on the invoice). */
  INVOICE_DUE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  /** Check VAT numbers online against the EU's VIES service too (off: format only). */
  VIES_CHECK: bool.default(false),
  VIES_URL: url.default('https://ec.europa.eu/taxation_customs/vies/rest-api/check-vat-number'),
  STRIPE_SECRET_KEY: z.string().min(1).optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().min(1).optional(),
  STRIPE_WEBHOOK_SECRET: z.string().min(1).optional(),
  /** Empty: Stripe itself. A URL: a stand-in speaking Stripe's API (tests, staging). */
  STRIPE_API_BASE: z.string().optional(),
  /** Where the pages load Stripe.js from. */
  STRIPE_JS_URL: url.default('https://js.stripe.com/v3/'),
  PAYPAL_CLIENT_ID: z.string().min(1).optional(),
  PAYPAL_CLIENT_SECRET: z.string().min(1).optional(),
  PAYPAL_WEBHOOK_ID: z.string().min(1).optional(),
  PAYPAL_API_BASE: url.default('https://api-m.paypal.com'),
  /** Webhook signing certificates are fetched only from URLs that start with this. */
  PAYPAL_CERT_URL_PREFIX: url.default('https://api.paypal.com/'),
} as const;

const BillingEnvObject = z.object(BillingEnv);
type Env = z.output<typeof BillingEnvObject>;

/** Problems between billing settings, added to the config's list of problems. */
export function billingProblems(env: Partial<Env>): { path: string; message: string }[] {
  const problems: { path: string; message: string }[] = [];
  const providers = env.PAYMENT_PROVIDERS ?? ['MANUAL'];
  if (providers.includes('STRIPE'))
    for (const name of ['STRIPE_SECRET_KEY', 'STRIPE_PUBLISHABLE_KEY', 'STRIPE_WEBHOOK_SECRET'] as const)
      if (!env[name]) problems.push({ path: name, message: 'is required when PAYMENT_PROVIDERS has STRIPE' });
  if (providers.includes('PAYPAL'))
    for (const name of ['PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const)
      if (!env[name]) problems.push({ path: name, message: 'is required when PAYMENT_PROVIDERS has PAYPAL' });
  if (env.STRIPE_API_BASE && !/^https?:\/\/[^/]+/.test(env.STRIPE_API_BASE))
    problems.push({ path: 'STRIPE_API_BASE', message: 'must be empty or an http(s):// URL' });
  return problems;
}

/** The billing part of Config. */
export function billingConfig(env: Env, productName: string) {
  return {
    operatorEmails: env.OPERATOR_EMAILS.map((e) => e.toLowerCase()),
    providers: env.PAYMENT_PROVIDERS,
    pricesFile: env.PRICES_FILE ?? null,
    trialDays: env.TRIAL_DAYS,
    seller: {
      name: env.SELLER_NAME ?? productName,
      address: env.SELLER_ADDRESS ?? null,
      country: env.SELLER_COUNTRY,
      vatId: env.SELLER_VAT_ID ?? null,
      email: env.SELLER_EMAIL ?? null,
      bankDetails: env.SELLER_BANK_DETAILS?.replace(/\\n/g, '\n') ?? null,
    },
    invoicePrefix: env.INVOICE_PREFIX,
    invoiceDueDays: env.INVOICE_DUE_DAYS,
    vies: { enabled: env.VIES_CHECK, url: env.VIES_URL },
    stripe:
      env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: env.STRIPE_SECRET_KEY,
            publishableKey: env.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: env.STRIPE_WEBHOOK_SECRET,
            apiBase: env.STRIPE_API_BASE ? env.STRIPE_API_BASE.replace(/\/+$/, '') : null,
            jsUrl: env.STRIPE_JS_URL,
          }
        : null,
    paypal:
      env.PAYPAL_CLIENT_ID && env.PAYPAL_CLIENT_SECRET && env.PAYPAL_WEBHOOK_ID
        ? {
            clientId: env.PAYPAL_CLIENT_ID,
            clientSecret: env.PAYPAL_CLIENT_SECRET,
            webhookId: env.PAYPAL_WEBHOOK_ID,
            apiBase: env.PAYPAL_API_BASE.replace(/\/+$/, ''),
            certUrlPrefix: env.PAYPAL_CERT_URL_PREFIX,
          }
        : null,
  };
}
export type BillingConfig = ReturnType<typeof billingConfig>;
