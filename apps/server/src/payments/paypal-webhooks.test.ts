import { describe, expect, it } from 'vitest';
import { PayPalSignatures } from './paypal-webhooks.js';
import { WebhookSignatureError } from './provider.js';

const headers = (certUrl: string, algorithm = 'SHA256withRSA') => ({
  'paypal-transmission-id': 'id',
  'paypal-transmission-time': new Date().toISOString(),
  'paypal-transmission-sig': 'c2ln',
  'paypal-cert-url': certUrl,
  'paypal-auth-algo': algorithm,
});

describe('PayPal webhook signatures', () => {
  // Each is refused before any certificate is fetched: nothing here reaches the network.
  it.each([
    [
      'another host that starts like it',
      'https://api.paypal.com',
      'https://api.paypal.com.evil.example/cert.pem',
    ],
    ['another host', 'https://api.paypal.com/', 'https://evil.example/https://api.paypal.com/cert.pem'],
    ['plain http', 'https://api.paypal.com/', 'http://api.paypal.com/cert.pem'],
    ['credentials in the URL', 'https://api.paypal.com/', 'https://user:pw@api.paypal.com/cert.pem'],
    ['not a URL', 'https://api.paypal.com/', 'cert.pem'],
  ])('refuses a certificate URL with %s', async (_, prefix, certUrl) => {
    const signatures = new PayPalSignatures('WH-1', prefix);
    await expect(signatures.verify(Buffer.from('{}'), headers(certUrl))).rejects.toThrow(
      'certificate URL outside PAYPAL_CERT_URL_PREFIX',
    );
  });

  it('refuses another algorithm and missing headers', async () => {
    const signatures = new PayPalSignatures('WH-1', 'https://api.paypal.com/');
    await expect(
      signatures.verify(Buffer.from('{}'), headers('https://api.paypal.com/c.pem', 'SHA1withRSA')),
    ).rejects.toBeInstanceOf(WebhookSignatureError);
    await expect(signatures.verify(Buffer.from('{}'), {})).rejects.toThrow(
      'no paypal-transmission-id header',
    );
  });
});
