import { TRANSFER_ID_LENGTH } from '../constants.js';

export const CUSTOM_LINK_MIN_LENGTH = 3;
export const CUSTOM_LINK_MAX_LENGTH = 64;

/**
 * Words a custom link may not be: the web app's own first path segments and names that look like Ferry speaking
 * (so `/dl/admin` can never pass for a page of the instance). Compared case-insensitively.
 */
export const RESERVED_CUSTOM_LINKS: readonly string[] = [
  'about',
  'account',
  'admin',
  'administrator',
  'api',
  'app',
  'apps',
  'assets',
  'auth',
  'billing',
  'cld',
  'contact',
  'dashboard',
  'dl',
  'download',
  'downloads',
  'expired',
  'ferry',
  'help',
  'info',
  'link',
  'login',
  'logout',
  'notfound',
  'null',
  'operator',
  'password',
  'pay',
  'register',
  'request-files',
  'root',
  'security',
  'signin',
  'signout',
  'start',
  'static',
  'support',
  'system',
  'transfer',
  'transfers',
  'undefined',
  'upload',
  'uploads',
  'widgets',
  'www',
];

/** Why a custom link is refused, as a short code the web app translates (`uploader:custom_link_<reason>`). */
export type CustomLinkProblem = 'length' | 'characters' | 'hyphens' | 'reserved' | 'looks_like_id';

/**
 * The rule of a custom link (`/dl/{customLink}`): 3–64 characters of a–z, 0–9 and `-` (lowercase: a link is
 * compared case-insensitively, so only one spelling is stored), no leading, trailing or double hyphen, not a
 * reserved word, and never 16 letters and digits (a transfer id's shape: the link must not shadow one). Anything
 * else — uppercase, look-alike letters from other scripts, dots, slashes, percent-escapes — is refused.
 */
export function customLinkProblem(link: string): CustomLinkProblem | null {
  if (link.length < CUSTOM_LINK_MIN_LENGTH || link.length > CUSTOM_LINK_MAX_LENGTH) return 'length';
  if (!/^[a-z0-9-]+$/.test(link)) return 'characters';
  if (link.startsWith('-') || link.endsWith('-') || link.includes('--')) return 'hyphens';
  if (RESERVED_CUSTOM_LINKS.includes(link)) return 'reserved';
  if (new RegExp(`^[a-z0-9]{${TRANSFER_ID_LENGTH}}$`).test(link)) return 'looks_like_id';
  return null;
}

/** The sentence each problem is refused with (API messages; the web app shows its own translations). */
export const CUSTOM_LINK_PROBLEM_MESSAGES: Record<CustomLinkProblem, string> = {
  length: `A custom link has ${CUSTOM_LINK_MIN_LENGTH} to ${CUSTOM_LINK_MAX_LENGTH} characters.`,
  characters: 'A custom link uses only lowercase letters a–z, digits 0–9 and hyphens (-).',
  hyphens: 'A custom link cannot start or end with a hyphen, nor have two in a row.',
  reserved: 'This word is reserved: choose another custom link.',
  looks_like_id: 'A custom link cannot be 16 letters and digits (that is what transfer ids look like).',
};
