import { DEVICE_ID_COOKIE_DAYS } from '@ferry/core';

/** The device id cookie (spec §3 local storage, §7 "a random UUID kept in a cookie", §9: 365 days). */
export const DEVICE_COOKIE = 'ferry_device';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Where cookies are read and written: `document` in the browser, a stand-in in tests. */
export interface CookieJar {
  cookie: string;
}

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A random (version 4) UUID; `crypto.randomUUID` only exists in secure contexts, getRandomValues everywhere. */
export function randomUuid(
  source: Pick<Crypto, 'getRandomValues'> & Partial<Pick<Crypto, 'randomUUID'>> = crypto,
): string {
  if (typeof source.randomUUID === 'function') return source.randomUUID();
  const bytes = source.getRandomValues(new Uint8Array(16));
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function readCookie(name: string, jar: CookieJar = document): string | null {
  for (const part of jar.cookie.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * This browser's device id: the `ferry_device` cookie's UUID, created when missing (or not a UUID), and
 * written again on each use so that it is kept 365 days after the last visit.
 */
export function deviceId(jar: CookieJar = document, secure = isSecurePage()): string {
  const current = readCookie(DEVICE_COOKIE, jar);
  const id = current && isUuid(current) ? current.toLowerCase() : randomUuid();
  const maxAge = DEVICE_ID_COOKIE_DAYS * 24 * 3600;
  jar.cookie = `${DEVICE_COOKIE}=${id}; Max-Age=${maxAge}; Path=/; SameSite=Lax${secure ? '; Secure' : ''}`;
  return id;
}

function isSecurePage(): boolean {
  return typeof location !== 'undefined' && location.protocol === 'https:';
}
