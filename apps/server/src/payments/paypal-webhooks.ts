import { verify, X509Certificate } from 'node:crypto';
import { crc32 } from '@node-rs/crc32';
import { WebhookSignatureError } from './provider.js';

/*
 * PayPal's webhook signatures, checked locally as PayPal documents them: the signed string is
 * `<transmission id>|<transmission time>|<webhook id>|<CRC32 of the raw body, unsigned decimal>`, signed
 * SHA256withRSA with the key of the certificate at PAYPAL-CERT-URL, which is fetched only from
 * PAYPAL_CERT_URL_PREFIX (and kept).
 */

const header = (headers: Record<string, string | string[] | undefined>, name: string): string => {
  const value = headers[name];
  if (typeof value !== 'string' || !value) throw new WebhookSignatureError(`no ${name} header`);
  return value;
};

export class PayPalSignatures {
  private readonly certificates = new Map<string, Promise<X509Certificate>>();

  constructor(
    private readonly webhookId: string,
    private readonly certUrlPrefix: string,
    private readonly fetchTimeoutMs = 10_000,
  ) {}

  /** Throws WebhookSignatureError unless the body was signed by PayPal for this webhook. */
  async verify(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): Promise<void> {
    const transmissionId = header(headers, 'paypal-transmission-id');
    const transmissionTime = header(headers, 'paypal-transmission-time');
    const signature = header(headers, 'paypal-transmission-sig');
    const certUrl = header(headers, 'paypal-cert-url');
    const algorithm = header(headers, 'paypal-auth-algo');
    if (algorithm !== 'SHA256withRSA') throw new WebhookSignatureError(`unexpected algorithm ${algorithm}`);
    if (!this.trusted(certUrl))
      throw new WebhookSignatureError('certificate URL outside PAYPAL_CERT_URL_PREFIX');
    const certificate = await this.certificate(certUrl);
    const now = new Date();
    if (new Date(certificate.validFrom) > now || new Date(certificate.validTo) < now)
      throw new WebhookSignatureError('the signing certificate is not valid now');
    const signed = `${transmissionId}|${transmissionTime}|${this.webhookId}|${crc32(rawBody) >>> 0}`;
    const ok = verify('sha256', Buffer.from(signed), certificate.publicKey, Buffer.from(signature, 'base64'));
    if (!ok) throw new WebhookSignatureError('signature does not match');
  }

  /**
   * Under the prefix, on the prefix's own origin: "https://api.paypal.com" must not let
   * "https://api.paypal.com.evil.example/" through.
   */
  private trusted(certUrl: string): boolean {
    let url: URL;
    let prefix: URL;
    try {
      url = new URL(certUrl);
      prefix = new URL(this.certUrlPrefix);
    } catch {
      return false;
    }
    return url.origin === prefix.origin && url.href.startsWith(prefix.href) && !url.username && !url.password;
  }

  private certificate(url: string): Promise<X509Certificate> {
    let certificate = this.certificates.get(url);
    if (!certificate) {
      certificate = (async () => {
        const response = await fetch(url, {
          redirect: 'error',
          signal: AbortSignal.timeout(this.fetchTimeoutMs),
        });
        if (!response.ok) throw new WebhookSignatureError(`certificate ${url} answered ${response.status}`);
        try {
          return new X509Certificate(await response.text());
        } catch {
          throw new WebhookSignatureError('the certificate is not a PEM X.509 certificate');
        }
      })();
      // A failed fetch is not kept: the next delivery asks again.
      certificate.catch(() => this.certificates.delete(url));
      this.certificates.set(url, certificate);
    }
    return certificate;
  }
}
