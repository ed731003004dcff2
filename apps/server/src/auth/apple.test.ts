import { generateKeyPairSync } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { AppleClientSecret } from './apple.js';

describe('Apple client secret', () => {
  it('is an ES256 JWT from the team for the Services ID, signed with the Apple key, renewed before it expires', async () => {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    let now = Date.UTC(2026, 0, 1);
    const secret = new AppleClientSecret(
      { teamId: 'TEAM123', keyId: 'KEY123', privateKey: pem },
      'com.example.web',
      () => now,
    );
    const first = await secret.value();
    expect(decodeProtectedHeader(first)).toEqual({ alg: 'ES256', kid: 'KEY123' });
    const { payload } = await jwtVerify(first, publicKey, {
      issuer: 'TEAM123',
      subject: 'com.example.web',
      audience: 'https://appleid.apple.com',
      currentDate: new Date(now),
    });
    expect(payload.exp! - payload.iat!).toBe(3600);
    now += 30 * 60_000;
    expect(await secret.value()).toBe(first);
    now += 29.5 * 60_000; // less than a minute left: a new one
    expect(await secret.value()).not.toBe(first);
  });
});
