import type { TeamAuthPolicy } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { appHarness } from '../dashboard/dashboard.fixture';
import { AuthenticationPolicyPage, parseDomains } from './authentication-policy-page';

const routes = [{ path: '/dashboard/admin/authentication', element: <AuthenticationPolicyPage /> }];
const POLICY: TeamAuthPolicy = {
  allowedEmailDomains: ['example.com'],
  requireSecondFactor: false,
  signInMethods: null,
};

describe('parseDomains', () => {
  it('takes one domain per line or comma, lower case, without @, once each', () => {
    expect(parseDomains(' Example.com\n@eu.example.com, example.com\n\n')).toEqual([
      'example.com',
      'eu.example.com',
    ]);
  });
});

describe('/dashboard/admin/authentication', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(put: (body: TeamAuthPolicy) => Response) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/team/u_1/authentication-policy': () =>
        json({ policy: POLICY, availableMethods: ['password', 'google'] }),
      'PUT /api/team/u_1/authentication-policy': (call) => put(call.body as TeamAuthPolicy),
    });
    view = await render(appHarness(routes, '/dashboard/admin/authentication').ui);
    await settle();
    await until(() => view.container.querySelector('[data-testid="auth-policy-form"]') !== null, 'the form');
    return { root: view.container, api };
  }

  it('edits the domains, the required second factor and the methods, and saves them', async () => {
    const { root, api } = await open((body) =>
      json({ policy: body, availableMethods: ['password', 'google'] }),
    );
    expect(byTestId<HTMLTextAreaElement>(root, 'auth-domains').value).toBe('example.com');
    expect(byTestId<HTMLInputElement>(root, 'auth-method-password').checked).toBe(true);
    expect(byTestId<HTMLInputElement>(root, 'auth-method-google').checked).toBe(true);
    await typeInto(byTestId(root, 'auth-domains'), 'example.com\nPartner.org');
    await click(byTestId(root, 'auth-second-factor'));
    await click(byTestId(root, 'auth-method-google'));
    await click(byTestId(root, 'auth-policy-save'));
    await until(() => root.querySelector('[data-testid="auth-policy-saved"]') !== null, 'saved');
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({
      allowedEmailDomains: ['example.com', 'partner.org'],
      requireSecondFactor: true,
      signInMethods: ['password'],
    });
  });

  it('refuses to save without any method, and shows a refusal of the server', async () => {
    const { root } = await open(() => coded(403, 'FORBIDDEN'));
    await click(byTestId(root, 'auth-method-google'));
    await click(byTestId(root, 'auth-method-password'));
    expect(byTestId(root, 'auth-methods-empty').getAttribute('role')).toBe('alert');
    expect(byTestId<HTMLButtonElement>(root, 'auth-policy-save').disabled).toBe(true);
    await click(byTestId(root, 'auth-method-password'));
    await click(byTestId(root, 'auth-policy-save'));
    await until(() => root.querySelector('[data-testid="auth-policy-save-error"]') !== null, 'the error');
  });
});
