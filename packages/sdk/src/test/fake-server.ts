/**
 * A small stand-in for the Ferry server of docs/api.md, for the SDK's integration tests: real HTTP on loopback,
 * real tus uploads (@tus/server + @tus/file-store on disk), downloads with Range, errors in the shape of spec §8,
 * and the accounts and sessions API (packages/core/src/api/auth.ts): register, verify-email, signin (with a second
 * factor), session-cookie, sign-out, id-token, me, sessions and personal API tokens, `Authorization: Bearer`.
 * State lives in a plain object that survives `kill()` + `start()`, like a database across a server restart.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import type { SecurityLogEntry } from '@ferry/core';
import { WEBHOOK_EVENTS } from '@ferry/core';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const id = (n: number) => Array.from(randomBytes(n), (b) => ALNUM[b % ALNUM.length]).join('');

interface FakeFile {
  id: string;
  name: string;
  relativePath: string | null;
  size: number;
  sha256: string | null;
  uploaded: boolean;
  uploadId: string | null;
}

type Delivery = 'waiting' | 'queued' | 'sent' | 'failed' | 'rejected' | 'in_doubt';

interface FakeRecipient {
  email: string;
  /** The `userSecret` of this recipient's personal link. */
  secret: string;
  delivery: Delivery;
  error: string | null;
  downloadedAt: string | null;
}

interface FakeTransfer {
  transferId: string;
  uploadToken: string;
  type: 'S1' | 'S2';
  status: 'UPLOADING' | 'ENABLED';
  name: string | null;
  message: string | null;
  password: string | null;
  maxDownloads: number | null;
  downloads: number;
  expiresAt: string;
  files: FakeFile[];
  senderEmail: string | null;
  senderName: string | null;
  /** The signed-in account that created it (null: anonymous). */
  ownerId: string | null;
  senderVerification: 'not_needed' | 'pending' | 'verified';
  /** The code mailed to the sender while `pending`, when it stops working, and the wrong tries. */
  code: { value: string; expiresAt: number; wrong: number; sentAt: number } | null;
  sentAt: string | null;
  recipients: FakeRecipient[];
  notifications: {
    downloadConfirmation: boolean;
    expiryReminder: boolean;
    summary: boolean;
    forceEmailWhenDownloadS2: boolean;
  };
}

/**
 * A mail the fake "sent": verification codes, recipients' links, summaries, download confirmations, and the
 * account's e-mail confirmation links (`verify-email`, with an empty `transferId`).
 */
export interface FakeMail {
  kind: 'verification' | 'recipient' | 'summary' | 'confirmation' | 'verify-email';
  to: string;
  subject: string;
  text: string;
  transferId: string;
}

export type FakePlan = 'NONE' | 'PREMIUM' | 'TEAM' | 'ENTERPRISE';

export interface FakeAccount {
  uid: string;
  email: string;
  password: string;
  verified: boolean;
  planType: FakePlan;
  displayName: string | null;
  /** The code a second factor asks for (a real server checks a TOTP); null: no second factor. */
  totp: string | null;
  lastLogin: string | null;
  /** Set by an operator (`/api/operator/users/{uid}/suspend`): its credentials answer 403 ACCOUNT_SUSPENDED. */
  suspended?: boolean;
  planCode?: string | null;
  planEndsAt?: string | null;
  seats?: number | null;
  /** A team member: their manager's uid (GET /api/auth/me says so). */
  managerId?: string | null;
}

/** An invoice as the operator routes list it (packages/core OperatorInvoice). */
export interface FakeInvoice {
  number: string;
  email: string;
  uid: string;
  amountDue: number;
  total: number;
  currency: 'EUR' | 'USD' | 'GBP';
  status: 'open' | 'paid' | 'void';
  provider: 'MANUAL' | 'STRIPE' | 'PAYPAL';
  issuedAt: string;
  paidAt: string | null;
  pdfUrl: string;
}

export interface FakeSession {
  id: string;
  uid: string;
  token: string;
  deviceId: string | null;
  userAgent: string | null;
  createdAt: string;
  lastUsedAt: string;
  /** Epoch ms. */
  expiresAt: number;
}

export interface FakeApiToken {
  id: string;
  uid: string;
  name: string;
  token: string;
  createdAt: string;
  lastUsedAt: string | null;
}

/** Who a request is made by: an account through a session or an API token. */
interface FakeActor {
  account: FakeAccount;
  session: FakeSession | null;
  apiToken: FakeApiToken | null;
}

export interface FakeState {
  transfers: Map<string, FakeTransfer>;
  blobs: Map<string, { transferId: string; fileId: string | null }>;
  /** Bytes received by PATCH requests, across restarts. */
  receivedBytes: number;
  /** PATCH requests received with a non-zero Upload-Offset (resumptions). */
  resumedAt: number[];
  linkCalls: number;
  /** Start offsets of the Range requests on blobs. */
  rangeStarts: number[];
  mails: FakeMail[];
  /** Tokens of confirmed senders (`senderVerificationToken`) → their address. */
  senderTokens: Map<string, { email: string; expiresAt: string }>;
  /** Unsubscribe tokens of the mails → what they turn off. */
  unsubscribeTokens: Map<string, { transferId: string; kind: 'downloadConfirmation' | 'expiryReminder' }>;
  /** Every download link issued: through whose personal link, and the address a downloader gave. */
  linkLog: Array<{ transferId: string; recipient: string | null; downloaderEmail: string | null }>;
  /** Every request line received (`METHOD /path`), to assert what the client asked. */
  requests: string[];
  /** Accounts by lower-case e-mail address. */
  accounts: Map<string, FakeAccount>;
  /** The tokens of e-mail confirmation links → the account's uid. */
  verifyTokens: Map<string, string>;
  /** Id tokens (one hour) → the account's uid. */
  idTokens: Map<string, { uid: string; expiresAt: number }>;
  /** Live sessions by token (revoked ones are deleted). */
  sessions: Map<string, FakeSession>;
  /** Personal API tokens by token (revoked ones are deleted). */
  apiTokens: Map<string, FakeApiToken>;
  /** Webhooks by id (the real server's /api/user/webhooks, without deliveries). */
  webhooks: Map<string, { uid: string; url: string; events: string[]; team: boolean; secret: string }>;
  /** Failed sign-ins per address, for the rate limit. */
  signInFailures: Map<string, number>;
  /** The query of each session-cookie call. */
  sessionCookieCalls: Array<{
    expiresInMinutes: number;
    deviceId: string | null;
    currentDomain: string | null;
  }>;
  /** Each sign-out: its query and how many sessions it revoked. */
  signOuts: Array<{ deviceId: string | null; revokeAllSessions: boolean; revoked: number }>;
  /** The bearer credential of every API request (`METHOD /path` → token or null). */
  bearers: Array<{ request: string; token: string | null }>;
}

