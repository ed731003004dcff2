import { type AuthState, Email, SESSION_COOKIE_STAY_SIGNED_IN_MINUTES } from '@ferry/core';
import { FerryClient, normalizeServerUrl } from '../client.js';
import { FerryApiError } from '../errors.js';
import { type CredentialRecord, CredentialStore, credentialKindOf, hasExpired } from './credentials.js';
import { CliError, describeError, ExitCode } from './exit-codes.js';
import type { CliIO } from './io.js';
import { stateDir } from './journal.js';
import { Asker } from './prompt.js';
import { resolveServer } from './server.js';

/** What a command that talks to a server notes about the stored credential it sent, for {@link sessionEnded}. */
export interface CredentialContext {
  /** The server whose stored credential was sent. */
  server: string;
  /** Set when the server refused it (401 `INVALID_TOKEN`). */
  rejected: boolean;
}

/** `--server URL` to add to a hint, unless `ferry login` alone (or with $FERRY_SERVER) reaches that server. */
export function serverHint(server: string, env: NodeJS.ProcessEnv): string {
  let fallback: string | null;
  try {
    fallback = normalizeServerUrl(resolveServer(undefined, env));
  } catch {
    fallback = null;
  }
  return fallback === server ? '' : ` --server ${server}`;
}

/** The stored session (or API token) is no longer accepted: exit 2, "run ferry login". */
export class SessionEndedError extends CliError {
  constructor(
    readonly server: string,
    hint = '',
  ) {
    super(`Your session has ended; run ferry login${hint}`, ExitCode.CREDENTIAL);
  }
}

/**
 * When `error` says the stored credential of a server is over (refused by the server, or past its end), forgets
 * it and returns the error to report (exit 2); otherwise null.
 */
export async function sessionEnded(
  error: unknown,
  credential: CredentialContext | undefined,
  io: CliIO,
): Promise<SessionEndedError | null> {
  let server: string;
  if (error instanceof SessionEndedError) server = error.server;
  else if (credential?.rejected && error instanceof FerryApiError && error.has('INVALID_TOKEN'))
    server = credential.server;
  else return null;
  await new CredentialStore(stateDir(io.env)).remove(server).catch(() => undefined);
  return new SessionEndedError(server, serverHint(server, io.env));
}

/**
 * The credential stored for a server, for `ferry send`/`get`/`whoami`: null when none is stored; a
 * {@link SessionEndedError} when the stored session is past its end. Notes it in `context` so that a refusal by
 * the server is reported as an ended session.
 */
export async function loadCredential(
  io: CliIO,
  server: string,
  context: { credential?: CredentialContext },
  /** Send a given API key only when `server` is this one (`ferry get` of a link to another server). */
  keyServer?: string,
): Promise<CredentialRecord | null> {
  const normalized = normalizeServerUrl(server);
  const apiKey =
    keyServer === undefined || normalizeServerUrl(keyServer) === normalized
      ? apiKeyOf(io.env, normalized)
      : null;
  if (apiKey) return apiKey;
  const record = await new CredentialStore(stateDir(io.env)).get(normalized);
  if (!record) return null;
  context.credential = { server: normalized, rejected: false };
  if (hasExpired(record)) throw new SessionEndedError(normalized);
  return record;
}

/** The environment variable `--api-key KEY` is handed over in (main.ts), and that a script may set itself. */
export const API_KEY_ENV = 'FERRY_API_KEY';

/**
 * The API token given for this call (`--api-key`, $FERRY_API_KEY), which wins over a stored sign-in; null when
 * none is given. It is never stored, and a refusal by the server leaves the stored sign-in alone (exit 2 with
 * the server's answer). Not a `fry_` token: exit 2.
 */
export function apiKeyOf(env: NodeJS.ProcessEnv, server: string): CredentialRecord | null {
  const key = env[API_KEY_ENV]?.trim();
  if (!key) return null;
  if (credentialKindOf(key) !== 'api-token')
    throw new CliError(
      `--api-key / $${API_KEY_ENV} is not a Ferry API token (they start with fry_)`,
      ExitCode.CREDENTIAL,
    );
  return {
    key: '',
    server,
    kind: 'api-token',
    token: key,
    email: '',
    uid: '',
    planType: 'NONE',
    expiresAt: '',
    savedAt: '',
    transient: true,
  };
}

