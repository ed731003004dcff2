import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi, noContent } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { sessionInfo, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { RequireAuth } from '../auth/require-auth';
import { SecurityPage } from './security-page';
import { groupSecret } from './two-factor-section';

const routes = [
  { element: <RequireAuth />, children: [{ path: '/account/security', element: <SecurityPage /> }] },
];
const SETUP = {
  secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
  otpauthUrl: 'otpauth://totp/Ferry:ada%40example.com?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Ferry',
};
const CODES = Array.from({ length: 10 }, (_, i) => `code-${i}a-b${i}c`);
const OFF = { enabled: false, recoveryCodesLeft: 0 };
const ON = { enabled: true, recoveryCodesLeft: 10 };

const base = {
  'GET /api/auth/me': () => json(signedInState()),
  'GET /api/auth/sessions': () => json([sessionInfo({ current: true })]),
};

const submitForm = (root: ParentNode, testId: string) => click(byTestId(root, `${testId}-submit`));

describe('/account/security: password and two-factor authentication', () => {
  let view: Rendered;
  beforeEach(() => localStorage.clear());
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  async function open() {
    view = await render(authHarness(routes, '/account/security').ui);
    await settle();
    return view.container;
  }

  describe('change password', () => {
    it('checks the fields, changes it and says the other sessions were signed out', async () => {
      const api = mockApi({
        ...base,
        'GET /api/auth/totp': () => json(OFF),
        'POST /api/auth/password/change': () => json({ revoked: 2 }),
      });
      const root = await open();
      await submitForm(root, 'password');
      expect(byTestId(root, 'password-current-error').textContent).toBe('Enter your current password.');
      expect(document.activeElement).toBe(byTestId(root, 'password-current'));
      await typeInto(byTestId(root, 'password-current'), 'old password here');
      await typeInto(byTestId(root, 'password-new'), 'short');
      expect(byTestId(root, 'password-strength').dataset.strength).toBe('too_short');
      await submitForm(root, 'password');
      expect(byTestId(root, 'password-new-error').textContent).toBe('Use at least 10 characters.');
      await typeInto(byTestId(root, 'password-new'), 'old password here');
      await submitForm(root, 'password');
      expect(byTestId(root, 'password-new-error').textContent).toBe(
        'Choose a password different from the current one.',
      );
      expect(api.to('POST /api/auth/password/change')).toHaveLength(0);

      await typeInto(byTestId(root, 'password-new'), 'violet walrus sings opera');
      expect(byTestId(root, 'password-strength').dataset.strength).toBe('strong');
      const before = api.to('GET /api/auth/sessions').length;
      await submitForm(root, 'password');
      await settle();
      expect(api.to('POST /api/auth/password/change')[0]?.body).toEqual({
        currentPassword: 'old password here',
        newPassword: 'violet walrus sings opera',
      });
      expect(root.textContent).toContain('Your password is changed. 2 other sessions were signed out.');
      expect(byTestId<HTMLInputElement>(root, 'password-current').value).toBe('');
      expect(byTestId<HTMLInputElement>(root, 'password-new').value).toBe('');
      // The session list is asked again: the revoked ones are gone from it.
      expect(api.to('GET /api/auth/sessions').length).toBe(before + 1);
    });

    it('says so under the field when the current password is wrong, and tells a 429 with its wait', async () => {
      mockApi({
        ...base,
        'GET /api/auth/totp': () => json(OFF),
        'POST /api/auth/password/change': [
          () => coded(401, 'INVALID_CREDENTIALS'),
          () => coded(429, 'RATE_LIMITED', { 'Retry-After': '30' }),
        ],
      });
      const root = await open();
      await typeInto(byTestId(root, 'password-current'), 'not it at all');
      await typeInto(byTestId(root, 'password-new'), 'violet walrus sings opera');
      await submitForm(root, 'password');
      await settle();
      const current = byTestId(root, 'password-current');
      expect(current.getAttribute('aria-invalid')).toBe('true');
      expect(byTestId(root, 'password-current-error').textContent).toBe('This is not your current password.');
      expect(document.activeElement).toBe(current);
      // Still signed in: a wrong password is not a lost session.
      expect(root.querySelector('[data-testid="page-account-security"]')).not.toBeNull();
      await submitForm(root, 'password');
      await settle();
      expect(byTestId(root, 'password-error').textContent).toContain(
        'Too many attempts. Try again in about 30 seconds.',
      );
    });
  });

  it('tells an account without a password (made through a provider) how to get one', async () => {
    mockApi({
      ...base,
      'GET /api/auth/totp': () => json(OFF),
      'POST /api/auth/password/change': () =>
        json(
          {
            status: 409,
            error: 'Conflict',
            message: 'no password',
            codes: ['CONFLICT'],
            details: { reason: 'NO_PASSWORD' },
          },
          409,
        ),
    });
    const root = await open();
    await typeInto(byTestId(root, 'password-current'), 'anything at all');
    await typeInto(byTestId(root, 'password-new'), 'violet walrus sings opera');
    await submitForm(root, 'password');
    await settle();
    expect(byTestId(root, 'password-error').textContent).toContain('has no password yet');
    expect(byTestId(root, 'password-current').getAttribute('aria-invalid')).not.toBe('true');
  });

  describe('two-factor authentication', () => {
    it('sets it up: QR code and key, a code to confirm, then the recovery codes once', async () => {
      const writeText = vi.fn(async () => undefined);
      Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
      const createObjectURL = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:codes');
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
      const clicked = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
      const api = mockApi({
        ...base,
        'GET /api/auth/totp': [() => json(OFF), () => json(ON)],
        'POST /api/auth/totp/setup': () => json(SETUP),
        'POST /api/auth/totp/enable': [
          () => coded(401, 'SECOND_FACTOR_REQUIRED'),
          () => json({ recoveryCodes: CODES }),
        ],
      });
      const root = await open();
      expect(byTestId(root, 'totp-status').textContent).toBe('Off');
      await click(byTestId(root, 'totp-setup'));
      await settle();
      const qr = byTestId(root, 'totp-qr');
      expect(qr.getAttribute('role')).toBe('img');
      expect(qr.getAttribute('aria-label')).toBe('QR code to add your account to an authenticator app');
      expect(Number(qr.dataset.modules)).toBeGreaterThanOrEqual(21);
      expect(byTestId<HTMLInputElement>(root, 'totp-secret').value).toBe(
        'JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP',
      );
      // The code field has the focus; a code needs 6 digits before anything is sent.
      const code = byTestId<HTMLInputElement>(root, 'totp-enable-input');
      expect(document.activeElement).toBe(code);
      await typeInto(code, '12');
      await submitForm(root, 'totp-enable');
      expect(byTestId(root, 'totp-enable-error').textContent).toBe(
        'Enter the 6 digits of your authenticator app.',
      );
      expect(api.to('POST /api/auth/totp/enable')).toHaveLength(0);
      await typeInto(code, '000 000');
      await submitForm(root, 'totp-enable');
      await settle();
      expect(byTestId(root, 'totp-enable-error').textContent).toBe(
        'This code is not right. Check your authenticator app and try again.',
      );
      await typeInto(code, '123 456');
      await submitForm(root, 'totp-enable');
      await settle();
      expect(api.to('POST /api/auth/totp/enable')[1]?.body).toEqual({ code: '123456' });
      expect(root.textContent).toContain('Two-factor authentication is on.');
      const shown = [...root.querySelectorAll('[data-testid="recovery-code"]')].map((li) => li.textContent);
      expect(shown).toEqual(CODES);
      await click(byTestId(root, 'recovery-codes-copy'));
      await settle();
      expect(writeText).toHaveBeenCalledWith(CODES.join('\n'));
      await click(byTestId(root, 'recovery-codes-download'));
      expect(createObjectURL).toHaveBeenCalledTimes(1);
      const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
      expect(await blob.text()).toBe(`Ferry recovery codes for ada@example.com\n\n${CODES.join('\n')}\n`);
      expect(clicked).toHaveBeenCalledTimes(1);
      expect((clicked.mock.contexts[0] as HTMLAnchorElement).download).toBe('ferry-recovery-codes.txt');
      // Once done, the codes are gone from the page for good; the state says on.
      await click(byTestId(root, 'recovery-codes-done'));
      await settle();
      expect(root.innerHTML).not.toContain(CODES[0]);
      expect(byTestId(root, 'totp-status').textContent).toBe('On');
      expect(byTestId(root, 'totp-codes-left').textContent).toBe('10 recovery codes left.');
    });

    it('makes new recovery codes against a code, and turns off with the password', async () => {
      const api = mockApi({
        ...base,
        'GET /api/auth/totp': [
          () => json({ enabled: true, recoveryCodesLeft: 2 }),
          () => json(ON),
          () => json(OFF),
        ],
        'POST /api/auth/totp/recovery-codes': () => json({ recoveryCodes: CODES }),
        'POST /api/auth/totp/disable': [() => coded(401, 'INVALID_CREDENTIALS'), () => noContent()],
      });
      const root = await open();
      expect(byTestId(root, 'totp-codes-left').textContent).toBe(
        'Only 2 recovery codes left: make new ones.',
      );
      await click(byTestId(root, 'totp-regenerate'));
      expect(document.activeElement).toBe(byTestId(root, 'totp-regenerate-form-input'));
      await typeInto(byTestId(root, 'totp-regenerate-form-input'), '654321');
      await submitForm(root, 'totp-regenerate-form');
      await settle();
      expect(api.to('POST /api/auth/totp/recovery-codes')[0]?.body).toEqual({ code: '654321' });
      expect(root.querySelectorAll('[data-testid="recovery-code"]')).toHaveLength(10);
      await click(byTestId(root, 'recovery-codes-done'));
      await settle();
      expect(byTestId(root, 'totp-codes-left').textContent).toBe('10 recovery codes left.');

      await click(byTestId(root, 'totp-disable'));
      const password = byTestId<HTMLInputElement>(root, 'totp-disable-form-input');
      expect(password.type).toBe('password');
      await submitForm(root, 'totp-disable-form');
      expect(byTestId(root, 'totp-disable-form-error').textContent).toBe('Enter your password.');
      await typeInto(password, 'wrong one');
      await submitForm(root, 'totp-disable-form');
      await settle();
      expect(byTestId(root, 'totp-disable-form-error').textContent).toBe('The password is not right.');
      await typeInto(password, 'the right one');
      await submitForm(root, 'totp-disable-form');
      await settle();
      expect(api.to('POST /api/auth/totp/disable')[1]?.body).toEqual({ password: 'the right one' });
      expect(root.textContent).toContain('Two-factor authentication is off.');
      expect(byTestId(root, 'totp-status').textContent).toBe('Off');
      // Back from the step, the focus is on the section, not lost at the top of the page.
      expect(document.activeElement?.textContent).toBe('Two-factor authentication');
    });

    it('can be cancelled, and shows loading and error states with a retry', async () => {
      mockApi({
        ...base,
        'GET /api/auth/totp': [() => coded(503, 'UNAVAILABLE'), () => json(ON)],
      });
      const root = await open();
      expect(byTestId(root, 'totp-error').textContent).toContain('briefly unavailable');
      await click(byTestId(root, 'totp-error').querySelector('button') as HTMLElement);
      await settle();
      await click(byTestId(root, 'totp-disable'));
      await click(byTestId(root, 'totp-disable-form-cancel'));
      expect(root.querySelector('[data-testid="totp-disable-form"]')).toBeNull();
      expect(byTestId(root, 'totp-status').textContent).toBe('On');
      // The sessions list is still there.
      expect(root.querySelectorAll('[data-testid="session-row"]')).toHaveLength(1);
    });
  });

  it('groups the set-up key by four', () => {
    expect(groupSecret('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(groupSecret('AB CD')).toBe('ABCD');
  });
});