function sendError(res: http.ServerResponse, status: number, code: string | null, message: string): void {
  const body: Record<string, unknown> = { status, error: http.STATUS_CODES[status] ?? 'Error', message };
  if (code) body.codes = [code];
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

async function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : {};
}

function summary(t: FakeTransfer, origin: string) {
  return {
    transferId: t.transferId,
    type: t.type,
    status: t.status,
    name: t.name,
    link: `${origin}/dl/${t.transferId}`,
    expiresAt: t.expiresAt,
    totalSize: t.files.reduce((s, f) => s + f.size, 0),
    files: t.files.map(({ uploadId: _, ...f }) => f),
    senderEmail: t.senderEmail,
    senderVerification: t.senderVerification,
    sentAt: t.sentAt,
    recipients: t.recipients.map(({ secret: _, ...r }) => r),
    notifications: { ...t.notifications },
  };
}

function sendLimit(res: http.ServerResponse, limit: string, max: number, actual: number): void {
  sendJson(res, 400, {
    status: 400,
    error: 'Bad Request',
    message: `Too many ${limit}.`,
    codes: ['LIMIT_EXCEEDED'],
    limitErrors: [{ limit, max, actual }],
  });
}

function sendRateLimited(res: http.ServerResponse, seconds: number, message: string): void {
  res.writeHead(429, { 'content-type': 'application/json', 'retry-after': String(seconds) }).end(
    JSON.stringify({
      status: 429,
      error: 'Too Many Requests',
      message,
      codes: ['RATE_LIMITED'],
      details: { retryAfterSeconds: seconds },
    }),
  );
}

const isEmail = (v: unknown): v is string =>
  typeof v === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v.trim());

/** A file store that reports the bytes it is given (reading the request here would steal them from tus). */
class CountingFileStore extends FileStore {
  onChunk: (bytes: number) => void = () => undefined;

  override write(stream: Readable, id: string, offset: number): Promise<number> {
    const onChunk = this.onChunk;
    const tap = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        onChunk(chunk.length);
        callback(null, chunk);
      },
    });
    stream.on('error', (error) => tap.destroy(error));
    return super.write(stream.pipe(tap), id, offset);
  }
}

export class FakeFerryServer {
  readonly state: FakeState = {
    transfers: new Map(),
    blobs: new Map(),
    receivedBytes: 0,
    resumedAt: [],
    linkCalls: 0,
    rangeStarts: [],
    mails: [],
    senderTokens: new Map(),
    unsubscribeTokens: new Map(),
    linkLog: [],
    requests: [],
    accounts: new Map(),
    verifyTokens: new Map(),
    idTokens: new Map(),
    sessions: new Map(),
    apiTokens: new Map(),
    webhooks: new Map(),
    signInFailures: new Map(),
    sessionCookieCalls: [],
    signOuts: [],
    bearers: [],
  };
  /** Addresses of the server's operators (OPERATOR_EMAILS); to anyone else /api/operator/… answers 404. */
  readonly operators = new Set<string>();
  /** Security-log entries by team id (a manager's uid), newest first; each request as "teamId query". */
  readonly securityLogs = new Map<string, SecurityLogEntry[]>();
  readonly securityLogQueries: string[] = [];
  readonly invoices: FakeInvoice[] = [];
  /** What operators did, oldest first: `action target`. */
  readonly operatorActions: string[] = [];
  /** Answer session-cookie with this 400 code instead of a session (spec §8: handled gracefully). */
  sessionCookieError: 'USER_NOT_FOUND' | 'MAX_LICENCES_REACHED' | null = null;
  /** Failed sign-ins of one address after which signin answers 429 (Retry-After). */
  maxSignInFailures = 5;
  /** The plan's `files` limit of an anonymous sender (and of plan NONE). */
  maxFiles = 5;
  /** Anonymous senders confirm their address by a mailed code (server ANONYMOUS_SENDER_VERIFICATION). */
  senderVerification = true;
  /** The plan's `recipients` limit of an anonymous sender. */
  maxRecipients = 10;
  /** How long a recipient's mail stays `queued` before it reaches its delivery state. */
  deliveryDelayMs = 150;
  /** The delivery state each recipient's mail ends in (default: sent). */
  deliveryFor: (email: string) => { delivery: Delivery; error: string | null } = () => ({
    delivery: 'sent',
    error: null,
  });
  /** Minimum time between two codes for one transfer (the server's is 60 s). */
  resendCooldownMs = 60_000;
  /** Wrong codes after which a code is spent (VERIFICATION_CODE_EXPIRED). */
  maxWrongCodes = 5;
  private server: http.Server | null = null;
  private port = 0;
  /** Called with the running total of PATCH bytes received; e.g. to kill the server mid-upload. */
  onBytes: ((total: number) => void) | null = null;
  /** Called with the running total of blob bytes sent. */
  onBlobBytes: ((total: number) => void) | null = null;
  private blobBytes = 0;
  /** Completes the next transfer but cuts the connection instead of answering (a lost answer). */
  loseNextCompleteAnswer = false;

