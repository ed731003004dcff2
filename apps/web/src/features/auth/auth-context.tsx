import type { AuthState } from '@ferry/core';
import { useQueryClient } from '@tanstack/react-query';
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api';
import * as authApi from '../../lib/auth-api';
import { deviceId } from '../../lib/device-id';
import { readJson, writeJson } from '../../lib/storage';
import { useToast } from '../toasts/toast-context';
import { consumeHandoff, type Handoff, handoffUrl, isTokenShaped, rememberAuthDomain } from './handoff';
import { expiryDecision, scheduleExpiryChecks } from './session-timing';

/** Spec §3: the anonymous state has no user, plan NONE and no permissions. */
export const ANONYMOUS: AuthState = {
  user: null,
  planType: 'NONE',
  payingUser: false,
  managerId: null,
  lastLogin: null,
  currentSignInProvider: null,
  authorization: { managerId: null, permissions: [] },
  sessionExpireTimestamp: null,
  chosenPlan: null,
};

/** The session-cookie refusals that are handled gracefully (spec §8): the visitor stays anonymous. */
export const SESSION_REFUSALS = ['USER_NOT_FOUND', 'MAX_LICENCES_REACHED'] as const;
export type SessionRefusal = (typeof SESSION_REFUSALS)[number];

export type SessionOutcome = { ok: true; state: AuthState } | { ok: false; refused: SessionRefusal };

/** The session cookie was set by the server but the browser did not keep it (cookies blocked). */
export class CookieRefusedError extends Error {
  constructor() {
    super('the browser did not keep the session cookie');
    this.name = 'CookieRefusedError';
  }
}

export interface SignInInput {
  email: string;
  password: string;
  totp?: string;
  staySignedIn: boolean;
}

export interface StartSessionOptions {
  /** Sent as `currentDomain` (the sign-in hand-off of spec §4). */
  currentDomain?: string;
}

/** A hand-off token that is not even token-shaped (spec §5: "unexpected token format"). */
export class UnexpectedTokenFormatError extends Error {
  constructor() {
    super('unexpected token format');
    this.name = 'UnexpectedTokenFormatError';
  }
}

/** Why the visitor became anonymous: they signed out, or the session ran out (expiry check). */
export type SessionEnd = 'user' | 'expired';

export interface AuthContextValue {
  /** `loading` until GET /api/auth/me answered once; `error` when it could not be asked. */
  status: 'loading' | 'ready' | 'error';
  state: AuthState;
  user: AuthState['user'];
  loadError: unknown;
  endedBy: SessionEnd | null;
  /** Asks GET /api/auth/me again (a fresh session: the plan after a change); resolves with the state applied. */
  reload(): Promise<AuthState | null>;
  /** POST /auth/signin, then the session cookie; errors of the sign-in call are thrown (ApiError). */
  signIn(input: SignInInput): Promise<SessionOutcome>;
  /** Trades an id token (sign-in, verified e-mail, new password) for a session and loads the state. */
  startSession(
    idToken: string,
    staySignedIn: boolean,
    options?: StartSessionOptions,
  ): Promise<SessionOutcome>;
  /** Signs out this session, or every session of the account; resolves with how many were revoked. */
  signOut(options?: { everywhere?: boolean }): Promise<number>;
  /** The "sign back in" prompt of spec §4 (a session ending within 12 h), or null. */
  signBackIn: { expiresAt: number } | null;
  dismissSignBackIn(): void;
  /** Sign back in with the password, staying on the page; the old session is revoked. */
  renewSession(input: Omit<SignInInput, 'email'>): Promise<SessionOutcome>;
}

function noProvider(): never {
  throw new Error('this needs <AuthProvider>');
}

/** Outside an AuthProvider (isolated page tests) the visitor is simply anonymous. */
const anonymousValue: AuthContextValue = {
  status: 'ready',
  state: ANONYMOUS,
  user: null,
  loadError: null,
  endedBy: null,
  reload: async () => ANONYMOUS,
  signIn: noProvider,
  startSession: noProvider,
  signOut: noProvider,
  signBackIn: null,
  dismissSignBackIn: () => undefined,
  renewSession: noProvider,
};

const AuthContext = createContext<AuthContextValue>(anonymousValue);

export function useAuth(): AuthContextValue {
  return useContext(AuthContext);
}

/** The last "Stay signed in" choice (not a secret): the default of the sign-back-in prompt. */
export const STAY_SIGNED_IN_KEY = 'ferry.staySignedIn';