/**
 * Takes `--api-key KEY` (or `--api-key=KEY`) out of a command line, wherever it stands before `--`: every
 * command accepts it. Returns the other arguments and the key (undefined when not given).
 */
export function extractApiKey(args: readonly string[]): { args: string[]; apiKey?: string } {
  const rest: string[] = [];
  let apiKey: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') {
      rest.push(...args.slice(i));
      break;
    }
    if (arg === '--api-key') {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('-'))
        throw new CliError('--api-key needs a value: --api-key fry_…', ExitCode.ERROR);
      apiKey = value;
      i++;
    } else if (arg.startsWith('--api-key=')) apiKey = arg.slice('--api-key='.length);
    else rest.push(arg);
  }
  return apiKey === undefined ? { args: rest } : { args: rest, apiKey };
}

/** Client options that send a loaded credential and note in `context` when the server refuses it. */
export function credentialOptions(
  record: CredentialRecord | null,
  context: { credential?: CredentialContext },
): { credential?: string; onCredentialRejected?: () => void } {
  if (!record) return {};
  if (record.transient) return { credential: record.token };
  return {
    credential: record.token,
    onCredentialRejected: () => {
      if (context.credential) context.credential.rejected = true;
    },
  };
}

/** The account a credential belongs to, asked of the server; a {@link SessionEndedError} when it is anonymous. */
export async function currentAccount(
  client: FerryClient,
  server: string,
): Promise<AuthState & { user: NonNullable<AuthState['user']> }> {
  const state = await client.me();
  if (!state.user) throw new SessionEndedError(server);
  return state as AuthState & { user: NonNullable<AuthState['user']> };
}

/** Options of `ferry login`. */
export interface LoginOptions {
  server: string;
  email?: string;
  password?: string;
  /** `--token T`, or `true` for `--token` without a value (asked for, or read from stdin). */
  token?: string | true;
  retryForMs?: number;
}

/** How long `ferry login` waits for a password (or token) piped into stdin. */
export const PIPED_SECRET_TIMEOUT_MS = 60_000;
/** How often a person may type a wrong second-factor code before `ferry login` gives up. */
export const MAX_TOTP_ATTEMPTS = 3;

class LoginRun {
  private readonly store: CredentialStore;
  private readonly asker: Asker;
  private readonly client: FerryClient;
  private readonly server: string;

  constructor(
    private readonly options: LoginOptions,
    private readonly io: CliIO,
  ) {
    this.server = normalizeServerUrl(options.server);
    this.store = new CredentialStore(stateDir(io.env));
    this.asker = new Asker(io);
    this.client = new FerryClient({
      server: this.server,
      retryForMs: options.retryForMs,
      onRetry: ({ delayMs }) =>
        io.stderr.write(`ferry: ${this.server} unreachable, retrying in ${Math.ceil(delayMs / 1000)} s\n`),
    });
  }

  async run(): Promise<void> {
    try {
      const o = this.options;
      if (o.token !== undefined) {
        if (o.email !== undefined || o.password !== undefined)
          throw new CliError('--token signs in on its own: leave out --email and --password');
        await this.withToken(o.token === true ? await this.secret('Personal API token:', 'token') : o.token);
      } else {
        await this.withPassword();
      }
    } finally {
      this.asker.close();
    }
  }

  /** A secret not given as a flag: asked without echo on a terminal, else one line piped into stdin. */
  private async secret(question: string, what: 'password' | 'token'): Promise<string> {
    const flag = what === 'password' ? '--password' : '--token T';
    const missing = () =>
      new CliError(
        `no ${what} given: pass ${flag}, pipe it into stdin, or run ferry login on a terminal`,
        ExitCode.CREDENTIAL,
      );
    let answer: string | null;
    if (this.asker.interactive) answer = await this.asker.askHidden(question);
    else {
      answer = await this.asker.readPiped({
        timeoutMs: PIPED_SECRET_TIMEOUT_MS,
        onSlow: () => this.io.stderr.write(`ferry: waiting for the ${what} on stdin\n`),
      });
    }
    if (answer === null || answer === '') throw missing();
    return answer;
  }

