/** Business constants of spec §9. */
export const FILE_ID_LENGTH = 6;
export const FILE_NAME_DISPLAY_LIMIT = 24;
export const FILE_NAME_MAX_BYTES = 255;
export const DEFAULT_TRANSFER_VALIDITY_MAX_DAYS = 21;
export const RECEIVE_DEFAULT_DAYS_PAYING = 21;
export const RECEIVE_DEFAULT_DAYS_FREE = 7;
export const TOAST_AUTO_CLOSE_MS = 4000;
export const MOBILE_BREAKPOINT_PX = 768;
export const SLIDER_ANIMATION_DELAY_MS = 300;
export const SESSION_COOKIE_STAY_SIGNED_IN_MINUTES = 20160;
export const DEVICE_ID_COOKIE_DAYS = 365;
export const AUTH_REDIRECT_COOKIE_DAYS = 90;
export const EXPIRY_CHECK_FIRST_MS = 10_000;
export const EXPIRY_CHECK_INTERVAL_MS = 120_000;
export const SIGN_BACK_IN_THRESHOLD_MS = 12 * 3600_000;
export const PLAN_POLL_INTERVAL_MS = 2000;
export const PLAN_MISMATCH_MAX_RETRIES = 5;
export const LOCALES = [
  'en',
  'fr',
  'it',
  'de',
  'nl',
  'es',
  'pt',
  'sv',
  'fi',
  'da',
  'tr',
  'ru',
  'uk',
  'pl',
  'bg',
  'ro',
  'ccs',
  'el',
  'nb',
  'no',
  'hi',
  'zh',
  'ar',
  'fa',
  'th',
  'jp',
  'kr',
] as const;
/** Transfer ids: unguessable, URL-safe; 16 base62 characters carry about 95 bits. */
export const TRANSFER_ID_LENGTH = 16;
export const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