  constructor(private readonly dir: string) {}

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const store = new CountingFileStore({ directory: this.dir });
    store.onChunk = (bytes) => {
      this.state.receivedBytes += bytes;
      this.onBytes?.(this.state.receivedBytes);
    };
    const tus = new TusServer({
      path: '/api/transfer/uploads',
      datastore: store,
      namingFunction: (_req, metadata) => `${metadata?.transferId}_${metadata?.fileId}_${id(8)}`,
      onIncomingRequest: async (req, uploadId) => {
        const transfer = this.state.transfers.get(uploadId.split('_')[0] ?? '');
        if (!transfer || req.headers.get('x-upload-token') !== transfer.uploadToken) {
          throw { status_code: 403, body: 'bad upload token' };
        }
      },
      onUploadCreate: async (_req, upload) => {
        const [transferId, fileId] = upload.id.split('_');
        const file = this.state.transfers.get(transferId ?? '')?.files.find((f) => f.id === fileId);
        if (!file || file.size !== upload.size)
          throw { status_code: 400, body: 'unknown file or wrong size' };
        file.uploadId = upload.id;
        return {};
      },
      onUploadFinish: async (_req, upload) => {
        const [transferId, fileId] = upload.id.split('_');
        const file = this.state.transfers.get(transferId ?? '')?.files.find((f) => f.id === fileId);
        const hash = createHash('sha256');
        for await (const chunk of createReadStream(path.join(this.dir, upload.id))) hash.update(chunk);
        const sha = hash.digest('hex');
        if (file) Object.assign(file, { sha256: sha, uploaded: true });
        return { headers: { 'Upload-Sha256': sha } };
      },
    });
    this.server = http.createServer((req, res) => {
      this.route(req, res, tus).catch((error) => {
        if (!res.headersSent) sendError(res, 500, null, String(error));
        else res.destroy();
      });
    });
    await new Promise<void>((resolve) => this.server?.listen(this.port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  /** Stops at once, cutting every connection (like a SIGKILL of the server). */
  async kill(): Promise<void> {
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private mail(
    transfer: FakeTransfer,
    kind: FakeMail['kind'],
    to: string,
    subject: string,
    text = subject,
  ): void {
    this.state.mails.push({ kind, to, subject, text, transferId: transfer.transferId });
  }

  /** A new code for the sender (the previous one stops working). */
  private mailCode(transfer: FakeTransfer): void {
    const value = String(100_000 + (randomBytes(4).readUInt32BE() % 900_000));
    transfer.code = { value, expiresAt: Date.now() + 30 * 60_000, wrong: 0, sentAt: Date.now() };
    this.mail(
      transfer,
      'verification',
      transfer.senderEmail ?? '',
      `${value} is your Ferry verification code`,
    );
  }

  /** Lets the code of a pending transfer expire. */
  expireCode(transferId: string): void {
    const code = this.state.transfers.get(transferId)?.code;
    if (code) code.expiresAt = Date.now() - 1;
  }

  /** The last code mailed to an address. */
  lastCode(email: string): string | undefined {
    const mail = this.state.mails.filter((m) => m.kind === 'verification' && m.to === email).at(-1);
    return mail?.subject.slice(0, 6);
  }

  /** Once uploaded and confirmed: queues the recipients' mails (each delivered a moment later) and the summary. */
  private sendOut(transfer: FakeTransfer): void {
    if (transfer.status !== 'ENABLED' || transfer.senderVerification === 'pending' || transfer.sentAt) return;
    transfer.sentAt = new Date().toISOString();
    const from = transfer.senderName ?? transfer.senderEmail ?? 'Someone';
    for (const r of transfer.recipients) {
      r.delivery = 'queued';
      setTimeout(() => {
        const outcome = this.deliveryFor(r.email);
        Object.assign(r, outcome);
        if (outcome.delivery === 'sent' || outcome.delivery === 'in_doubt') {
          const link = `${this.origin}/dl/${transfer.transferId}?userSecret=${r.secret}`;
          this.mail(transfer, 'recipient', r.email, `${from} sent you files with Ferry`, `Download: ${link}`);
        }
      }, this.deliveryDelayMs).unref();
    }
    if (transfer.notifications.summary && transfer.senderEmail)
      this.mail(
        transfer,
        'summary',
        transfer.senderEmail,
        'Your files were sent',
        summary(transfer, this.origin).link,
      );
  }

  /** Limits of spec §9 that the fake checks: files, recipients, validity days. */
  private limitsFor(plan: FakePlan): { files: number; recipients: number; fileValidityInDays: number } {
    if (plan === 'NONE')
      return { files: this.maxFiles, recipients: this.maxRecipients, fileValidityInDays: 7 };
    return { files: 5000, recipients: 50, fileValidityInDays: 365 };
  }

  /** Adds an account directly (as if registered and confirmed, unless `verified: false`). */
  addAccount(init: {
    email: string;
    password: string;
    planType?: FakePlan;
    verified?: boolean;
    totp?: string;
    displayName?: string;
  }): FakeAccount {
    const account: FakeAccount = {
      uid: id(20),
      email: init.email,
      password: init.password,
      verified: init.verified ?? true,
      planType: init.planType ?? 'NONE',
      displayName: init.displayName ?? null,
      totp: init.totp ?? null,
      lastLogin: null,
    };
    this.state.accounts.set(init.email.toLowerCase(), account);
    return account;
  }

  /** A personal API token for an account, as the web app would create it. */
  addApiToken(uid: string, name = 'test'): FakeApiToken {
    const token: FakeApiToken = {
      id: id(12),
      uid,
      name,
      token: `fry_${id(40)}`,
      createdAt: new Date().toISOString(),
      lastUsedAt: null,
    };
    this.state.apiTokens.set(token.token, token);
    return token;
  }

  /** Revokes every session of an account ("sign out everywhere" from another device). */
  revokeSessions(uid: string): number {
    let revoked = 0;
    for (const [token, session] of this.state.sessions)
      if (session.uid === uid) {
        this.state.sessions.delete(token);
        revoked++;
      }
    return revoked;
  }

  /** The accounts' sessions, oldest first. */
  sessionsOf(uid: string): FakeSession[] {
    return [...this.state.sessions.values()].filter((s) => s.uid === uid);
  }

  private accountByUid(uid: string): FakeAccount | undefined {
    return [...this.state.accounts.values()].find((a) => a.uid === uid);
  }

  /** A signed-token look-alike: three dot-separated parts (spec §5). */
  private jwt(): string {
    return `eyJ${id(16)}.eyJ${id(40)}.${id(43)}`;
  }

  private issueIdToken(account: FakeAccount): { idToken: string; expiresAt: string } {
    const idToken = this.jwt();
    const expiresAt = Date.now() + 3_600_000;
    this.state.idTokens.set(idToken, { uid: account.uid, expiresAt });
    return { idToken, expiresAt: new Date(expiresAt).toISOString() };
  }

  /**
   * Who sends a request: its `Authorization: Bearer` (a session or API token; refused with 401 INVALID_TOKEN when
   * unknown, revoked or expired), else its `ferry_session` cookie (ignored when not valid), else anonymous.
   */
  private authenticate(req: http.IncomingMessage): FakeActor | null | 'invalid' | 'suspended' {
    const header = req.headers.authorization;
    const bearer = header ? /^Bearer\s+(\S+)$/i.exec(header)?.[1] : undefined;
    const cookie = /(?:^|;\s*)ferry_session=([^;]+)/.exec(req.headers.cookie ?? '')?.[1];
    const token = header ? bearer : cookie;
    if (token === undefined) return header ? 'invalid' : null;
    const now = Date.now();
    const session = this.state.sessions.get(token);
    const apiToken = session ? undefined : this.state.apiTokens.get(token);
    const uid = session && session.expiresAt > now ? session.uid : apiToken?.uid;
    const account = uid ? this.accountByUid(uid) : undefined;
    if (!account) return header ? 'invalid' : null;
    if (account.suspended) return header ? 'suspended' : null;
    const at = new Date(now).toISOString();
    if (session) session.lastUsedAt = at;
    if (apiToken) apiToken.lastUsedAt = at;
    return { account, session: session ?? null, apiToken: apiToken ?? null };
  }

  private authState(actor: FakeActor | null) {
    const a = actor?.account;
    return {
      user: a ? { uid: a.uid, email: a.email, displayName: a.displayName, locale: null } : null,
      planType: a?.planType ?? 'NONE',
      payingUser: a !== undefined && a.planType !== 'NONE',
      managerId: a?.managerId ?? null,
      lastLogin: a?.lastLogin ?? null,
      currentSignInProvider: actor ? (actor.apiToken ? 'api_token' : 'password') : null,
      authorization: { managerId: a?.managerId ?? null, permissions: [] },
      sessionExpireTimestamp: actor?.session?.expiresAt ?? null,
      chosenPlan: null,
    };
  }

  private mailVerifyLink(account: FakeAccount): void {
    const token = id(32);
    this.state.verifyTokens.set(token, account.uid);
    this.state.mails.push({
      kind: 'verify-email',
      to: account.email,
      subject: 'Confirm your e-mail address for Ferry',
      text: `Confirm: ${this.origin}/verify-email?token=${token}`,
      transferId: '',
    });
  }

  /** The token of the last confirmation link mailed to an address. */
  lastVerifyToken(email: string): string | undefined {
    const mail = this.state.mails.filter((m) => m.kind === 'verify-email' && m.to === email).at(-1);
    return mail ? /token=(\S+)/.exec(mail.text)?.[1] : undefined;
  }

  /** The `/api/auth/…` routes; false when `p` is not one of them. */
  private async authRoute(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    actor: FakeActor | null,
  ): Promise<boolean> {
    const p = url.pathname;
    const m = req.method;
    const refuse = (status: number, code: string, message: string): true => {
      sendError(res, status, code, message);
      return true;
    };
    if (m === 'POST' && p === '/api/auth/register') {
      const body = await readJson(req);
      const email = typeof body.email === 'string' ? body.email.trim() : '';
      const password = typeof body.password === 'string' ? body.password : '';
      if (!isEmail(email)) return refuse(400, 'VALIDATION_FAILED', 'email: Invalid email');
      if (password.length < 10 || password.length > 256)
        return refuse(400, 'VALIDATION_FAILED', 'password: use at least 10 characters');
      const existing = this.state.accounts.get(email.toLowerCase());
      if (!existing) this.mailVerifyLink(this.addAccount({ email, password, verified: false }));
      sendJson(res, 202, { sentTo: email });
      return true;
    }
    if (m === 'POST' && p === '/api/auth/verify-email') {
      const body = await readJson(req);
      const uid = this.state.verifyTokens.get(String(body.token ?? ''));
      const account = uid ? this.accountByUid(uid) : undefined;
      if (!account) return refuse(401, 'INVALID_TOKEN', 'This link is not valid any more.');
      this.state.verifyTokens.delete(String(body.token));
      account.verified = true;
      sendJson(res, 200, this.issueIdToken(account));
      return true;
    }
    if (m === 'POST' && p === '/api/auth/signin') {
      const body = await readJson(req);
      const email = typeof body.email === 'string' ? body.email.trim().toLowerCase() : '';
      const failures = this.state.signInFailures.get(email) ?? 0;
      if (failures >= this.maxSignInFailures) {
        sendRateLimited(res, 60, 'Too many failed sign-ins; try again later.');
        return true;
      }
      const account = this.state.accounts.get(email);
      const fail = (code: string, message: string) => {
        this.state.signInFailures.set(email, failures + 1);
        sendError(res, 401, code, message);
        return true;
      };
      if (!account || account.password !== body.password)
        return fail('INVALID_CREDENTIALS', 'Wrong e-mail address or password.');
      if (!account.verified) {
        this.mailVerifyLink(account);
        sendError(res, 403, 'EMAIL_NOT_VERIFIED', 'Confirm your e-mail address first; a new link was sent.');
        return true;
      }
      if (account.totp !== null) {
        const totp = typeof body.totp === 'string' ? body.totp.trim() : '';
        if (totp === '') {
          sendError(res, 401, 'SECOND_FACTOR_REQUIRED', 'Enter the code of your second factor.');
          return true;
        }
        if (totp !== account.totp) {
          // As the server does: the same code again, with details.wrongCode.
          this.state.signInFailures.set(email, failures + 1);
          sendJson(res, 401, {
            status: 401,
            error: 'Unauthorized',
            message: 'This code is not right.',
            codes: ['SECOND_FACTOR_REQUIRED'],
            details: { wrongCode: true },
          });
          return true;
        }
      }
      this.state.signInFailures.delete(email);
      account.lastLogin = new Date().toISOString();
      sendJson(res, 200, this.issueIdToken(account));
      return true;
    }
    if (m === 'GET' && p === '/api/auth/auth/session-cookie') {
      const minutes = Number(url.searchParams.get('expiresInMinutes') ?? 1440);
      const deviceId = url.searchParams.get('deviceId');
      const currentDomain = url.searchParams.get('currentDomain');
      if (!Number.isInteger(minutes) || minutes < 5 || minutes > 20160)
        return refuse(400, 'VALIDATION_FAILED', 'expiresInMinutes: 5 to 20160');
      if (deviceId !== null && !/^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$/i.test(deviceId))
        return refuse(400, 'VALIDATION_FAILED', 'deviceId: Invalid UUID');
      const header = req.headers['id-token'];
      const idToken = this.state.idTokens.get(typeof header === 'string' ? header : '');
      if (!idToken || idToken.expiresAt <= Date.now())
        return refuse(400, 'VALIDATION_FAILED', 'The id token is not valid.');
      this.state.sessionCookieCalls.push({ expiresInMinutes: minutes, deviceId, currentDomain });
      if (this.sessionCookieError) {
        sendError(res, 400, this.sessionCookieError, 'No session for this account.');
        return true;
      }
      const now = Date.now();
      const session: FakeSession = {
        id: id(12),
        uid: idToken.uid,
        token: this.jwt(),
        deviceId,
        userAgent: req.headers['user-agent'] ?? null,
        createdAt: new Date(now).toISOString(),
        lastUsedAt: new Date(now).toISOString(),
        expiresAt: now + minutes * 60_000,
      };
      this.state.sessions.set(session.token, session);
      res.setHeader(
        'set-cookie',
        `ferry_session=${session.token}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${minutes * 60}`,
      );
      sendJson(res, 200, { sessionCookie: session.token, sessionExpireTimestamp: session.expiresAt });
      return true;
    }
    if (m === 'GET' && p === '/api/auth/auth/sign-out') {
      const all = url.searchParams.get('revokeAllSessions') === 'true';
      let revoked = 0;
      if (actor && all) revoked = this.revokeSessions(actor.account.uid);
      else if (actor?.session && this.state.sessions.delete(actor.session.token)) revoked = 1;
      this.state.signOuts.push({
        deviceId: url.searchParams.get('deviceId'),
        revokeAllSessions: all,
        revoked,
      });
      res.setHeader('set-cookie', 'ferry_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
      sendJson(res, 200, { revoked });
      return true;
    }
    if (m === 'GET' && p === '/api/auth/auth/id-token') {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      sendJson(res, 200, this.issueIdToken(actor.account));
      return true;
    }
    if (m === 'GET' && p === '/api/auth/me') {
      sendJson(res, 200, this.authState(actor));
      return true;
    }
    const teamLogs = /^\/api\/team\/([^/]+)\/security-logs$/.exec(p);
    if (m === 'GET' && teamLogs) {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      const teamId = decodeURIComponent(teamLogs[1] ?? '');
      const q = url.searchParams;
      this.securityLogQueries.push(`${teamId} ${q}`);
      if (teamId !== actor.account.uid) return refuse(404, 'NOT_FOUND', 'No such team.');
      const from = q.get('from');
      const all = (this.securityLogs.get(teamId) ?? []).filter(
        (e) => (!q.get('action') || e.action === q.get('action')) && (!from || e.at >= from),
      );
      const start = Number(q.get('cursor') ?? 0);
      const limit = Number(q.get('limit') ?? 50);
      const next = start + limit < all.length ? String(start + limit) : null;
      sendJson(res, 200, { entries: all.slice(start, start + limit), nextCursor: next });
      return true;
    }
    if (p === '/api/auth/sessions' && m === 'GET') {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      sendJson(
        res,
        200,
        this.sessionsOf(actor.account.uid).map((s) => ({
          id: s.id,
          deviceId: s.deviceId,
          userAgent: s.userAgent,
          ip: '127.0.0.1',
          createdAt: s.createdAt,
          lastUsedAt: s.lastUsedAt,
          expiresAt: new Date(s.expiresAt).toISOString(),
          current: s.token === actor.session?.token,
        })),
      );
      return true;
    }
    const session = /^\/api\/auth\/sessions\/([^/]+)$/.exec(p);
    if (session && m === 'DELETE') {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      const found = this.sessionsOf(actor.account.uid).find((s) => s.id === session[1]);
      if (!found) return refuse(404, 'NOT_FOUND', 'No such session.');
      this.state.sessions.delete(found.token);
      res.writeHead(204).end();
      return true;
    }
    const info = (t: FakeApiToken) => ({
      id: t.id,
      name: t.name,
      prefix: t.token.slice(0, 8),
      scopes: ['transfers:read', 'transfers:write', 'receive'],
      createdAt: t.createdAt,
      lastUsedAt: t.lastUsedAt,
    });
    if (p === '/api/auth/tokens' && (m === 'GET' || m === 'POST')) {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      if (m === 'GET') {
        const mine = [...this.state.apiTokens.values()].filter((t) => t.uid === actor.account.uid);
        sendJson(res, 200, mine.map(info));
        return true;
      }
      const body = await readJson(req);
      const name = typeof body.name === 'string' ? body.name.trim() : '';
      if (name === '' || name.length > 200) return refuse(400, 'VALIDATION_FAILED', 'name: 1 to 200');
      const created = this.addApiToken(actor.account.uid, name);
      sendJson(res, 201, { ...info(created), token: created.token });
      return true;
    }
    const token = /^\/api\/auth\/tokens\/([^/]+)$/.exec(p);
    if (token && m === 'DELETE') {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      const found = [...this.state.apiTokens.values()].find(
        (t) => t.id === token[1] && t.uid === actor.account.uid,
      );
      if (!found) return refuse(404, 'NOT_FOUND', 'No such token.');
      this.state.apiTokens.delete(found.token);
      res.writeHead(204).end();
      return true;
    }
    const hookInfo = (hookId: string, h: { url: string; events: string[]; team: boolean }) => ({
      id: hookId,
      url: h.url,
      events: h.events,
      team: h.team,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    if (p === '/api/user/webhooks' && (m === 'GET' || m === 'POST')) {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      if (m === 'GET') {
        const mine = [...this.state.webhooks].filter(([, h]) => h.uid === actor.account.uid);
        sendJson(
          res,
          200,
          mine.map(([id, h]) => hookInfo(id, h)),
        );
        return true;
      }
      const body = await readJson(req);
      const url = typeof body.url === 'string' ? body.url : '';
      if (!url.startsWith('https://'))
        return refuse(400, 'VALIDATION_FAILED', 'A webhook URL must start with https://.');
      const events = Array.isArray(body.events) ? (body.events as string[]) : [...WEBHOOK_EVENTS];
      const hookId = `wh_${id(16)}`;
      const hook = {
        uid: actor.account.uid,
        url,
        events,
        team: body.team === true,
        secret: `whsec_${id(24)}`,
      };
      this.state.webhooks.set(hookId, hook);
      sendJson(res, 201, { ...hookInfo(hookId, hook), secret: hook.secret });
      return true;
    }
    const hookPath = /^\/api\/user\/webhooks\/([^/]+)$/.exec(p);
    if (hookPath && m === 'DELETE') {
      if (!actor) return refuse(401, 'UNAUTHORIZED', 'Sign in first.');
      const found = this.state.webhooks.get(hookPath[1]!);
      if (!found || found.uid !== actor.account.uid) return refuse(404, 'NOT_FOUND', 'No such webhook.');
      this.state.webhooks.delete(hookPath[1]!);
      res.writeHead(204).end();
      return true;
    }
    return false;
  }

  /** An account as the operator routes show it (packages/core OperatorUser). */
  private operatorUser(a: FakeAccount) {
    return {
      uid: a.uid,
      email: a.email,
      firstname: a.displayName,
      planType: a.planType,
      planCode: a.planCode ?? (a.planType === 'NONE' ? null : a.planType),
      planEndsAt: a.planEndsAt ?? null,
      licences: a.seats ?? null,
      managerId: null,
      storageUsed: 0,
      lastLoginAt: a.lastLogin,
      createdAt: '2026-01-01T00:00:00.000Z',
      emailVerified: a.verified,
      suspended: a.suspended === true,
      suspendedAt: a.suspended ? '2026-01-02T00:00:00.000Z' : null,
    };
  }

  /** `/api/operator/…`: users (search, pages), suspend, unsuspend, set a plan, invoices, mark paid. */
  private async operatorRoute(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    actor: FakeActor | null,
  ): Promise<void> {
    const p = url.pathname;
    const m = req.method;
    if (!actor?.account.verified || !this.operators.has(actor.account.email.toLowerCase())) {
      sendError(res, 404, 'NOT_FOUND', 'Not found');
      return;
    }
    if (m === 'GET' && p === '/api/operator/me') {
      sendJson(res, 200, { operator: true, email: actor.account.email });
      return;
    }
    if (m === 'GET' && p === '/api/operator/users') {
      const search = (url.searchParams.get('search') ?? '').toLowerCase();
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const from = Number(url.searchParams.get('cursor') ?? 0);
      const all = [...this.state.accounts.values()]
        .filter((a) => a.email.toLowerCase().includes(search))
        .sort((a, b) => (a.email.toLowerCase() < b.email.toLowerCase() ? -1 : 1));
      const page = all.slice(from, from + limit);
      const next = from + limit < all.length ? String(from + limit) : null;
      sendJson(res, 200, { users: page.map((a) => this.operatorUser(a)), nextCursor: next });
      return;
    }
    const user = /^\/api\/operator\/users\/([^/]+)\/(suspend|unsuspend|plan)$/.exec(p);
    if (user) {
      const account = this.accountByUid(decodeURIComponent(user[1] ?? ''));
      if (!account) {
        sendError(res, 404, 'NOT_FOUND', 'No such account.');
        return;
      }
      if (user[2] === 'plan' && m === 'PUT') {
        const body = await readJson(req);
        const code = String(body.planCode);
        account.planType = (
          code === 'NONE'
            ? 'NONE'
            : code.startsWith('TEAM')
              ? 'TEAM'
              : code.startsWith('PREMIUM')
                ? 'PREMIUM'
                : 'ENTERPRISE'
        ) as FakePlan;
        account.planCode = code === 'NONE' ? null : code;
        account.planEndsAt = typeof body.until === 'string' ? `${body.until}T23:59:59.999Z` : null;
        account.seats = typeof body.seats === 'number' ? body.seats : null;
      } else if (m === 'POST' && user[2] !== 'plan') {
        if (user[2] === 'suspend' && account.uid === actor.account.uid) {
          sendError(res, 403, 'FORBIDDEN', 'An operator cannot suspend their own account.');
          return;
        }
        account.suspended = user[2] === 'suspend';
        if (account.suspended) this.revokeSessions(account.uid);
      } else {
        sendError(res, 404, null, `no route ${m} ${p}`);
        return;
      }
      this.operatorActions.push(`${user[2]} ${account.email}`);
      sendJson(res, 200, this.operatorUser(account));
      return;
    }
    if (m === 'GET' && p === '/api/operator/invoices') {
      const open = url.searchParams.get('open') === 'true';
      sendJson(res, 200, { invoices: this.invoices.filter((i) => !open || i.status === 'open') });
      return;
    }
    const paid = /^\/api\/operator\/invoices\/([^/]+)\/mark-paid$/.exec(p);
    if (m === 'POST' && paid) {
      const invoice = this.invoices.find((i) => i.number === decodeURIComponent(paid[1] ?? ''));
      if (!invoice) return sendError(res, 404, 'NOT_FOUND', 'No such invoice.');
      if (invoice.status !== 'open') return sendError(res, 409, 'CONFLICT', 'This invoice is not open.');
      invoice.status = 'paid';
      invoice.amountDue = 0;
      invoice.paidAt = new Date().toISOString();
      this.operatorActions.push(`mark-paid ${invoice.number}`);
      sendJson(res, 200, invoice);
      return;
    }
    sendError(res, 404, null, `no route ${m} ${p}`);
  }

  private async route(req: http.IncomingMessage, res: http.ServerResponse, tus: TusServer): Promise<void> {
    const url = new URL(req.url ?? '/', this.origin);
    const p = url.pathname;
    this.state.requests.push(`${req.method} ${p}`);
    if (p.startsWith('/api/transfer/uploads')) {
      if (req.method === 'PATCH') {
        const offset = Number(req.headers['upload-offset']);
        if (offset > 0) this.state.resumedAt.push(offset);
      }
      await tus.handle(req, res);
      return;
    }
    const actor = this.authenticate(req);
    this.state.bearers.push({
      request: `${req.method} ${p}`,
      token: /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? null,
    });
    if (actor === 'invalid') {
      sendError(res, 401, 'INVALID_TOKEN', 'The session has ended or the token was revoked; sign in again.');
      return;
    }
    if (actor === 'suspended') {
      sendError(res, 403, 'ACCOUNT_SUSPENDED', 'This account is suspended.');
      return;
    }
    if (
      (p.startsWith('/api/auth/') || p.startsWith('/api/team/') || p.startsWith('/api/user/webhooks')) &&
      (await this.authRoute(req, res, url, actor))
    )
      return;
    if (p.startsWith('/api/operator/')) {
      await this.operatorRoute(req, res, url, actor);
      return;
    }
    const t = (tid: string | null) => {
      const transfer = this.state.transfers.get(tid ?? '');
      if (!transfer) sendError(res, 404, 'TRANSFER_NOT_FOUND', 'Transfer not found.');
      return transfer;
    };
    if (req.method === 'POST' && p === '/api/transfer/transfers') {
      const body = await readJson(req);
      const files = body.files as Array<{ name: string; size: number; relativePath?: string }>;
      const limits = this.limitsFor(actor?.account.planType ?? 'NONE');
      if (files.length > limits.files) {
        res.writeHead(400, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            status: 400,
            error: 'Bad Request',
            message: 'Too many files.',
            codes: ['LIMIT_EXCEEDED'],
            limitErrors: [{ limit: 'files', max: limits.files, actual: files.length }],
          }),
        );
        return;
      }
      const days = typeof body.expiresInDays === 'number' ? body.expiresInDays : 7;
      if (days > limits.fileValidityInDays) {
        sendLimit(res, 'fileValidityInDays', limits.fileValidityInDays, days);
        return;
      }
      const type = body.type === 'S1' ? 'S1' : 'S2';
      // Signed in, the sender's address defaults to the account's.
      const senderEmail =
        typeof body.senderEmail === 'string' ? body.senderEmail.trim() : (actor?.account.email ?? null);
      const recipients = Array.isArray(body.recipients) ? (body.recipients as unknown[]) : undefined;
      if (senderEmail !== null && !isEmail(senderEmail)) {
        sendError(res, 400, 'VALIDATION_FAILED', 'senderEmail: Invalid email');
        return;
      }
      if (recipients?.some((r) => !isEmail(r))) {
        sendError(res, 400, 'VALIDATION_FAILED', 'recipients: Invalid email');
        return;
      }
      const unique = [
        ...new Map(
          (recipients as string[] | undefined)?.map((r) => [r.trim().toLowerCase(), r.trim()]),
        ).values(),
      ];
      if (type === 'S1' && (unique.length === 0 || senderEmail === null)) {
        sendError(res, 400, 'VALIDATION_FAILED', 'An S1 transfer needs recipients and senderEmail.');
        return;
      }
      if (type === 'S2' && recipients !== undefined) {
        sendError(res, 400, 'VALIDATION_FAILED', 'recipients are for S1 transfers.');
        return;
      }
      if (unique.length > limits.recipients) {
        sendLimit(res, 'recipients', limits.recipients, unique.length);
        return;
      }
      const s1 = type === 'S1';
      const notifications = {
        downloadConfirmation: (body.downloadConfirmation as boolean | undefined) ?? s1,
        expiryReminder: s1 && ((body.expiryReminder as boolean | undefined) ?? true),
        summary: (body.summary as boolean | undefined) ?? s1,
        forceEmailWhenDownloadS2: !s1 && body.forceEmailWhenDownloadS2 === true,
      };
      const writesToSender =
        senderEmail !== null && (s1 || notifications.downloadConfirmation || notifications.summary);
      const proof = this.state.senderTokens.get(String(body.senderVerificationToken ?? ''));
      const proven =
        proof !== undefined &&
        proof.email.toLowerCase() === senderEmail?.toLowerCase() &&
        Date.parse(proof.expiresAt) > Date.now();
      // The account's own (confirmed) address needs no code.
      const own = actor !== null && actor.account.email.toLowerCase() === senderEmail?.toLowerCase();
      const transfer: FakeTransfer = {
        transferId: id(16),
        uploadToken: id(32),
        type,
        senderEmail,
        senderName: (body.senderName as string) ?? null,
        ownerId: actor?.account.uid ?? null,
        senderVerification:
          !writesToSender || !this.senderVerification || own ? 'not_needed' : proven ? 'verified' : 'pending',
        code: null,
        sentAt: null,
        recipients: unique.map((email) => ({
          email,
          secret: id(24),
          delivery: 'waiting',
          error: null,
          downloadedAt: null,
        })),
        notifications,
        status: 'UPLOADING',
        name: (body.name as string) ?? null,
        message: (body.message as string) ?? null,
        password: (body.password as string) ?? null,
        maxDownloads: (body.maxDownloads as number) ?? null,
        downloads: 0,
        expiresAt: new Date(Date.now() + days * 86_400_000).toISOString(),
        files: files.map((f) => ({
          id: id(6),
          name: f.name,
          relativePath: f.relativePath ?? null,
          size: f.size,
          sha256: null,
          uploaded: false,
          uploadId: null,
        })),
      };
      this.state.transfers.set(transfer.transferId, transfer);
      if (transfer.senderVerification === 'pending') this.mailCode(transfer);
      sendJson(res, 201, {
        ...summary(transfer, this.origin),
        uploadToken: transfer.uploadToken,
        uploadEndpoint: '/api/transfer/uploads',
      });
      return;
    }
    const v = /^\/api\/transfer\/transfers\/([^/]+)\/(sender-verification(?:\/resend)?|notifications)$/.exec(
      p,
    );
    if (v) {
      const transfer = t(v[1] ?? null);
      if (!transfer) return;
      if (req.headers['x-upload-token'] !== transfer.uploadToken) {
        sendError(res, 403, 'FORBIDDEN', 'Bad upload token.');
        return;
      }
      if (v[2] === 'notifications' && req.method === 'PATCH') {
        const body = await readJson(req);
        for (const k of ['downloadConfirmation', 'expiryReminder', 'forceEmailWhenDownloadS2'] as const)
          if (typeof body[k] === 'boolean') transfer.notifications[k] = body[k];
        sendJson(res, 200, summary(transfer, this.origin));
        return;
      }
      if (req.method !== 'POST') {
        sendError(res, 404, null, `no route ${req.method} ${p}`);
        return;
      }
      const code = transfer.code;
      if (transfer.senderVerification !== 'pending' || !code) {
        sendError(res, 409, 'CONFLICT', 'No verification is pending for this transfer.');
        return;
      }
      if (v[2] === 'sender-verification/resend') {
        const wait = Math.ceil((code.sentAt + this.resendCooldownMs - Date.now()) / 1000);
        if (wait > 0) {
          sendRateLimited(res, wait, 'A new code can be asked for in a minute.');
          return;
        }
        this.mailCode(transfer);
        sendJson(res, 202, { sentTo: transfer.senderEmail, retryAfterSeconds: this.resendCooldownMs / 1000 });
        return;
      }
      const body = await readJson(req);
      const given = typeof body.code === 'string' ? body.code.trim() : '';
      if (!/^\d{6}$/.test(given)) {
        sendError(res, 400, 'VALIDATION_FAILED', 'code: the code has 6 digits');
        return;
      }
      // As the server does: a code tried wrongly too often is spent, like an expired one.
      if (code.wrong >= this.maxWrongCodes || code.expiresAt <= Date.now()) {
        sendError(res, 403, 'VERIFICATION_CODE_EXPIRED', 'The code has expired; ask for a new one.');
        return;
      }
      if (given !== code.value) {
        code.wrong++;
        if (code.wrong >= this.maxWrongCodes) {
          sendError(res, 403, 'VERIFICATION_CODE_EXPIRED', 'Too many wrong codes: ask for a new code.');
          return;
        }
        sendError(res, 403, 'WRONG_VERIFICATION_CODE', 'Wrong code.');
        return;
      }
      transfer.senderVerification = 'verified';
      transfer.code = null;
      const token = id(40);
      const expiresAt = new Date(Date.now() + 365 * 86_400_000).toISOString();
      this.state.senderTokens.set(token, { email: transfer.senderEmail ?? '', expiresAt });
      this.sendOut(transfer);
      sendJson(res, 200, {
        transfer: summary(transfer, this.origin),
        senderVerificationToken: token,
        expiresAt,
      });
      return;
    }
    if (req.method === 'POST' && p === '/api/transfer/notifications/unsubscribe') {
      const found = this.state.unsubscribeTokens.get(url.searchParams.get('token') ?? '');
      const transfer = this.state.transfers.get(found?.transferId ?? '');
      if (!found || !transfer) {
        sendError(res, 404, 'TRANSFER_NOT_FOUND', 'Unknown link.');
        return;
      }
      transfer.notifications[found.kind] = false;
      sendJson(res, 200, { kind: found.kind, transferName: transfer.name });
      return;
    }
    const m = /^\/api\/transfer\/transfers\/([^/]+)\/(upload-state|complete)$/.exec(p);
    if (m) {
      const transfer = t(m[1] ?? null);
      if (!transfer) return;
      if (req.headers['x-upload-token'] !== transfer.uploadToken) {
        sendError(res, 403, 'FORBIDDEN', 'Bad upload token.');
        return;
      }
      if (m[2] === 'complete') {
        const body = await readJson(req);
        const missing = transfer.files.filter((f) => !f.uploaded);
        if (missing.length > 0) {
          sendError(res, 409, 'UPLOAD_INCOMPLETE', 'Some files are not uploaded.');
          return;
        }
        const claimed = body.files as Array<{ id: string; sha256?: string }>;
        const bad = claimed.filter(
          (c) => c.sha256 && transfer.files.find((f) => f.id === c.id)?.sha256 !== c.sha256,
        );
        if (bad.length > 0) {
          for (const b of bad) {
            const f = transfer.files.find((x) => x.id === b.id);
            if (f) Object.assign(f, { uploaded: false, sha256: null, uploadId: null });
          }
          res.writeHead(422, { 'content-type': 'application/json' }).end(
            JSON.stringify({
              status: 422,
              error: 'Unprocessable Entity',
              message: 'Checksum mismatch.',
              codes: ['CHECKSUM_MISMATCH'],
              details: { files: bad.map((b) => ({ id: b.id, expected: b.sha256, actual: 'x' })) },
            }),
          );
          return;
        }
        transfer.status = 'ENABLED';
        this.sendOut(transfer);
        if (this.loseNextCompleteAnswer) {
          this.loseNextCompleteAnswer = false;
          req.socket.destroy();
          return;
        }
      }
      sendJson(res, 200, summary(transfer, this.origin));
      return;
    }
    if (p === '/api/transfer/downloads/info' || p === '/api/transfer/downloads/link') {
      const transfer = t(url.searchParams.get('transferId'));
      if (!transfer) return;
      const password = url.searchParams.get('password');
      const locked = transfer.password !== null && password !== transfer.password;
      const secret = url.searchParams.get('userSecret');
      const recipient = secret ? transfer.recipients.find((r) => r.secret === secret) : undefined;
      const emailRequired = transfer.notifications.forceEmailWhenDownloadS2 && !recipient;
      if (p.endsWith('/info')) {
        const s = summary(transfer, this.origin);
        sendJson(res, 200, {
          transferId: s.transferId,
          name: s.name,
          message: transfer.message,
          senderName: null,
          status: s.status,
          expiresAt: s.expiresAt,
          passwordProtected: transfer.password !== null,
          locked,
          allowPreview: true,
          fileCount: s.files.length,
          totalSize: s.totalSize,
          downloadsLeft: transfer.maxDownloads === null ? null : transfer.maxDownloads - transfer.downloads,
          files: locked ? [] : s.files,
          downloaderEmailRequired: emailRequired,
          recipientEmail: recipient?.email ?? null,
          price: null,
          purchased: true,
        });
        return;
      }
      const downloaderEmail = url.searchParams.get('downloaderEmail');
      if (emailRequired && !downloaderEmail) {
        sendError(res, 401, 'DOWNLOADER_EMAIL_REQUIRED', 'Give your e-mail address first.');
        return;
      }
      if (downloaderEmail !== null && !isEmail(downloaderEmail)) {
        sendError(res, 400, 'VALIDATION_FAILED', 'downloaderEmail: Invalid email');
        return;
      }
      if (locked) {
        if (password === null) sendError(res, 401, 'PASSWORD_REQUIRED', 'Password required.');
        else sendError(res, 403, 'WRONG_PASSWORD', 'Wrong password.');
        return;
      }
      if (transfer.maxDownloads !== null && transfer.downloads >= transfer.maxDownloads) {
        sendError(res, 403, 'TOO_MANY_DOWNLOADS', 'This transfer has reached its download limit.');
        return;
      }
      transfer.downloads++;
      this.state.linkCalls++;
      this.state.linkLog.push({
        transferId: transfer.transferId,
        recipient: recipient?.email ?? null,
        downloaderEmail,
      });
      if (recipient && !recipient.downloadedAt) recipient.downloadedAt = new Date().toISOString();
      const who = recipient?.email ?? downloaderEmail;
      if (
        transfer.notifications.downloadConfirmation &&
        transfer.senderEmail &&
        transfer.senderVerification !== 'pending'
      )
        this.mail(
          transfer,
          'confirmation',
          transfer.senderEmail,
          `${who ?? 'Someone'} downloaded your files`,
        );
      const fileId = url.searchParams.get('fileId');
      const file = fileId ? transfer.files.find((f) => f.id === fileId) : undefined;
      if (fileId && !file) {
        sendError(res, 404, 'FILE_NOT_FOUND', 'File not found.');
        return;
      }
      const token = id(24);
      this.state.blobs.set(token, { transferId: transfer.transferId, fileId: file?.id ?? null });
      sendJson(res, 200, {
        url: `/api/transfer/downloads/blob/${token}`,
        fileName: file ? file.name : `${transfer.name ?? 'transfer'}.zip`,
        size: file ? file.size : transfer.files[0]?.size,
        sha256: file ? file.sha256 : null,
        expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      });
      return;
    }
    if (req.method === 'POST' && p === '/api/transfer/downloads/check-password') {
      const body = await readJson(req);
      const transfer = t(body.transferId as string);
      if (!transfer) return;
      if (body.password !== transfer.password) sendError(res, 403, 'WRONG_PASSWORD', 'Wrong password.');
      else sendJson(res, 200, { ok: true });
      return;
    }
    const blob = /^\/api\/transfer\/downloads\/blob\/([^/]+)$/.exec(p);
    if (blob) {
      const target = this.state.blobs.get(blob[1] ?? '');
      const transfer = this.state.transfers.get(target?.transferId ?? '');
      // The "ZIP" of this fake is simply the first file's bytes: enough to test the download path.
      const file = transfer?.files.find((f) => f.id === target?.fileId) ?? transfer?.files[0];
      if (!file?.uploadId) {
        sendError(res, 404, 'TRANSFER_NOT_FOUND', 'Unknown download.');
        return;
      }
      const filePath = path.join(this.dir, file.uploadId);
      const { size } = await stat(filePath);
      const range = /^bytes=(\d+)-$/.exec(String(req.headers.range ?? ''));
      const start = range ? Number(range[1]) : 0;
      if (range) this.state.rangeStarts.push(start);
      if (start > size || (range && start === size && size > 0)) {
        res.writeHead(416, { 'content-range': `bytes */${size}` }).end();
        return;
      }
      const headers: http.OutgoingHttpHeaders = {
        'content-type': 'application/octet-stream',
        'content-length': size - start,
        'accept-ranges': 'bytes',
      };
      if (range) headers['content-range'] = `bytes ${start}-${size - 1}/${size}`;
      res.writeHead(range ? 206 : 200, headers);
      if (size - start === 0) {
        res.end();
        return;
      }
      const count = new Transform({
        transform: (chunk: Buffer, _encoding, callback) => {
          this.blobBytes += chunk.length;
          this.onBlobBytes?.(this.blobBytes);
          callback(null, chunk);
        },
      });
      createReadStream(filePath, { start }).pipe(count).pipe(res);
      return;
    }
    sendError(res, 404, null, `no route ${req.method} ${p}`);
  }
}
