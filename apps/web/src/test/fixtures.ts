import type { ApiTokenInfo, AuthState, SessionInfo, TransferSummary } from '@ferry/core';

/** A finished S2 transfer as upload-state and complete answer it; tests override what they look at. */
export function transferSummary(overrides: Partial<TransferSummary> = {}): TransferSummary {
  return {
    transferId: 'AbCdEfGhIjKlMnOp',
    type: 'S2',
    status: 'ENABLED',
    name: null,
    link: '/dl/AbCdEfGhIjKlMnOp',
    customLink: null,
    availableFrom: null,
    expiresAt: '2030-01-01T00:00:00.000Z',
    totalSize: 0,
    files: [],
    senderEmail: null,
    senderVerification: 'not_needed',
    sentAt: null,
    recipients: [],
    notifications: {
      downloadConfirmation: false,
      expiryReminder: false,
      summary: false,
      forceEmailWhenDownloadS2: false,
    },
    ...overrides,
  };
}

/** A signed-in user's GET /api/auth/me answer. */
export function signedInState(overrides: Partial<AuthState> = {}): AuthState {
  return {
    user: { uid: 'u_1', email: 'ada@example.com', displayName: 'Ada', locale: null },
    planType: 'NONE',
    payingUser: false,
    managerId: null,
    lastLogin: '2030-01-01T10:00:00.000Z',
    currentSignInProvider: 'password',
    authorization: { managerId: null, permissions: [] },
    sessionExpireTimestamp: Date.now() + 14 * 24 * 3600_000,
    chosenPlan: null,
    ...overrides,
  };
}

export function anonymousState(): AuthState {
  return {
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
}

export function sessionInfo(overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id: 's_1',
    deviceId: '0b5c1e9e-3f0c-4d5e-9a61-2b7f3c4d5e6f',
    userAgent:
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    ip: '203.0.113.7',
    createdAt: '2030-01-01T10:00:00.000Z',
    lastUsedAt: '2030-01-02T10:00:00.000Z',
    expiresAt: '2030-01-15T10:00:00.000Z',
    current: false,
    ...overrides,
  };
}

export function apiToken(overrides: Partial<ApiTokenInfo> = {}): ApiTokenInfo {
  return {
    id: 't_1',
    name: 'Laptop CLI',
    prefix: 'fry_ab12',
    scopes: ['transfers:read', 'transfers:write', 'receive'],
    createdAt: '2030-01-01T10:00:00.000Z',
    lastUsedAt: null,
    ...overrides,
  };
}

/** An unsigned JWT-shaped token carrying `claims` (the web app only reads claims, never verifies). */
export function fakeJwt(claims: Record<string, unknown>): string {
  const part = (value: unknown) =>
    btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(claims)}.c2lnbmF0dXJl`;
}
