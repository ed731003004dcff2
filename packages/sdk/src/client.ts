import {
  ApiTokenCreated,
  ApiTokenInfo,
  type ApiTokenScope,
  AuthState,
  CheckPasswordResponse,
  DownloadInfo,
  DownloadLinkResponse,
  IdTokenResponse,
  type InboxCreate,
  InboxListResponse,
  type InboxUpdate,
  InboxView,
  InstanceFigures,
  OperatorActionList,
  OperatorInvoice,
  OperatorInvoiceList,
  OperatorMe,
  type OperatorSubscription,
  OperatorSubscriptionList,
  OperatorUser,
  OperatorUserList,
  ReceivePointPublic,
  ReceiveReceipt,
  type ReceiveRequestCreate,
  ReceiveRequestView,
  type ReceiveTarget,
  type ReceiveUploadCreate,
  ReceiveUploadCreateResponse,
  type RegisterRequest,
  RegisterResponse,
  SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
  SecurityLogPage,
  type SecurityLogQuery,
  SecurityLogSettings,
  SenderVerificationResendResponse,
  SenderVerificationResponse,
  SessionCookieResponse,
  SessionInfo,
  type SetPlanRequest,
  type SignInRequest,
  type TeamInviteRequest,
  TeamInviteResponse,
  TeamMember,
  TeamMembersResponse,
  type TeamMemberUpdate,
  type TransferCloneRequest,
  type TransferCompleteRequest,
  type TransferCreateRequest,
  TransferCreateResponse,
  TransferDetail,
  type TransferFileInput,
  TransferFilesAddResponse,
  type TransferFilesComplete,
  type TransferListQuery,
  TransferListResponse,
  type TransferNotificationsUpdate,
  type TransferStatus,
  TransferSummary,
  type TransferUpdate,
  UnsubscribeResponse,
  WebhookCreated,
  type WebhookCreateRequest,
  WebhookDelivery,
  WebhookInfo,
} from '@ferry/core';
import { FerryApiError, FerryProtocolError, parseErrorBody } from './errors.js';
import { type DownloadOptions, type DownloadResult, downloadToFile } from './node/download.js';
import { type UploadFileOptions, type UploadFileResult, uploadFileFromDisk } from './node/upload.js';
import { backoffDelay, isConnectionRefused, isNetworkError, sleep } from './retry.js';

/** Options of a {@link FerryClient}. */
export interface FerryClientOptions {
  /** The server's origin (plus its base path, if it is served under one), e.g. `https://ferry.example.com`. */
  server: string;
  /** The fetch to use; the global one by default. */
  fetch?: typeof fetch;
  /**
   * How long (ms) to keep retrying while the server cannot be reached, e.g. during a restart. Only requests
   * that are safe to repeat are retried (reads, or any request the server refused to connect). Default 60 s.
   */
  retryForMs?: number;
  /** Called before each retry, e.g. to tell the user the server is unreachable. */
  onRetry?: (info: RetryInfo) => void;
  /** Headers sent with every API request (not with tus uploads or blob downloads). */
  headers?: Record<string, string>;
  /**
   * A session token or a personal API token (`fry_…`): sent as `Authorization: Bearer …` with every API request
   * (never with tus uploads or blob downloads, which carry their own authorisation and may go to another host).
   */
  credential?: string;
  /**
   * Called when the server refuses the credential (401 `INVALID_TOKEN`: revoked, expired or mistyped), before the
   * error is thrown: e.g. to forget a stored session.
   */
  onCredentialRejected?: (error: FerryApiError) => void;
}

/** What a retry is about. */
export interface RetryInfo {
  attempt: number;
  delayMs: number;
  error: unknown;
  what: string;
}

/** Query of `GET /transfer/downloads/link`; each field is sent only when set (spec §7). */
export interface DownloadLinkParams {
  transferId: string;
  fileId?: string;
  password?: string;
  preview?: boolean;
  userSecret?: string;
  downloaderEmail?: string;
  browserCode?: string;
  orderId?: string;
  /** A buyer's purchase token (a priced transfer); without one the server answers 402 PAYMENT_REQUIRED. */
  purchaseToken?: string;
}

/**
 * Query of `GET /transfer/transfers` (the `TransferListQuery` of @ferry/core, as typed values): `q` searches
 * names, file names and addresses; `status` is one status or several; `limit` 1 to 100 (default 25).
 */
export type TransferListParams = Omit<TransferListQuery, 'limit' | 'withFiles' | 'status'> & {
  status?: TransferStatus | readonly TransferStatus[];
  limit?: number;
  withFiles?: boolean;
};

type Query = Record<string, string | number | boolean | undefined>;

/** What validates an answer: a zod schema of @ferry/core, or anything with the same `safeParse`. */
export interface Parser<T> {
  safeParse(value: unknown):
    | { success: true; data: T }
    | {
        success: false;
        error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> };
      };
}

