import { localePrefixOf } from './locales.js';

/**
 * What a signed-out visitor gets at a path of an account's or team's own host (its subdomain or custom domain,
 * spec §2): `limited` — the page in the limited layout (no marketing, promo or mobile banner): the request pages,
 * /push and the not-found and expired pages; `open` — pages anyone may use anywhere (downloads, signing in and the
 * account links mailed to people); `sign_in` — anything else sends them to /signin first.
 */
export type HostGate = 'open' | 'limited' | 'sign_in';

const LIMITED = [/^\/push$/, /^\/r\/[^/]+$/, /^\/i\/[^/]+$/, /^\/d\/notfound$/, /^\/d\/expired$/];
const OPEN = [
  /^\/dl\/[^/]+(?:\/[^/]+)?$/,
  /^\/widgets\/[^/]+$/,
  /^\/signin$/,
  /^\/register(?:\/enterprise)?$/,
  /^\/verify-email$/,
  /^\/forgot-password$/,
  /^\/reset-password$/,
  /^\/join$/,
  /^\/unsubscribe$/,
];

export function ownHostGate(pathname: string): HostGate {
  const bare = localePrefixOf(pathname)?.rest ?? pathname;
  const path = bare.split(/[?#]/)[0]!.replace(/\/+$/, '') || '/';
  if (LIMITED.some((p) => p.test(path))) return 'limited';
  if (OPEN.some((p) => p.test(path))) return 'open';
  return 'sign_in';
}
