import { DEVICE_ID_COOKIE_DAYS } from '@ferry/core';
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, deviceId, isUuid, randomUuid, readCookie } from './device-id';

/** A cookie jar that keeps what was last written (enough to check the attributes). */
function jar(initial = '') {
  const written: string[] = [];
  return {
    written,
    get cookie() {
      return initial;
    },
    set cookie(value: string) {
      written.push(value);
      initial = value.split(';')[0] ?? '';
    },
  };
}

describe('device id cookie (spec §9: a random UUID kept 365 days)', () => {
  it('creates a UUID when missing, kept 365 days on the whole site', () => {
    const cookies = jar('other=1');
    const id = deviceId(cookies, false);
    expect(isUuid(id)).toBe(true);
    expect(DEVICE_ID_COOKIE_DAYS).toBe(365);
    expect(cookies.written[0]).toBe(`${DEVICE_COOKIE}=${id}; Max-Age=31536000; Path=/; SameSite=Lax`);
  });

  it('keeps an existing id and renews its lifetime', () => {
    const existing = '0b5c1e9e-3f0c-4d5e-9a61-2b7f3c4d5e6f';
    const cookies = jar(`a=b; ${DEVICE_COOKIE}=${existing}; c=d`);
    expect(deviceId(cookies, true)).toBe(existing);
    expect(cookies.written[0]).toBe(
      `${DEVICE_COOKIE}=${existing}; Max-Age=31536000; Path=/; SameSite=Lax; Secure`,
    );
  });

  it('replaces a value that is not a UUID', () => {
    const cookies = jar(`${DEVICE_COOKIE}=not-a-uuid`);
    const id = deviceId(cookies, false);
    expect(id).not.toBe('not-a-uuid');
    expect(isUuid(id)).toBe(true);
  });

  it('works in the real document', () => {
    const first = deviceId();
    expect(readCookie(DEVICE_COOKIE)).toBe(first);
    expect(deviceId()).toBe(first);
  });

  it('makes version 4 UUIDs without crypto.randomUUID (insecure contexts)', () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const id = randomUuid({ getRandomValues: (array) => crypto.getRandomValues(array) });
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      ids.add(id);
    }
    expect(ids.size).toBe(50);
  });
});