/** A parser of an array whose every item `item` accepts. */
function listOf<T>(item: Parser<T>): Parser<T[]> {
  return {
    safeParse(value) {
      if (!Array.isArray(value))
        return { success: false, error: { issues: [{ path: [], message: 'expected an array' }] } };
      const data: T[] = [];
      for (const [index, entry] of value.entries()) {
        const parsed = item.safeParse(entry);
        if (!parsed.success) {
          const issues = parsed.error.issues.map((i) => ({ ...i, path: [index, ...i.path] }));
          return { success: false, error: { issues } };
        }
        data.push(parsed.data);
      }
      return { success: true, data };
    },
  };
}

/** The answer of `GET /auth/auth/sign-out`: how many sessions were revoked. */
export interface SignOutResponse {
  revoked: number;
}

const SignOutResponse: Parser<SignOutResponse> = {
  safeParse(value) {
    const revoked = (value as { revoked?: unknown } | null)?.revoked;
    return typeof revoked === 'number' && Number.isInteger(revoked) && revoked >= 0
      ? { success: true, data: { revoked } }
      : { success: false, error: { issues: [{ path: ['revoked'], message: 'expected a count' }] } };
  },
};

/** Options of {@link FerryClient.sessionCookie}. */
export interface SessionCookieOptions {
  /** Session length in minutes: 20160 (14 days, "stay signed in") unless given; the server allows 5 to 20160. */
  expiresInMinutes?: number;
  /** A UUID naming this device, shown in the account's session list and used by sign-out. */
  deviceId?: string;
  currentDomain?: string;
}

/** Options of {@link FerryClient.signOut}. */
export interface SignOutOptions {
  /** The device id the session was created with. */
  deviceId?: string;
  /** Revoke every session of the account ("sign out everywhere"), not only the current one. */
  revokeAllSessions?: boolean;
}

interface RequestOptions<T> {
  /** The answer's schema; null for an answer without a body (204). */
  schema: Parser<T> | null;
  query?: Query;
  body?: unknown;
  headers?: Record<string, string>;
  /** Safe to send twice (a read); otherwise it is re-sent only when the connection was refused. */
  idempotent: boolean;
}

