import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { sha256Hex } from './secrets.js';

const PERIOD = 30;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Recovery codes are typed by people: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, '');
}

/**
 * TOTP (RFC 6238: SHA-1, 6 digits, 30 s) and recovery codes. Secrets are kept encrypted (AES-256-GCM with a key
 * derived from the server key), recovery codes as hashes; a time step is accepted once.
 */
export class SecondFactor {
  private readonly key: Buffer;

  constructor(
    keyMaterial: string,
    private readonly issuer: string,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.key = createHash('sha256').update(`totp:${keyMaterial}`).digest();
  }

  newSecret(): string {
    return new Secret({ size: 20 }).base32;
  }

  otpauthUrl(secret: string, account: string): string {
    return this.totp(secret, account).toString();
  }

  /** The time step of the code when it is right (one step of clock drift either way), else null. */
  check(secret: string, code: string): number | null {
    const timestamp = this.now().getTime();
    const delta = this.totp(secret).validate({ token: code, timestamp, window: 1 });
    return delta === null ? null : Math.floor(timestamp / 1000 / PERIOD) + delta;
  }

  /** A code for now (tests and tools). */
  generate(secret: string, at: Date = this.now()): string {
    return this.totp(secret).generate({ timestamp: at.getTime() });
  }

  encrypt(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  decrypt(blob: string): string {
    const [iv, tag, data] = blob.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(data!), decipher.final()]).toString('utf8');
  }

  /** Ten codes like `k7mq-x3vd-p9ta` (about 70 bits each) and their hashes. */
  recoveryCodes(): { codes: string[]; hashes: string[] } {
    const codes = Array.from({ length: 10 }, () => {
      const bytes = randomBytes(12);
      const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
      return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}`;
    });
    return { codes, hashes: codes.map(hashRecoveryCode) };
  }

  private totp(secret: string, label = 'account'): TOTP {
    return new TOTP({
      issuer: this.issuer,
      label,
      algorithm: 'SHA1',
      digits: 6,
      period: PERIOD,
      secret: Secret.fromBase32(secret),
    });
  }
}

export function hashRecoveryCode(code: string): string {
  return sha256Hex(`recovery:${normalizeRecoveryCode(code)}`);
}
