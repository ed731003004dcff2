/** Enumerations of spec §3. */
export const PLAN_TYPES = ['NONE', 'PREMIUM', 'TEAM', 'ENTERPRISE'] as const;
export type PlanType = (typeof PLAN_TYPES)[number];

export const PLAN_CODES = [
  'PREMIUM',
  'PREMIUM_2TB',
  'PREMIUM_5TB',
  'PREMIUM_10TB',
  'TEAM',
  'TEAM10',
  'TEAM25',
  'CUSTOM',
] as const;
export type PlanCode = (typeof PLAN_CODES)[number];
export const TEAM_PLANS: readonly PlanCode[] = ['TEAM25', 'TEAM10'];

export const BILLING_FREQUENCIES = ['MONTHLY', 'ANNUAL', 'BIANNUAL'] as const;
export const PAYMENT_METHODS = ['STRIPE', 'PAYPAL', 'MANUAL'] as const;

export const TRANSFER_TYPES = ['S1', 'S2', 'S3'] as const;
export type TransferType = (typeof TRANSFER_TYPES)[number];

export const PERMISSIONS = ['TRANSFER_MANAGER', 'USER_MANAGER', 'BILLING'] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const TRANSFER_STATUSES = [
  'UPLOADING',
  'CLONING',
  'MODERATING',
  'ENABLED',
  'PENDING',
  'DISABLED',
  'DELETED',
  'SCANNING',
  'RETAINED',
] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

export const TRANSFER_EVENTS = [
  'CREATED',
  'UPLOADED',
  'AVAILABLE',
  'EXPIRED',
  'RETAINED',
  'DOWNLOAD_CONFIRMATION_ENABLED',
  'DOWNLOAD_CONFIRMATION_DISABLED',
  'EXPIRY_REMINDER_ENABLED',
  'EXPIRY_REMINDER_DISABLED',
  'PREVIEW_CHANGED',
  'PASSWORD_CHANGED',
  'FILES_ADDED',
  'FILE_RENAMED',
  'FILE_DELETED',
  'ENABLED',
  'DISABLED',
  'CLONED',
  'RECIPIENT_ADDED',
  'RECIPIENT_REMOVED',
  'EXPIRY_DATE_CHANGED',
  'RENAMED',
  'MAX_DOWNLOADS_ADDED',
  'MAX_DOWNLOADS_CHANGED',
  'MAX_DOWNLOADS_REMOVED',
  'SCAN_STARTED',
  'SCAN_DONE_OK',
  'SCAN_DONE_INFECTED',
  'FORCE_EMAIL_WHEN_DOWNLOAD_S2_ADDED',
  'FORCE_EMAIL_WHEN_DOWNLOAD_S2_REMOVED',
  /** The availability window's start (`availableFrom`) was moved or cleared: data {from, to}. */
  'AVAILABILITY_CHANGED',
] as const;
export type TransferEventType = (typeof TRANSFER_EVENTS)[number];

/**
 * A file's virus scan: `pending` (queued or running), `clean`, `infected` (never served), `not-scanned` (no scanner
 * configured, or the file is larger than the scanner takes: nothing is known about it, it is not clean).
 */
export const SCAN_STATUSES = ['pending', 'clean', 'infected', 'not-scanned'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];

export const PAYMENT_INTENT_STATUSES = [
  'succeeded',
  'requires_action',
  'requires_confirmation',
  'requires_payment_method',
  'processing',
] as const;