  private async askEmail(): Promise<string> {
    const missing = () =>
      new CliError(
        'no e-mail address given: pass --email (and --password), or --token T, or run ferry login on a terminal',
        ExitCode.CREDENTIAL,
      );
    if (!this.asker.interactive) throw missing();
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await this.asker.ask('E-mail address:');
      if (answer === null) throw missing();
      const parsed = Email.safeParse(answer);
      if (parsed.success) return parsed.data;
      this.io.stderr.write(`ferry: "${answer}" is not an e-mail address\n`);
    }
    throw missing();
  }

  private async withToken(token: string): Promise<void> {
    const trimmed = token.trim();
    const kind = credentialKindOf(trimmed);
    if (!kind)
      throw new CliError(
        'that is not a Ferry API token (they start with fry_); create one in the web app under Account → Integrations',
        ExitCode.CREDENTIAL,
      );
    const state = await this.check(trimmed, kind);
    await this.save(trimmed, kind, state, '');
  }

  /** The account behind a token, or an exit 2 when the server refuses it. */
  private async check(token: string, kind: 'session' | 'api-token') {
    this.client.credential = token;
    const refused = () =>
      new CliError(
        `the server refused this ${kind === 'api-token' ? 'API token' : 'token'}: it was revoked, has expired or is mistyped`,
        ExitCode.CREDENTIAL,
      );
    let state: AuthState;
    try {
      state = await this.client.me();
    } catch (error) {
      if (error instanceof FerryApiError && error.has('INVALID_TOKEN')) throw refused();
      throw error;
    }
    if (!state.user) throw refused();
    return { ...state, user: state.user };
  }

  private async withPassword(): Promise<void> {
    const email = this.options.email ?? (await this.askEmail());
    const password = this.options.password ?? (await this.secret('Password:', 'password'));
    const id = await this.signIn(email, password);
    const deviceId = await this.store.deviceId();
    let session: Awaited<ReturnType<FerryClient['sessionCookie']>>;
    try {
      session = await this.client.sessionCookie(id.idToken, {
        expiresInMinutes: SESSION_COOKIE_STAY_SIGNED_IN_MINUTES,
        deviceId,
      });
    } catch (error) {
      if (!(error instanceof FerryApiError)) throw error;
      // The password was right but no session is given (spec §8: handled gracefully: stay anonymous, say why).
      if (error.has('MAX_LICENCES_REACHED'))
        throw new CliError(
          `${email} belongs to a team that has no licence left: ask the team's manager for one (you stay signed out)`,
        );
      if (error.has('USER_NOT_FOUND'))
        throw new CliError(`the server has no active account for ${email} (you stay signed out)`);
      throw error;
    }
    const state = await this.check(session.sessionCookie, 'session');
    await this.save(
      session.sessionCookie,
      'session',
      state,
      new Date(session.sessionExpireTimestamp).toISOString(),
    );
  }

  /** `POST /auth/signin`, asking for the second factor on a terminal when the account has one. */
  private async signIn(email: string, password: string) {
    try {
      return await this.client.signIn({ email, password });
    } catch (error) {
      if (!(error instanceof FerryApiError)) throw error;
      if (error.has('EMAIL_NOT_VERIFIED'))
        throw new CliError(
          `${email} is not confirmed yet: check your inbox for the confirmation link (a new one was just sent), then run ferry login again`,
          ExitCode.CREDENTIAL,
        );
      if (!error.has('SECOND_FACTOR_REQUIRED')) throw error;
    }
    if (!this.asker.interactive)
      throw new CliError(
        `${email} signs in with a second factor: run ferry login on a terminal to type the code, or sign in with a personal API token (ferry login --token T)`,
        ExitCode.CREDENTIAL,
      );
    let question = 'Enter the code from your authenticator app (or a recovery code):';
    for (let attempt = 1; ; attempt++) {
      const totp = await this.asker.ask(question);
      if (totp === null || totp === '')
        throw new CliError('no second-factor code given; you stay signed out', ExitCode.CREDENTIAL);
      try {
        return await this.client.signIn({ email, password, totp: totp.replace(/\s/g, '') });
      } catch (error) {
        const wrong =
          error instanceof FerryApiError &&
          (error.has('SECOND_FACTOR_REQUIRED') || error.has('INVALID_CREDENTIALS'));
        if (!wrong) throw error;
        if (attempt >= MAX_TOTP_ATTEMPTS)
          throw new CliError(`wrong code (${attempt} attempts); you stay signed out`, ExitCode.CREDENTIAL);
        question = 'Wrong code. Enter the code from your authenticator app (or a recovery code):';
      }
    }
  }

  /** Stores the credential (replacing the previous one, whose session is ended on the server) and says who. */
  private async save(
    token: string,
    kind: 'session' | 'api-token',
    state: AuthState & { user: NonNullable<AuthState['user']> },
    expiresAt: string,
  ): Promise<void> {
    const previous = await this.store.get(this.server);
    await this.store.put({
      server: this.server,
      kind,
      token,
      email: state.user.email,
      uid: state.user.uid,
      planType: state.planType,
      expiresAt,
    });
    if (previous?.kind === 'session' && previous.token !== token) {
      // Only this installation knew that session: end it rather than leave it valid for up to 14 days.
      const old = new FerryClient({ server: this.server, credential: previous.token, retryForMs: 0 });
      await old.signOut().catch(() => undefined);
    }
    this.io.stderr.write(`Signed in as ${state.user.email} (${state.planType})\n`);
  }
}

