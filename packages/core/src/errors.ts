import { z } from 'zod';

/** Codes that services throw and clients branch on; the HTTP status lives with each code. */
export const APP_ERROR_STATUS = {
  VALIDATION_FAILED: 400,
  LIMIT_EXCEEDED: 400,
  INVALID_FILENAME: 400,
  /** A file's extension is not in a receive point's allowed list (spec §5 notif_extension_authorized). */
  EXTENSION_NOT_AUTHORIZED: 400,
  UNAUTHORIZED: 401,
  /** A session, id or API token that is malformed (spec §5), tampered with, expired or revoked. */
  INVALID_TOKEN: 401,
  INVALID_CREDENTIALS: 401,
  SECOND_FACTOR_REQUIRED: 401,
  EMAIL_NOT_VERIFIED: 403,
  /** An operator suspended the account: it cannot sign in and its transfers' links answer this until lifted. */
  ACCOUNT_SUSPENDED: 403,
  /** The team's manager disabled this member: no sign-in until re-enabled (their transfers keep working). */
  MEMBER_DISABLED: 403,
  /** A priced transfer without a purchase (details.payUrl says where to buy it). */
  PAYMENT_REQUIRED: 402,
  /** The provider refused or could not take the payment (details.providerCode when it gave one). */
  PAYMENT_FAILED: 402,
  /** A provider not in PAYMENT_PROVIDERS, or one a plan or transfer cannot use. */
  PAYMENT_PROVIDER_NOT_AVAILABLE: 400,
  /** A VAT number that fails its country's format (or VIES, when the check is on). */
  INVALID_VAT_NUMBER: 400,
  USER_NOT_FOUND: 400,
  MAX_LICENCES_REACHED: 400,
  /** The address belongs to a member of another team: they leave it before joining this one. */
  ALREADY_IN_TEAM: 409,
  /** A team invitation that was accepted, withdrawn, or is past its 7 days (details.reason says which). */
  INVITATION_NOT_VALID: 410,
  PASSWORD_REQUIRED: 401,
  DOWNLOADER_EMAIL_REQUIRED: 401,
  FORBIDDEN: 403,
  /** A team's authentication policy does not allow this sign-in method (details.method, details.allowed). */
  SIGN_IN_METHOD_NOT_ALLOWED: 403,
  /** A team requires a second factor for password sign-ins: details.setupToken lets the member set one up. */
  SECOND_FACTOR_SETUP_REQUIRED: 403,
  /** An address outside a team's allowed e-mail domains (details.allowedDomains). */
  EMAIL_DOMAIN_NOT_ALLOWED: 403,
  WRONG_PASSWORD: 403,
  WRONG_VERIFICATION_CODE: 403,
  VERIFICATION_CODE_EXPIRED: 403,
  /** An operator reviews this transfer (MODERATING): nothing is downloaded until they release it. */
  TRANSFER_UNDER_REVIEW: 403,
  /** The transfer opens later (its availability window, `availableFrom`): details.availableFrom says when. */
  NOT_YET_AVAILABLE: 403,
  TOO_MANY_DOWNLOADS: 403,
  TOO_MANY_PREVIEWS: 403,
  /** The virus scan found this file infected: it is never served (the rest of the transfer stays available). */
  FILE_INFECTED: 403,
  /** The file (or the transfer) is still being scanned under SCAN_POLICY=block: try again shortly. */
  FILE_SCANNING: 409,
  /** A preview was asked of a file that has no preview rendition (none are made yet): never the file itself. */
  PREVIEW_NOT_AVAILABLE: 404,
  NOT_FOUND: 404,
  TRANSFER_NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  CONFLICT: 409,
  /** Another transfer already answers at this custom link (case-insensitive). */
  CUSTOM_LINK_TAKEN: 409,
  /** Another account or team already serves this subdomain name or custom domain. */
  HOST_TAKEN: 409,
  /** A custom domain whose DNS TXT proof was not found (details.record says what to publish). */
  DOMAIN_NOT_PROVEN: 409,
  TRANSFER_NOT_UPLOADING: 409,
  UPLOAD_INCOMPLETE: 409,
  TRANSFER_EXPIRED: 410,
  TRANSFER_DISABLED: 410,
  /** A file request past its expiry date. */
  RECEIVE_EXPIRED: 410,
  /** A file request closed by its owner, or an upload inbox switched off. */
  RECEIVE_CLOSED: 410,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  CHECKSUM_MISMATCH: 422,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL: 500,
  UNAVAILABLE: 503,
} as const;
export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

/** One broken limit in a limit error (spec §8 `limitErrors`). */
export const LimitError = z.object({
  limit: z.enum([
    'files',
    'fileValidityInDays',
    'messageLength',
    'recipients',
    'uploadSize',
    'storage',
    'downloadedBytes7Days',
    /** Bytes declared by one client address's unfinished anonymous transfers (ANONYMOUS_PENDING_UPLOAD_GB). */
    'anonymousPendingBytes',
  ]),
  max: z.number(),
  actual: z.number(),
});
export type LimitError = z.infer<typeof LimitError>;

/** The three error bodies of spec §8: generic, coded, and limit errors. */
export const ErrorBody = z.object({
  status: z.number().int(),
  error: z.string(),
  message: z.string(),
  codes: z.array(z.string()).optional(),
  limitErrors: z.array(LimitError).optional(),
  details: z.record(z.string(), z.unknown()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
