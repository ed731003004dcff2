import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** Compares two strings in time that does not depend on where they differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** Signs small JSON payloads (download links) with HMAC-SHA256: `base64url(payload).base64url(mac)`. */
export class Signer {
  constructor(private readonly key: string) {}

  sign(payload: object): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  verify<T>(token: string): T | null {
    const parts = token.split('.');
    if (parts.length !== 2) return null;
    const [body, mac] = parts as [string, string];
    if (!body || !mac || !constantTimeEqual(mac, this.mac(body))) return null;
    try {
      return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as T;
    } catch {
      return null;
    }
  }

  /**
   * A secret derived from the key and a label, the same every time (e.g. a recipient's personal link secret,
   * which can then be written into a later reminder without being stored).
   */
  derive(label: string): string {
    return createHmac('sha256', this.key).update(`derive:${label}`).digest('base64url').slice(0, 32);
  }

  private mac(body: string): string {
    return createHmac('sha256', this.key).update(body).digest('base64url');
  }
}