/** `ferry login`: signs in and stores the credential for the server (see the command's help). */
export function runLogin(options: LoginOptions, io: CliIO): Promise<void> {
  return new LoginRun(options, io).run();
}

/** `ferry logout`: ends the stored session on the server and forgets it. */
export async function runLogout(options: { server: string; retryForMs?: number }, io: CliIO): Promise<void> {
  const server = normalizeServerUrl(options.server);
  const store = new CredentialStore(stateDir(io.env));
  const record = await store.get(server);
  if (!record) {
    io.stderr.write(`ferry: not signed in to ${server}; nothing to do\n`);
    return;
  }
  if (record.kind === 'api-token') {
    await store.remove(server);
    io.stderr.write(
      `Signed out of ${server}: the API token is forgotten here, but it still exists (and works) until you ` +
        `revoke it in the web app (${server}/account/integrations)\n`,
    );
    return;
  }
  const client = new FerryClient({
    server,
    credential: record.token,
    retryForMs: options.retryForMs,
    onRetry: ({ delayMs }) =>
      io.stderr.write(`ferry: ${server} unreachable, retrying in ${Math.ceil(delayMs / 1000)} s\n`),
  });
  let failure: unknown = null;
  if (!hasExpired(record)) {
    try {
      await client.signOut({ deviceId: await store.deviceId() });
    } catch (error) {
      // Refused: the session had ended already. Anything else: it stays valid on the server.
      if (!(error instanceof FerryApiError && error.has('INVALID_TOKEN'))) failure = error;
    }
  }
  await store.remove(server);
  if (failure) {
    throw new CliError(
      `forgot the session here, but could not end it on the server (${describeError(failure, server)}); it stays ` +
        `valid until ${record.expiresAt || 'it expires'} unless you sign out everywhere in the web app`,
    );
  }
  io.stderr.write(`Signed out of ${server}\n`);
}

/** `ferry whoami`: the account of the stored credential, as the server sees it now. */
export async function runWhoami(
  options: { server: string; json?: boolean; retryForMs?: number },
  io: CliIO,
  context: { credential?: CredentialContext },
): Promise<void> {
  const server = normalizeServerUrl(options.server);
  const record = await loadCredential(io, server, context);
  if (!record)
    throw new CliError(
      `not signed in to ${server}; run ferry login${serverHint(server, io.env)}`,
      ExitCode.ERROR,
    );
  const client = new FerryClient({
    server,
    retryForMs: options.retryForMs,
    ...credentialOptions(record, context),
  });
  const state = await currentAccount(client, server);
  const { email, uid } = state.user;
  if (
    !record.transient &&
    (email !== record.email || state.planType !== record.planType || uid !== record.uid)
  ) {
    // The plan (or address) changed since: keep what is shown elsewhere up to date.
    await new CredentialStore(stateDir(io.env))
      .put({ ...record, email, uid, planType: state.planType })
      .catch(() => undefined);
  }
  if (options.json) io.stdout.write(`${JSON.stringify({ email, planType: state.planType, uid })}\n`);
  else io.stdout.write(`${email} ${state.planType}\n`);
}
