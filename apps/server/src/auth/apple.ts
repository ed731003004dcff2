import { createPrivateKey, type KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';

const APPLE_AUDIENCE = 'https://appleid.apple.com';
/** Apple accepts up to six months; an hour keeps a leaked secret short-lived and costs one signature an hour. */
const LIFETIME_SECONDS = 3600;

/**
 * Sign in with Apple has no fixed client secret: the client secret is a JWT signed (ES256) with the key made
 * in the Apple developer account, naming the team (`iss`) and the Services ID (`sub`). Made on first use and
 * again shortly before it expires.
 */
export class AppleClientSecret {
  private readonly key: KeyObject;
  private cached: { value: string; expiresAt: number } | null = null;

  constructor(
    private readonly apple: { teamId: string; keyId: string; privateKey: string },
    private readonly clientId: string,
    private readonly now: () => number = Date.now,
  ) {
    this.key = createPrivateKey(apple.privateKey);
  }

  async value(): Promise<string> {
    const now = this.now();
    if (this.cached && this.cached.expiresAt - now > 60_000) return this.cached.value;
    const iat = Math.floor(now / 1000);
    const value = await new SignJWT({})
      .setProtectedHeader({ alg: 'ES256', kid: this.apple.keyId })
      .setIssuer(this.apple.teamId)
      .setSubject(this.clientId)
      .setAudience(APPLE_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + LIFETIME_SECONDS)
      .sign(this.key);
    this.cached = { value, expiresAt: (iat + LIFETIME_SECONDS) * 1000 };
    return value;
  }
}