export function lastStaySignedIn(): boolean {
  return readJson(STAY_SIGNED_IN_KEY) === true;
}

function refusalOf(error: unknown): SessionRefusal | null {
  if (!(error instanceof ApiError)) return null;
  return SESSION_REFUSALS.find((code) => error.hasCode(code)) ?? null;
}

/** Query keys of the signed-in user's data (sessions, API tokens), dropped at sign-out. */
export const ACCOUNT_QUERY_KEY = 'account';

/**
 * Holds the spec §3 auth state, loaded from GET /api/auth/me at start, and runs the spec §4 expiry checks
 * (first after 10 s, then every 2 min) while someone is signed in.
 */
export function AuthProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const toast = useToast();
  const queryClient = useQueryClient();
  const [state, setState] = useState<AuthState>(ANONYMOUS);
  const [status, setStatus] = useState<AuthContextValue['status']>('loading');
  const [loadError, setLoadError] = useState<unknown>(null);
  const [endedBy, setEndedBy] = useState<SessionEnd | null>(null);
  const [signBackIn, setSignBackIn] = useState<{ expiresAt: number } | null>(null);
  const stateRef = useRef(state);
  stateRef.current = state;
  /** The session end the visitor said "not now" to: not asked again for that session. */
  const dismissed = useRef<number | null>(null);

  const apply = useCallback(
    (next: AuthState) => {
      const before = stateRef.current.user?.uid ?? null;
      stateRef.current = next;
      setState(next);
      if (before !== (next.user?.uid ?? null)) {
        queryClient.removeQueries({ queryKey: [ACCOUNT_QUERY_KEY] });
        setSignBackIn(null);
        dismissed.current = null;
      }
    },
    [queryClient],
  );

  const reload = useCallback(async (): Promise<AuthState | null> => {
    try {
      const next = await authApi.getAuthState();
      apply(next);
      setLoadError(null);
      setStatus('ready');
      return next;
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        apply(ANONYMOUS);
        setLoadError(null);
        setStatus('ready');
        return ANONYMOUS;
      }
      setLoadError(error);
      setStatus((now) => (now === 'ready' ? now : 'error'));
      return null;
    }
  }, [apply]);

  const startSession = useCallback(
    async (
      idToken: string,
      staySignedIn: boolean,
      options: StartSessionOptions = {},
    ): Promise<SessionOutcome> => {
      writeJson(STAY_SIGNED_IN_KEY, staySignedIn);
      try {
        const session = await authApi.createSessionCookie(idToken, {
          expiresInMinutes: authApi.sessionMinutes(staySignedIn),
          deviceId: deviceId(),
          ...options,
        });
        // Spec §4: the account or team is served at another host; go there with the one-time custom token.
        if (session.redirectOrigin && session.customToken) {
          const next = new URLSearchParams(window.location.search).get('next');
          window.location.assign(handoffUrl(session.redirectOrigin, session.customToken, staySignedIn, next));
          // The page is left: nothing here resolves any more.
          return new Promise<SessionOutcome>(() => undefined);
        }
      } catch (error) {
        const refused = refusalOf(error);
        if (!refused) throw error;
        apply(ANONYMOUS);
        return { ok: false, refused };
      }
      const next = await authApi.getAuthState();
      if (!next.user) throw new CookieRefusedError();
      apply(next);
      setEndedBy(null);
      setStatus('ready');
      setLoadError(null);
      return { ok: true, state: next };
    },
    [apply],
  );

  /**
   * Spec §4 hand-off. A custom token is traded for a session (14 days and the auth-redirect domain cookie with
   * staySignedIn); if that fails the visitor is signed out to anonymous. A session token handed over is set as
   * this site's cookie; if it does not check out, whatever session this browser had stays.
   */
  const handOff = useCallback(
    async (handoff: Handoff): Promise<void> => {
      const { hostname } = window.location;
      if (handoff.kind === 'sessionCookie') {
        try {
          if (!isTokenShaped(handoff.token)) throw new UnexpectedTokenFormatError();
          await authApi.setSession(handoff.token);
        } catch {
          toast.show(t('auth:handoff_session_failed'), 'error');
        }
        await reload();
        return;
      }
      try {
        if (!isTokenShaped(handoff.token)) throw new UnexpectedTokenFormatError();
        if (handoff.authRedir) {
          // Sent here by a sign-in on another host: the one-time token opens a session on this one.
          writeJson(STAY_SIGNED_IN_KEY, handoff.staySignedIn);
          await authApi.redeemCustomToken(handoff.token, deviceId());
          const next = await authApi.getAuthState();
          if (!next.user) throw new CookieRefusedError();
          apply(next);
          setEndedBy(null);
          setLoadError(null);
          setStatus('ready');
          return;
        }
        const outcome = await startSession(handoff.token, handoff.staySignedIn, { currentDomain: hostname });
        if (outcome.ok) {
          if (handoff.staySignedIn) rememberAuthDomain(hostname);
          return;
        }
        throw new Error(outcome.refused);
      } catch {
        await authApi.signOut({ deviceId: deviceId() }).catch(() => undefined);
        apply(ANONYMOUS);
        setLoadError(null);
        setStatus('ready');
        toast.show(t('auth:handoff_failed'), 'error');
      }
    },
    [apply, reload, startSession, t, toast],
  );

  // The first thing the app does: a hand-off when the address brings one, else ask who is signed in. Once
  // per provider (StrictMode runs effects twice; a second GET /me could undo the hand-off's session).
  const started = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once, at start
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const handoff = consumeHandoff();
    void (handoff ? handOff(handoff) : reload());
  }, []);

  const signIn = useCallback(
    async ({ email, password, totp, staySignedIn }: SignInInput) => {
      const { idToken } = await authApi.signIn({ email, password, ...(totp ? { totp } : {}) });
      // currentDomain: the server tells whether this user belongs on another host (spec §4 hand-off).
      return startSession(idToken, staySignedIn, { currentDomain: window.location.hostname });
    },
    [startSession],
  );

  const endSession = useCallback(
    async (reason: SessionEnd, everywhere = false): Promise<number> => {
      let revoked = 0;
      try {
        revoked = await authApi.signOut({ deviceId: deviceId(), revokeAllSessions: everywhere });
      } catch (error) {
        // 401: the session was already gone. An expired session is dropped whatever the server says.
        const gone = error instanceof ApiError && error.status === 401;
        if (!gone && reason === 'user') throw error;
      }
      setEndedBy(reason);
      apply(ANONYMOUS);
      return revoked;
    },
    [apply],
  );

  const signOut = useCallback(
    (options: { everywhere?: boolean } = {}) => endSession('user', options.everywhere === true),
    [endSession],
  );

  const renewSession = useCallback(
    async ({ password, totp, staySignedIn }: Omit<SignInInput, 'email'>): Promise<SessionOutcome> => {
      const email = stateRef.current.user?.email;
      if (!email) throw new Error('nobody is signed in');
      const old = await authApi
        .listSessions()
        .then((list) => list.find((s) => s.current)?.id ?? null)
        .catch(() => null);
      const outcome = await signIn({ email, password, totp, staySignedIn });
      if (outcome.ok) {
        setSignBackIn(null);
        // The new session replaces the old one on this device.
        if (old) await authApi.revokeSession(old).catch(() => undefined);
      }
      return outcome;
    },
    [signIn],
  );

  const dismissSignBackIn = useCallback(() => {
    dismissed.current = stateRef.current.sessionExpireTimestamp;
    setSignBackIn(null);
  }, []);

  // Spec §4: expiry check first after 10 s, then every 2 min, for as long as this user is signed in.
  const uid = state.user?.uid ?? null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: the schedule restarts only for a new user
  useEffect(() => {
    if (!uid) return;
    return scheduleExpiryChecks(() => {
      const expiresAt = stateRef.current.sessionExpireTimestamp;
      const decision = expiryDecision(expiresAt, Date.now());
      if (decision === 'remove') {
        void endSession('expired').then(() => toast.show(t('auth:session_ended'), 'info'));
        return 'stop';
      }
      if (decision === 'sign_back_in' && expiresAt !== null && dismissed.current !== expiresAt) {
        setSignBackIn({ expiresAt });
      } else if (decision === 'keep') {
        setSignBackIn(null);
      }
      return 'continue';
    });
  }, [uid]);

  const value = useMemo<AuthContextValue>(
    () => ({
      status,
      state,
      user: state.user,
      loadError,
      endedBy,
      reload,
      signIn,
      startSession,
      signOut,
      signBackIn,
      dismissSignBackIn,
      renewSession,
    }),
    [
      status,
      state,
      loadError,
      endedBy,
      reload,
      signIn,
      startSession,
      signOut,
      signBackIn,
      dismissSignBackIn,
      renewSession,
    ],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
