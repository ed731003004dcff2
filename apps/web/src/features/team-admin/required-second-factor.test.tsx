import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { authHarness, locationOf } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { SignInPage } from '../auth/signin-page';

const routes = [
  { path: '/signin', element: <SignInPage /> },
  { path: '/dashboard', element: <p data-testid="dashboard">dashboard</p> },
];
const SETUP = {
  secret: 'JBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/Ferry:ada%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Ferry',
};

describe('sign-in of a member whose team requires a second factor', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('sets the factor up on the spot, shows the recovery codes, then signs in', async () => {
    const api = mockApi({
      'GET /api/auth/me': [() => json(anonymousState()), () => json(signedInState())],
      'POST /api/auth/signin': () =>
        json(
          {
            status: 403,
            error: 'Forbidden',
            message: 'set up',
            codes: ['SECOND_FACTOR_SETUP_REQUIRED'],
            details: { setupToken: 'setup.tok.en', expiresInSeconds: 900 },
          },
          403,
        ),
      'POST /api/auth/second-factor-setup/start': () => json(SETUP),
      'POST /api/auth/second-factor-setup/finish': [
        () => coded(401, 'SECOND_FACTOR_REQUIRED'),
        () =>
          json({
            recoveryCodes: ['aaaa-bbbb', 'cccc-dddd'],
            idToken: 'id.tok.en',
            expiresAt: '2030-01-01T00:00:00.000Z',
          }),
      ],
      'GET /api/auth/auth/session-cookie': () => json({ sessionCookie: 'a.b.c', sessionExpireTimestamp: 1 }),
    });
    view = await render(authHarness(routes, '/signin?next=%2Fdashboard').ui);
    await settle();
    const root = view.container;
    await typeInto(byTestId(root, 'signin-email'), 'ada@example.com');
    await typeInto(byTestId(root, 'signin-password'), 'correct password');
    await click(byTestId(root, 'signin-submit'));
    await settle();
    expect(byTestId(root, 'required-2fa')).toBeTruthy();
    expect(byTestId(root, 'required-2fa-secret').textContent).toBe(SETUP.secret);
    expect(api.to('POST /api/auth/second-factor-setup/start')[0]?.body).toEqual({
      setupToken: 'setup.tok.en',
    });

    await typeInto(byTestId(root, 'required-2fa-code'), '12');
    await click(byTestId(root, 'required-2fa-submit'));
    expect(byTestId(root, 'required-2fa-error').getAttribute('role')).toBe('alert');
    expect(api.to('POST /api/auth/second-factor-setup/finish')).toHaveLength(0);

    await typeInto(byTestId(root, 'required-2fa-code'), '111 111');
    await click(byTestId(root, 'required-2fa-submit'));
    await settle();
    expect(byTestId(root, 'required-2fa-error')).toBeTruthy();
    await typeInto(byTestId(root, 'required-2fa-code'), '123456');
    await click(byTestId(root, 'required-2fa-submit'));
    await settle();
    expect(api.to('POST /api/auth/second-factor-setup/finish').map((c) => c.body)).toEqual([
      { setupToken: 'setup.tok.en', code: '111111' },
      { setupToken: 'setup.tok.en', code: '123456' },
    ]);
    expect(root.querySelectorAll('[data-testid="recovery-code"]')).toHaveLength(2);
    await click(byTestId(root, 'recovery-codes-done'));
    await settle();
    expect(api.to('GET /api/auth/auth/session-cookie')).toHaveLength(1);
    expect(locationOf(root)).toBe('/dashboard');
  });
});
