import { DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, type UploaderSettings } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { appHarness } from '../dashboard/dashboard.fixture';
import { RECEIVING_FLAGS, SENDING_FLAGS, TransferPolicyPage } from './transfer-policy-page';

const routes = [{ path: '/dashboard/admin/transfers/settings', element: <TransferPolicyPage /> }];

describe('/dashboard/admin/transfers/settings', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(put: (body: UploaderSettings) => Response, auth = signedInState()) {
    const teamId = auth.managerId ?? 'u_1';
    const api = mockApi({
      'GET /api/auth/me': () => json(auth),
      [`GET /api/user/teams/${teamId}/uploader-settings`]: () =>
        json({
          uploaderSettings: { ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS, sendAllowedExtensions: ['pdf'] },
        }),
      [`PUT /api/user/users/${teamId}/uploader-settings`]: (call) => put(call.body as UploaderSettings),
    });
    view = await render(appHarness(routes, '/dashboard/admin/transfers/settings').ui);
    await settle();
    return { root: view.container, api };
  }

  it('shows every flag of the set, edits switches and extension tags, and saves the whole set', async () => {
    const { root, api } = await open((body) => json(body));
    await until(() => root.querySelector('[data-testid="transfer-policy-form"]') !== null, 'the form');
    for (const flag of [...SENDING_FLAGS, ...RECEIVING_FLAGS]) {
      const input = byTestId<HTMLInputElement>(root, `flag-${flag}`);
      expect(input.checked, flag).toBe(DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS[flag]);
      // Every switch has a visible label (keyboard and screen reader users reach it by name).
      expect(input.closest('label')?.textContent?.length, flag).toBeGreaterThan(0);
    }
    await click(byTestId(root, 'flag-allowS1'));
    await click(byTestId(root, 'flag-requirePassword'));
    await typeInto(byTestId(root, 'send-extensions-input'), '.DOCX');
    await click(root.querySelector('[data-testid="send-extensions"] button[type="button"]')!);
    await click(byTestId(root, 'send-extensions-remove-pdf'));
    await typeInto(byTestId(root, 'receive-extensions-input'), 'zip');
    await click(root.querySelector('[data-testid="receive-extensions"] button[type="button"]')!);
    await click(byTestId(root, 'policy-save'));
    await until(() => root.querySelector('[data-testid="policy-saved"]') !== null, 'saved');
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(put?.body).toEqual({
      ...DEFAULT_TEAM_MEMBER_UPLOADER_SETTINGS,
      allowS1: false,
      requirePassword: true,
      sendAllowedExtensions: ['docx'],
      receiveAllowedExtensions: ['zip'],
    });
  });

  it("a member edits the team's (manager's) settings, and the page says when the server refuses", async () => {
    const auth = signedInState({
      managerId: 'boss',
      authorization: { managerId: 'boss', permissions: ['USER_MANAGER'] },
    });
    const { root } = await open(() => coded(403, 'FORBIDDEN'), auth);
    await until(() => root.querySelector('[data-testid="transfer-policy-form"]') !== null, 'the form');
    await click(byTestId(root, 'flag-allowS2'));
    await click(byTestId(root, 'policy-save'));
    await until(() => root.querySelector('[data-testid="policy-save-error"]') !== null, 'the error');
    expect(byTestId(root, 'policy-save-error').getAttribute('role')).toBe('alert');
  });
});