/** Normalises a server address to `protocol://host[:port][/base]`, without a trailing slash. */
export function normalizeServerUrl(server: string): string {
  let url: URL;
  try {
    url = new URL(server);
  } catch {
    throw new Error(`not a server URL: ${server}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`not an http(s) URL: ${server}`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** Typed client of the Ferry HTTP API (docs/api.md). All paths are under `{server}/api`. */
export class FerryClient {
  /** The normalised server address (no trailing slash). */
  readonly server: string;
  private readonly fetchImpl: typeof fetch;
  private readonly retryForMs: number;
  private readonly onRetry: ((info: RetryInfo) => void) | undefined;
  private readonly onCredentialRejected: ((error: FerryApiError) => void) | undefined;
  private readonly headers: Record<string, string>;
  /** The session token or personal API token sent as `Authorization: Bearer …`; undefined: anonymous. */
  credential: string | undefined;

  constructor(options: FerryClientOptions) {
    this.server = normalizeServerUrl(options.server);
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
    this.retryForMs = options.retryForMs ?? 60_000;
    this.onRetry = options.onRetry;
    this.headers = { accept: 'application/json', ...options.headers };
    this.credential = options.credential || undefined;
    this.onCredentialRejected = options.onCredentialRejected;
  }

  /** Resolves a URL the server returned (maybe relative, like `/api/transfer/uploads`) against the server. */
  resolve(url: string): string {
    return new URL(url, `${this.server}/`).toString();
  }

  /**
   * `POST /transfer/transfers`: creates a transfer and returns its upload token (shown once). An S1 transfer
   * (`type: 'S1'`, `recipients`, `senderEmail`) goes out by e-mail once it is complete and, when the answer's
   * `senderVerification` is `pending`, once the code mailed to the sender is given to {@link verifySender}.
   */
  createTransfer(request: TransferCreateRequest): Promise<TransferCreateResponse> {
    return this.request('POST', '/transfer/transfers', {
      schema: TransferCreateResponse,
      body: { ...request, type: request.type ?? 'S2' },
      idempotent: false,
    });
  }

  /** `GET /transfer/transfers/{id}/upload-state`: which files are uploaded, to resume. */
  getUploadState(transferId: string, uploadToken: string): Promise<TransferSummary> {
    return this.request('GET', `/transfer/transfers/${encodeURIComponent(transferId)}/upload-state`, {
      schema: TransferSummary,
      headers: { 'x-upload-token': uploadToken },
      idempotent: true,
    });
  }

  /** `POST /transfer/transfers/{id}/complete` with the client's SHA-256 of each file; a mismatch answers 422. */
  completeTransfer(
    transferId: string,
    uploadToken: string,
    files: TransferCompleteRequest['files'],
  ): Promise<TransferSummary> {
    return this.request('POST', `/transfer/transfers/${encodeURIComponent(transferId)}/complete`, {
      schema: TransferSummary,
      headers: { 'x-upload-token': uploadToken },
      body: { files },
      idempotent: false,
    });
  }

  /**
   * `POST /transfer/transfers/{id}/sender-verification`: proves the sender's address with the 6-digit code
   * mailed to it. Keep the returned `senderVerificationToken` with that address and pass it as
   * `senderVerificationToken` when creating later transfers: no code is asked for then. Errors: 403
   * `WRONG_VERIFICATION_CODE`, 403 `VERIFICATION_CODE_EXPIRED`, 429 `RATE_LIMITED`, 409 `CONFLICT` (nothing pending).
   */
  verifySender(transferId: string, uploadToken: string, code: string): Promise<SenderVerificationResponse> {
    return this.request('POST', `/transfer/transfers/${encodeURIComponent(transferId)}/sender-verification`, {
      schema: SenderVerificationResponse,
      headers: { 'x-upload-token': uploadToken },
      body: { code },
      idempotent: false, // each try counts against the attempts allowed
    });
  }

  /**
   * `POST /transfer/transfers/{id}/sender-verification/resend`: mails a new code (the previous one stops working).
   * 429 `RATE_LIMITED` (with `retryAfterSeconds`) when asked again too soon.
   */
  resendSenderCode(transferId: string, uploadToken: string): Promise<SenderVerificationResendResponse> {
    return this.request(
      'POST',
      `/transfer/transfers/${encodeURIComponent(transferId)}/sender-verification/resend`,
      {
        schema: SenderVerificationResendResponse,
        headers: { 'x-upload-token': uploadToken },
        idempotent: false,
      },
    );
  }

  /** `PATCH /transfer/transfers/{id}/notifications`: turns the transfer's e-mails on or off (each only when set). */
  updateNotifications(
    transferId: string,
    uploadToken: string,
    patch: TransferNotificationsUpdate,
  ): Promise<TransferSummary> {
    return this.request('PATCH', `/transfer/transfers/${encodeURIComponent(transferId)}/notifications`, {
      schema: TransferSummary,
      headers: { 'x-upload-token': uploadToken },
      body: patch,
      idempotent: true, // it sets values: sending it twice changes nothing
    });
  }

  /** `POST /transfer/notifications/unsubscribe`: what a mail's "Turn off these e-mails" token turns off. */
  unsubscribe(token: string): Promise<UnsubscribeResponse> {
    return this.request('POST', '/transfer/notifications/unsubscribe', {
      schema: UnsubscribeResponse,
      query: { token },
      idempotent: true,
    });
  }

  /**
   * `POST /auth/signin`: checks an e-mail address and password (plus `totp` when the account has a second
   * factor) and returns an id token, valid one hour, to trade with {@link sessionCookie}. Errors: 401
   * `INVALID_CREDENTIALS` (the same for an unknown address and a wrong password), 401 `SECOND_FACTOR_REQUIRED`
   * (give `totp`), 403 `EMAIL_NOT_VERIFIED` (a new verification link was mailed), 429 `RATE_LIMITED`.
   */
  signIn(request: SignInRequest): Promise<IdTokenResponse> {
    return this.request('POST', '/auth/signin', {
      schema: IdTokenResponse,
      body: request,
      idempotent: false, // each try counts against the rate limit
    });
  }

  /**
   * `GET /auth/auth/session-cookie` (header `id-token`): trades an id token for a session token, by default for
   * 20160 minutes (14 days, "stay signed in"). Errors (all 400, spec §7): `VALIDATION_FAILED` with
   * `details.reason` `INVALID_TOKEN` (id token malformed, tampered or expired: sign in again), `USER_NOT_FOUND` or
   * `MAX_LICENCES_REACHED` (no session: the caller stays anonymous).
   */
  sessionCookie(idToken: string, options: SessionCookieOptions = {}): Promise<SessionCookieResponse> {
    return this.request('GET', '/auth/auth/session-cookie', {
      schema: SessionCookieResponse,
      headers: { 'id-token': idToken },
      query: {
        expiresInMinutes: options.expiresInMinutes ?? SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
        currentDomain: options.currentDomain,
        deviceId: options.deviceId,
      },
      idempotent: false, // each call opens a session
    });
  }

  /**
   * `GET /auth/auth/sign-out`: revokes the current session (the client's credential), or with
   * `revokeAllSessions` every session of the account. Resolves with the number of sessions revoked.
   */
  signOut(options: SignOutOptions = {}): Promise<SignOutResponse> {
    return this.request('GET', '/auth/auth/sign-out', {
      schema: SignOutResponse,
      query: { deviceId: options.deviceId, revokeAllSessions: options.revokeAllSessions === true },
      idempotent: true, // a revoked session stays revoked
    });
  }

  /** `GET /auth/me`: who the credential belongs to (spec §3 auth state); anonymous: `user` null, plan NONE. */
  me(): Promise<AuthState> {
    return this.request('GET', '/auth/me', { schema: AuthState, idempotent: true });
  }

  /** `GET /auth/auth/id-token`: a fresh id token (current claims, e.g. after a plan change) for the session. */
  idToken(): Promise<IdTokenResponse> {
    return this.request('GET', '/auth/auth/id-token', { schema: IdTokenResponse, idempotent: true });
  }

  /**
   * `POST /auth/register`: creates an account and mails a verification link (`/verify-email?token=…`). The
   * answer is the same whether or not the address already has an account.
   */
  register(request: RegisterRequest): Promise<{ sentTo: string }> {
    return this.request('POST', '/auth/register', {
      schema: RegisterResponse,
      body: request,
      idempotent: false,
    });
  }

  /** `POST /auth/verify-email`: the token of the mailed link → an id token. 401 `INVALID_TOKEN` if bad or used. */
  verifyEmail(token: string): Promise<IdTokenResponse> {
    return this.request('POST', '/auth/verify-email', {
      schema: IdTokenResponse,
      body: { token },
      idempotent: false,
    });
  }

  /** `GET /auth/sessions`: the account's active sessions (`current` marks the client's own). */
  listSessions(): Promise<SessionInfo[]> {
    return this.request('GET', '/auth/sessions', { schema: listOf(SessionInfo), idempotent: true });
  }

  /** `DELETE /auth/sessions/{id}`: revokes one session at once. */
  async revokeSession(id: string): Promise<void> {
    await this.request('DELETE', `/auth/sessions/${encodeURIComponent(id)}`, {
      schema: null,
      idempotent: true,
    });
  }

  /** `GET /auth/tokens`: the account's personal API tokens (their prefix only, never the token). */
  listTokens(): Promise<ApiTokenInfo[]> {
    return this.request('GET', '/auth/tokens', { schema: listOf(ApiTokenInfo), idempotent: true });
  }

  /** `POST /auth/tokens`: creates a personal API token; the answer's `token` is shown this once only. */
  createToken(name: string, scopes?: ApiTokenScope[]): Promise<ApiTokenCreated> {
    return this.request('POST', '/auth/tokens', {
      schema: ApiTokenCreated,
      body: scopes ? { name, scopes } : { name },
      idempotent: false,
    });
  }

  /** `GET /user/webhooks`: the account's webhooks (never their secret). */
  listWebhooks(): Promise<WebhookInfo[]> {
    return this.request('GET', '/user/webhooks', { schema: listOf(WebhookInfo), idempotent: true });
  }

  /** `POST /user/webhooks`: adds a webhook; the answer's `secret` is shown this once only. */
  createWebhook(request: WebhookCreateRequest): Promise<WebhookCreated> {
    return this.request('POST', '/user/webhooks', {
      schema: WebhookCreated,
      body: request,
      idempotent: false,
    });
  }

  /** `DELETE /user/webhooks/{id}`. */
  async removeWebhook(id: string): Promise<void> {
    await this.request('DELETE', `/user/webhooks/${encodeURIComponent(id)}`, {
      schema: null,
      idempotent: true,
    });
  }

  /** `GET /user/webhooks/{id}/deliveries`: the delivery log, newest first. */
  webhookDeliveries(id: string): Promise<WebhookDelivery[]> {
    return this.request('GET', `/user/webhooks/${encodeURIComponent(id)}/deliveries`, {
      schema: listOf(WebhookDelivery),
      idempotent: true,
    });
  }

  /** `DELETE /auth/tokens/{id}`: revokes a personal API token. */
  async revokeToken(id: string): Promise<void> {
    await this.request('DELETE', `/auth/tokens/${encodeURIComponent(id)}`, {
      schema: null,
      idempotent: true,
    });
  }

  /**
   * `GET /transfer/transfers` (signed in): the account's transfers, sent and received, one page at a time
   * (newest first unless `sort`/`dir` say otherwise). Give the answer's `nextCursor` back as `cursor`, with the
   * same filters, for the next page; `withFiles` lists each transfer's files. 401 `UNAUTHORIZED` when anonymous.
   */
  listTransfers(query: TransferListParams = {}): Promise<TransferListResponse> {
    const { status, ...rest } = query;
    return this.request('GET', '/transfer/transfers', {
      schema: TransferListResponse,
      query: { ...rest, status: typeof status === 'string' ? status : status?.join(',') },
      idempotent: true,
    });
  }

  // --- a team's security log (the manager, or a member with USER_MANAGER; anyone else: 404 NOT_FOUND) ---

  /** `GET /team/{teamId}/security-logs`: entries newest first; give `nextCursor` back as `cursor` for more. */
  listSecurityLogs(teamId: string, query: SecurityLogQuery = {}): Promise<SecurityLogPage> {
    return this.request('GET', `/team/${encodeURIComponent(teamId)}/security-logs`, {
      schema: SecurityLogPage,
      query: { ...query, limit: query.limit as number | undefined },
      idempotent: true,
    });
  }

  /** `GET /team/{teamId}/security-log-settings`: how many days entries are kept. */
  securityLogSettings(teamId: string): Promise<SecurityLogSettings> {
    return this.request('GET', `/team/${encodeURIComponent(teamId)}/security-log-settings`, {
      schema: SecurityLogSettings,
      idempotent: true,
    });
  }

  /** `PUT /team/{teamId}/security-log-settings`: the retention, 30 to 3650 days. */
  setSecurityLogSettings(teamId: string, settings: SecurityLogSettings): Promise<SecurityLogSettings> {
    return this.request('PUT', `/team/${encodeURIComponent(teamId)}/security-log-settings`, {
      schema: SecurityLogSettings,
      body: settings,
      idempotent: true,
    });
  }

  // --- team members (/api/user/teams/{teamId}/…): the manager, or a member with USER_MANAGER ---------------

  /** `GET /user/teams/{teamId}/members`: the manager, the members and the pending invitations, with the seats. */
  teamMembers(teamId: string): Promise<TeamMembersResponse> {
    return this.request('GET', `/user/teams/${encodeURIComponent(teamId)}/members`, {
      schema: TeamMembersResponse,
      idempotent: true,
    });
  }

  /** `POST /user/teams/{teamId}/invitations`: addresses and/or a CSV; one result per address or row. */
  inviteTeamMembers(teamId: string, request: TeamInviteRequest): Promise<TeamInviteResponse> {
    return this.request('POST', `/user/teams/${encodeURIComponent(teamId)}/invitations`, {
      schema: TeamInviteResponse,
      body: request,
      // Not repeated after an unclear failure: the mail of a first attempt may have gone.
      idempotent: false,
    });
  }

  /** `DELETE /user/teams/{teamId}/invitations/{invitationId}`: the link stops working, the seat is free. */
  async withdrawTeamInvitation(teamId: string, invitationId: string): Promise<void> {
    await this.request(
      'DELETE',
      `/user/teams/${encodeURIComponent(teamId)}/invitations/${encodeURIComponent(invitationId)}`,
      { schema: null, idempotent: false },
    );
  }

  /** `PATCH /user/teams/{teamId}/members/{uid}`: permissions and/or disabled. */
  updateTeamMember(teamId: string, uid: string, update: TeamMemberUpdate): Promise<TeamMember> {
    return this.request(
      'PATCH',
      `/user/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(uid)}`,
      { schema: TeamMember, body: update, idempotent: true },
    );
  }

  /** `DELETE /user/teams/{teamId}/members/{uid}`: the member leaves the team (a free account, with its transfers). */
  async removeTeamMember(teamId: string, uid: string): Promise<void> {
    await this.request(
      'DELETE',
      `/user/teams/${encodeURIComponent(teamId)}/members/${encodeURIComponent(uid)}`,
      {
        schema: null,
        idempotent: false,
      },
    );
  }

  // --- the operator console (/api/operator/…): to anyone but an operator of the server, 404 NOT_FOUND ---

  /** `GET /operator/me`: 200 for an operator of this server; 404 `NOT_FOUND` for anyone else. */
  operatorMe(): Promise<{ operator: true; email: string }> {
    return this.request('GET', '/operator/me', { schema: OperatorMe, idempotent: true });
  }

  /** `GET /operator/users`: accounts whose address or first name contains `search`, a page at a time. */
  listOperatorUsers(
    query: { search?: string; cursor?: string; limit?: number } = {},
  ): Promise<OperatorUserList> {
    return this.request('GET', '/operator/users', { schema: OperatorUserList, query, idempotent: true });
  }

  /** `GET /operator/users/{uid}`. */
  operatorUser(uid: string): Promise<OperatorUser> {
    return this.request('GET', `/operator/users/${encodeURIComponent(uid)}`, {
      schema: OperatorUser,
      idempotent: true,
    });
  }

  /** `POST /operator/users/{uid}/suspend`: no sign-in, no downloads of its transfers until unsuspended. */
  suspendUser(uid: string): Promise<OperatorUser> {
    return this.request('POST', `/operator/users/${encodeURIComponent(uid)}/suspend`, {
      schema: OperatorUser,
      idempotent: true, // suspending a suspended account changes nothing
    });
  }

  /** `POST /operator/users/{uid}/unsuspend`. */
  unsuspendUser(uid: string): Promise<OperatorUser> {
    return this.request('POST', `/operator/users/${encodeURIComponent(uid)}/unsuspend`, {
      schema: OperatorUser,
      idempotent: true,
    });
  }

  /** `PUT /operator/users/{uid}/plan`: any plan code (NONE ends the plan), an optional last day, CUSTOM seats. */
  setUserPlan(uid: string, request: SetPlanRequest): Promise<OperatorUser> {
    return this.request('PUT', `/operator/users/${encodeURIComponent(uid)}/plan`, {
      schema: OperatorUser,
      body: request,
      idempotent: true,
    });
  }

  /** `GET /operator/subscriptions`. */
  listOperatorSubscriptions(
    query: { status?: string } = {},
  ): Promise<{ subscriptions: OperatorSubscription[] }> {
    return this.request('GET', '/operator/subscriptions', {
      schema: OperatorSubscriptionList,
      query,
      idempotent: true,
    });
  }

  /** `GET /operator/invoices` (`open`: only those still to be paid). */
  listOperatorInvoices(query: { open?: boolean } = {}): Promise<OperatorInvoiceList> {
    return this.request('GET', '/operator/invoices', {
      schema: OperatorInvoiceList,
      query,
      idempotent: true,
    });
  }

  /** `POST /operator/invoices/{number}/mark-paid`: a MANUAL invoice is paid (its plan starts). */
  markInvoicePaid(number: string): Promise<OperatorInvoice> {
    return this.request('POST', `/operator/invoices/${encodeURIComponent(number)}/mark-paid`, {
      schema: OperatorInvoice,
      idempotent: false, // a second call answers that it is paid already
    });
  }

  /** `POST /operator/invoices/{number}/void`: an open invoice is void. */
  voidInvoice(number: string): Promise<OperatorInvoice> {
    return this.request('POST', `/operator/invoices/${encodeURIComponent(number)}/void`, {
      schema: OperatorInvoice,
      idempotent: false,
    });
  }

  /** `GET /operator/figures`: accounts, transfers, bytes stored and served over 7 days. */
  operatorFigures(): Promise<InstanceFigures> {
    return this.request('GET', '/operator/figures', { schema: InstanceFigures, idempotent: true });
  }

  /** `GET /operator/actions`: the operators' journal, newest first. */
  listOperatorActions(query: { cursor?: string } = {}) {
    return this.request('GET', '/operator/actions', { schema: OperatorActionList, query, idempotent: true });
  }

  /**
   * `GET /transfer/transfers/{id}/detail` (signed in): files with their SHA-256, recipients with their timeline,
   * other downloads and the event history. 404 `TRANSFER_NOT_FOUND` for a transfer that is unknown or not the
   * caller's to manage.
   */
  transferDetail(transferId: string): Promise<TransferDetail> {
    return this.request('GET', `/transfer/transfers/${encodeURIComponent(transferId)}/detail`, {
      schema: TransferDetail,
      idempotent: true,
    });
  }

  /**
   * `PATCH /transfer/transfers/{id}` (signed in): name, expiry, password, preview, download limit, notification
   * switches — each only when set, each recorded as its event. An expiry past the plan's validity answers 400
   * `LIMIT_EXCEEDED` (`limitErrors` fileValidityInDays, `details.latest`). Resolves with the new detail.
   */
  updateTransfer(transferId: string, update: TransferUpdate): Promise<TransferDetail> {
    return this.request('PATCH', `/transfer/transfers/${encodeURIComponent(transferId)}`, {
      schema: TransferDetail,
      body: update,
      idempotent: true, // it sets values: sending it twice changes nothing more
    });
  }

  /** `POST /transfer/transfers/{id}/enable` (signed in): a disabled transfer's links work again. */
  enableTransfer(transferId: string): Promise<TransferDetail> {
    return this.request('POST', `/transfer/transfers/${encodeURIComponent(transferId)}/enable`, {
      schema: TransferDetail,
      idempotent: true, // enabling an enabled transfer changes nothing
    });
  }

  /** `POST /transfer/transfers/{id}/disable` (signed in): its page and links answer `TRANSFER_DISABLED`. */
  disableTransfer(transferId: string): Promise<TransferDetail> {
    return this.request('POST', `/transfer/transfers/${encodeURIComponent(transferId)}/disable`, {
      schema: TransferDetail,
      idempotent: true,
    });
  }

  /**
   * `DELETE /transfer/transfers/{id}` (signed in): status DELETED and its files deleted from storage, for good
   * (names, sizes, hashes and history stay). 409 `CONFLICT` when it is deleted already.
   */
  async deleteTransfer(transferId: string): Promise<void> {
    await this.request('DELETE', `/transfer/transfers/${encodeURIComponent(transferId)}`, {
      schema: null,
      // Not repeated after an unclear failure: a second call would answer 409 for a delete that worked.
      idempotent: false,
    });
  }

  /**
   * `POST /transfer/transfers/{id}/clone` (signed in): a new transfer of the caller with the same files, copied
   * inside the storage; status `CLONING` until they are, then `ENABLED`. Each override only when set.
   */
  cloneTransfer(transferId: string, request: TransferCloneRequest = {}): Promise<TransferDetail> {
    return this.request('POST', `/transfer/transfers/${encodeURIComponent(transferId)}/clone`, {
      schema: TransferDetail,
      body: request,
      idempotent: false, // a second call would make a second clone
    });
  }

  /**
   * `POST /transfer/transfers/{id}/files` (signed in): announces files to add to a sent transfer; upload each
   * with {@link uploadFile} and the answer's `uploadToken`, then {@link completeAddition}.
   */
  addFiles(transferId: string, files: TransferFileInput[]): Promise<TransferFilesAddResponse> {
    return this.request('POST', `/transfer/transfers/${encodeURIComponent(transferId)}/files`, {
      schema: TransferFilesAddResponse,
      body: { files },
      idempotent: false,
    });
  }

  /** `POST …/additions/{additionId}/complete` (signed in): the uploaded files join the transfer (FILES_ADDED). */
  completeAddition(
    transferId: string,
    additionId: string,
    body: TransferFilesComplete,
  ): Promise<TransferDetail> {
    const path = `/transfer/transfers/${encodeURIComponent(transferId)}/additions/${encodeURIComponent(additionId)}/complete`;
    // Completing a completed addition answers the detail again.
    return this.request('POST', path, { schema: TransferDetail, body, idempotent: true });
  }

  // --- receiving (S3): docs/api.md "Receiving files" ---

  /** `POST /receive/requests` (signed in): a file request; S1 (`recipients`) mails each person a personal link. */
  createReceiveRequest(request: ReceiveRequestCreate): Promise<ReceiveRequestView> {
    return this.request('POST', '/receive/requests', {
      schema: ReceiveRequestView,
      body: request,
      idempotent: false,
    });
  }

  /** What a request, inbox, widget or /push page shows (public): 404 unknown, 410 closed or expired. */
  getReceivePoint(target: ReceiveTarget): Promise<ReceivePointPublic> {
    const [path, query]: [string, Record<string, string | undefined>] =
      target.kind === 'request'
        ? [
            `/receive/points/request/${encodeURIComponent(target.requestId)}`,
            { userSecret: target.userSecret },
          ]
        : target.kind === 'inbox'
          ? [`/receive/points/inbox/${encodeURIComponent(target.slug)}`, {}]
          : target.kind === 'widget'
            ? [`/receive/points/widget/${encodeURIComponent(target.widgetId)}`, {}]
            : ['/receive/push', { to: target.to }];
    return this.request('GET', path, { schema: ReceivePointPublic, query, idempotent: true });
  }

  /** `POST /receive/uploads`: starts an upload into a receive point (upload token shown once). */
  createReceiveUpload(request: ReceiveUploadCreate): Promise<ReceiveUploadCreateResponse> {
    return this.request('POST', '/receive/uploads', {
      schema: ReceiveUploadCreateResponse,
      body: request,
      idempotent: false,
    });
  }

  /** `GET /receive/uploads/{id}` (upload token): the receipt so far, to resume. */
  getReceiveReceipt(transferId: string, uploadToken: string): Promise<ReceiveReceipt> {
    return this.request('GET', `/receive/uploads/${encodeURIComponent(transferId)}`, {
      schema: ReceiveReceipt,
      headers: { 'x-upload-token': uploadToken },
      idempotent: true,
    });
  }

  /** `POST /receive/uploads/{id}/complete` with the client's SHA-256 of each file → the receipt. */
  completeReceiveUpload(
    transferId: string,
    uploadToken: string,
    files: TransferCompleteRequest['files'],
  ): Promise<ReceiveReceipt> {
    return this.request('POST', `/receive/uploads/${encodeURIComponent(transferId)}/complete`, {
      schema: ReceiveReceipt,
      headers: { 'x-upload-token': uploadToken },
      body: { files },
      idempotent: false,
    });
  }

  /** `GET /receive/inboxes` (signed in): the user's inboxes and whether they may receive into inboxes. */
  listInboxes(): Promise<InboxListResponse> {
    return this.request('GET', '/receive/inboxes', { schema: InboxListResponse, idempotent: true });
  }

  /** `POST /receive/inboxes` (signed in): 409 `CONFLICT` when the slug is taken. */
  createInbox(request: InboxCreate): Promise<InboxView> {
    return this.request('POST', '/receive/inboxes', { schema: InboxView, body: request, idempotent: false });
  }

  /** `PATCH /receive/inboxes/{id}` (owner): e.g. `{ enabled: false }` switches it off. */
  updateInbox(inboxId: string, update: InboxUpdate): Promise<InboxView> {
    return this.request('PATCH', `/receive/inboxes/${encodeURIComponent(inboxId)}`, {
      schema: InboxView,
      body: update,
      idempotent: true,
    });
  }

  /** Uploads one file of a transfer from disk with tus, resuming from `uploadUrl` when given. Node only. */
  uploadFile(options: Omit<UploadFileOptions, 'endpoint'> & { endpoint: string }): Promise<UploadFileResult> {
    return uploadFileFromDisk({ ...options, endpoint: this.resolve(options.endpoint) });
  }

  /**
   * `GET /transfer/downloads/info`: what a recipient sees; files are withheld while `locked`. With the
   * `userSecret` of a personal link (S1) `recipientEmail` names its recipient.
   */
  getDownloadInfo(
    transferId: string,
    options: { password?: string; userSecret?: string; purchaseToken?: string } = {},
  ): Promise<DownloadInfo> {
    return this.request('GET', '/transfer/downloads/info', {
      schema: DownloadInfo,
      query: {
        transferId,
        password: options.password,
        userSecret: options.userSecret,
        purchaseToken: options.purchaseToken,
      },
      idempotent: true,
    });
  }

  /**
   * `POST /transfer/downloads/check-password`: resolves when the password is right. As spec §8 says, 429 is
   * "rate limited" and any other refusal means a wrong password (code `WRONG_PASSWORD`).
   */
  async checkPassword(transferId: string, password: string, userSecret?: string): Promise<true> {
    try {
      await this.request('POST', '/transfer/downloads/check-password', {
        schema: CheckPasswordResponse,
        // An S1 transfer's password is checked only with a personal link's secret (or for its owner).
        body: { transferId, password, ...(userSecret ? { userSecret } : {}) },
        idempotent: false, // each try counts against the rate limit
      });
      return true;
    } catch (error) {
      if (!(error instanceof FerryApiError) || error.status >= 500 || error.codes.length > 0) throw error;
      const rateLimited = error.status === 429;
      throw new FerryApiError({
        kind: 'coded',
        status: error.status,
        message: rateLimited ? 'too many password attempts' : 'wrong password',
        codes: [rateLimited ? 'RATE_LIMITED' : 'WRONG_PASSWORD'],
        retryAfterSeconds: error.retryAfterSeconds,
      });
    }
  }

  /**
   * `GET /transfer/downloads/link`: a short-lived URL for one file, or for the whole transfer as a ZIP when
   * `fileId` is absent. Each call counts as one download against `maxDownloads`, except that
   * calls sharing a `browserCode` (one visit, one CLI run) count once together. `preview: true` answers 404
   * `PREVIEW_NOT_AVAILABLE` until preview renditions exist (never the file itself). Pass the `userSecret` of a
   * personal link, and `downloaderEmail` when the info says `downloaderEmailRequired` (else 401
   * `DOWNLOADER_EMAIL_REQUIRED`).
   */
  getDownloadLink(params: DownloadLinkParams): Promise<DownloadLinkResponse> {
    const { preview, ...rest } = params;
    return this.request('GET', '/transfer/downloads/link', {
      schema: DownloadLinkResponse,
      query: { ...rest, preview: preview === true ? true : undefined },
      // Not repeated after an unclear failure: a second call may count a second download.
      idempotent: false,
    });
  }

  /** Streams a download URL to disk, resuming a partial file with Range and checking its SHA-256. Node only. */
  download(options: Omit<DownloadOptions, 'fetch'>): Promise<DownloadResult> {
    return downloadToFile({
      retryForMs: this.retryForMs,
      ...options,
      url: this.resolve(options.url),
      fetch: this.fetchImpl,
    });
  }

  /** The URL of an API path with its query (undefined values and `false` left out). */
  apiUrl(path: string, query: Query = {}): string {
    const url = new URL(`${this.server}/api${path}`);
    for (const [key, value] of Object.entries(query)) {
      if (value === undefined || value === false) continue;
      url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  private async request<T>(method: string, path: string, options: RequestOptions<T>): Promise<T> {
    const url = this.apiUrl(path, options.query);
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    if (this.credential) headers.authorization = `Bearer ${this.credential}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const init: RequestInit = {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    };
    const response = await this.fetchWithRetry(url, init, options.idempotent, `${method} ${path}`);
    const text = await response.text();
    if (!response.ok) {
      if (response.headers.get('cf-mitigated') === 'challenge') {
        throw new FerryApiError({
          kind: 'generic',
          status: response.status,
          message: 'the server answered with a bot challenge; try again later',
        });
      }
      const error = parseErrorBody(response.status, text, response.headers);
      if (headers.authorization && error.status === 401 && error.has('INVALID_TOKEN'))
        this.onCredentialRejected?.(error);
      throw error;
    }
    if (options.schema === null) return undefined as T;
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new FerryProtocolError(
        `${method} ${url} did not answer JSON (is ${this.server} a Ferry server?)`,
      );
    }
    const parsed = options.schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue ? `${issue.path.join('.') || '(root)'}: ${issue.message}` : 'invalid';
      throw new FerryProtocolError(`unexpected answer from ${method} ${path} (${where})`);
    }
    return parsed.data;
  }

  private async fetchWithRetry(url: string, init: RequestInit, idempotent: boolean, what: string) {
    const started = Date.now();
    for (let attempt = 0; ; attempt++) {
      let retryable: unknown;
      try {
        const response = await this.fetchImpl(url, init);
        const unavailable = response.status === 503 || (idempotent && [502, 504].includes(response.status));
        if (!unavailable) return response;
        retryable = parseErrorBody(response.status, await response.text(), response.headers);
      } catch (error) {
        if (!isNetworkError(error) || !(idempotent || isConnectionRefused(error))) throw error;
        retryable = error;
      }
      const delayMs = backoffDelay(attempt);
      if (Date.now() - started + delayMs > this.retryForMs) throw retryable;
      this.onRetry?.({ attempt: attempt + 1, delayMs, error: retryable, what });
      await sleep(delayMs);
    }
  }
}
