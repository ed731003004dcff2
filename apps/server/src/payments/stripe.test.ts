import { describe, expect, it } from 'vitest';
import { stripeCspSources } from './card-providers.js';
import { stripeClientOptions } from './stripe.js';

describe('Stripe settings', () => {
  it('talks to Stripe itself without STRIPE_API_BASE, and to the stand-in by host, port and protocol with it', () => {
    expect(stripeClientOptions(null)).not.toHaveProperty('host');
    expect(stripeClientOptions('http://127.0.0.1:12111')).toMatchObject({
      host: '127.0.0.1',
      port: 12111,
      protocol: 'http',
    });
    expect(stripeClientOptions('https://stripe.internal')).toMatchObject({
      host: 'stripe.internal',
      port: 443,
      protocol: 'https',
    });
    expect(stripeClientOptions('http://[::1]:8080')).toMatchObject({ host: '::1', port: 8080 });
  });

  it("lets the pages load Stripe.js and reach Stripe's API, or the stand-in's", () => {
    const settings = { secretKey: 'sk', publishableKey: 'pk', webhookSecret: 'wh' };
    expect(stripeCspSources(null)).toEqual({ script: [], frame: [], connect: [] });
    expect(stripeCspSources({ ...settings, apiBase: null, jsUrl: 'https://js.stripe.com/v3/' })).toEqual({
      script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
      frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
      connect: ['https://api.stripe.com'],
    });
    expect(
      stripeCspSources({ ...settings, apiBase: 'http://127.0.0.1:9', jsUrl: 'http://127.0.0.1:9/v3/' }),
    ).toEqual({
      script: ['http://127.0.0.1:9'],
      frame: ['http://127.0.0.1:9'],
      connect: ['http://127.0.0.1:9'],
    });
  });
});
