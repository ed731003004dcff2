import { DEFAULT_UPLOADER_SETTINGS, EMPTY_TEMPLATE, type UserProfile } from '@ferry/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useUserState } from '../../hooks/use-user-state';
import { coded, type Handler, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness, limitsAnswer } from './dashboard.fixture';
import { SettingsPage } from './settings-page';

/** What the uploader reads (hooks/use-user-state.ts), shown beside the page. */
function UploaderProbe() {
  const { uploaderTemplate } = useUserState();
  return <p data-testid="uploader-template-name">{uploaderTemplate.name ?? ''}</p>;
}

const routes = [
  {
    path: '/dashboard/settings',
    element: (
      <>
        <SettingsPage />
        <UploaderProbe />
      </>
    ),
  },
];

type Api = ReturnType<typeof mockApi>;

describe('/dashboard/settings (spec §3, §4)', () => {
  let view: Rendered;
  let api: Api;
  let saved: UserProfile;
  beforeEach(() => {
    saved = userProfile();
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  /** PATCH answers like the server: the body merged into the stored profile. */
  const patch: Handler = (call) => {
    const body = call.body as Partial<UserProfile>;
    saved = {
      ...saved,
      notificationSettings: body.notificationSettings ?? saved.notificationSettings,
      uploaderTemplate: { ...saved.uploaderTemplate, ...body.uploaderTemplate },
      receiverTemplate: { ...saved.receiverTemplate, ...body.receiverTemplate },
    };
    return json(saved);
  };

  async function open(routesExtra: Record<string, Handler | Handler[]> = {}, auth = signedInState()) {
    api = mockApi({
      'GET /api/auth/me': () => json(auth),
      'GET /api/user/users/u_1': () => json(saved),
      'PATCH /api/user/users/u_1': patch,
      ...routesExtra,
    });
    view = await render(appHarness(routes, '/dashboard/settings').ui);
    await settle();
    return view.container;
  }

  const input = (root: HTMLElement, id: string) => byTestId<HTMLInputElement>(root, id);

  it('shows the saved notification settings and templates', async () => {
    saved = userProfile({
      notificationSettings: {
        transfer: {
          summary: false,
          expiryReminder: true,
          downloadConfirmation: true,
          downloadConfirmationS2: true,
        },
        receive: { expiryReminder: false, upload: true },
      },
      uploaderTemplate: {
        ...EMPTY_TEMPLATE,
        name: 'Weekly',
        recipients: ['a@example.com'],
        s2AsDefault: true,
      },
      receiverTemplate: { ...EMPTY_TEMPLATE, message: 'Send me the scans', defaultAvailability: 3 },
    });
    const root = await open();
    expect(input(root, 'notify-transfer-summary').checked).toBe(false);
    expect(input(root, 'notify-transfer-downloadConfirmationS2').checked).toBe(true);
    expect(input(root, 'notify-receive-expiryReminder').checked).toBe(false);
    expect(input(root, 'notify-receive-upload').checked).toBe(true);
    expect(input(root, 'uploader-name').value).toBe('Weekly');
    expect(input(root, 'uploader-recipients').value).toBe('a@example.com');
    expect(input(root, 'uploader-s2').checked).toBe(true);
    expect(byTestId<HTMLTextAreaElement>(root, 'receiver-message').value).toBe('Send me the scans');
    expect(input(root, 'receiver-days').value).toBe('3');
  });

  it('saves everything with PATCH, and the uploader’s state has the new template', async () => {
    const root = await open();
    expect(byTestId(root, 'uploader-template-name').textContent).toBe('');
    await click(input(root, 'notify-transfer-summary'));
    await click(input(root, 'notify-receive-upload'));
    await typeInto(input(root, 'uploader-name'), 'Quarterly report');
    await typeInto(byTestId(root, 'uploader-recipients'), 'a@example.com, b@example.com');
    await typeInto(input(root, 'uploader-password'), 'secret');
    await typeInto(input(root, 'uploader-days'), '5');
    await click(input(root, 'uploader-s2'));
    await typeInto(input(root, 'receiver-name'), 'Scans');
    const gets = api.to('GET /api/user/users/u_1').length;
    await click(byTestId(root, 'settings-save'));
    await settle();

    const [call] = api.to('PATCH /api/user/users/u_1');
    expect(call?.body).toEqual({
      notificationSettings: {
        transfer: {
          summary: false,
          expiryReminder: true,
          downloadConfirmation: true,
          downloadConfirmationS2: false,
        },
        receive: { expiryReminder: true, upload: false },
      },
      uploaderTemplate: {
        name: 'Quarterly report',
        message: null,
        recipients: ['a@example.com', 'b@example.com'],
        password: 'secret',
        defaultAvailability: 5,
        s2AsDefault: true,
      },
      receiverTemplate: { ...EMPTY_TEMPLATE, name: 'Scans' },
    });
    expect(document.body.textContent).toContain('Your settings are saved.');
    // The queries the uploader reads are refreshed.
    expect(api.to('GET /api/user/users/u_1').length).toBeGreaterThan(gets);
    expect(byTestId(root, 'uploader-template-name').textContent).toBe('Quarterly report');
  });

  it('refuses to save what is not valid, says where, and focuses the first field to fix', async () => {
    const root = await open();
    await typeInto(byTestId(root, 'uploader-recipients'), 'a@example.com, not-an-address');
    await typeInto(input(root, 'receiver-days'), '8');
    await click(byTestId(root, 'settings-save'));
    await settle();
    expect(api.to('PATCH /api/user/users/u_1')).toHaveLength(0);
    expect(byTestId(root, 'settings-invalid').textContent).toContain('Some fields need fixing');
    expect(byTestId(root, 'uploader-recipients-error').textContent).toBe(
      'Not an e-mail address: not-an-address',
    );
    // Free plan: 7 days at most (spec §9).
    expect(byTestId(root, 'receiver-defaultAvailability-error').textContent).toBe(
      'Your plan keeps files for 7 days at most.',
    );
    expect(document.activeElement).toBe(byTestId(root, 'uploader-recipients'));
    expect(byTestId(root, 'uploader-recipients').getAttribute('aria-invalid')).toBe('true');

    await typeInto(byTestId(root, 'uploader-recipients'), 'a@example.com');
    await typeInto(input(root, 'receiver-days'), '7');
    expect(root.querySelector('[data-testid="settings-invalid"]')).toBeNull();
    await click(byTestId(root, 'settings-save'));
    await settle();
    expect(api.to('PATCH /api/user/users/u_1')).toHaveLength(1);
  });

  it('caps a saved default availability at the free plan’s validity, and says so', async () => {
    saved = userProfile({ uploaderTemplate: { ...EMPTY_TEMPLATE, defaultAvailability: 30 } });
    const root = await open();
    expect(input(root, 'uploader-days').value).toBe('7');
    expect(input(root, 'uploader-days').max).toBe('7');
    expect(byTestId(root, 'uploader-days-capped').textContent).toContain('it is now 7 days');
    expect(root.querySelector('[data-testid="receiver-days-capped"]')).toBeNull();
    await click(byTestId(root, 'settings-save'));
    await settle();
    const body = api.to('PATCH /api/user/users/u_1')[0]?.body as {
      uploaderTemplate: { defaultAvailability: number };
    };
    expect(body.uploaderTemplate.defaultAvailability).toBe(7);
  });

  it('allows a paying user up to their plan’s validity (GET /transfer/limits)', async () => {
    saved = userProfile({ uploaderTemplate: { ...EMPTY_TEMPLATE, defaultAvailability: 30 } });
    const root = await open(
      { 'GET /api/transfer/limits/u_1': () => json(limitsAnswer({ fileValidityInDays: 60 })) },
      signedInState({ planType: 'PREMIUM', payingUser: true }),
    );
    await settle();
    expect(input(root, 'uploader-days').value).toBe('30');
    expect(input(root, 'uploader-days').max).toBe('60');
    await typeInto(input(root, 'uploader-days'), '61');
    await click(byTestId(root, 'settings-save'));
    expect(byTestId(root, 'uploader-defaultAvailability-error').textContent).toBe(
      'Your plan keeps files for 60 days at most.',
    );
    await typeInto(input(root, 'uploader-days'), '60');
    await click(byTestId(root, 'settings-save'));
    await settle();
    expect(api.to('PATCH /api/user/users/u_1')).toHaveLength(1);
  });

  it('shows a team member their manager’s uploader template read-only, and never sends it', async () => {
    const manager = userProfile({
      uid: 'u_boss',
      email: 'boss@example.com',
      uploaderTemplate: { ...EMPTY_TEMPLATE, name: 'Team template', password: 'team-secret' },
      uploaderSettings: { ...DEFAULT_UPLOADER_SETTINGS, allowS1: false, requirePassword: true },
    });
    const root = await open(
      {
        'GET /api/user/users/u_boss': () => json(manager),
        'GET /api/transfer/limits/u_boss': () => json(limitsAnswer({ planType: 'TEAM' })),
      },
      signedInState({
        planType: 'TEAM',
        payingUser: true,
        managerId: 'u_boss',
        authorization: { managerId: 'u_boss', permissions: [] },
      }),
    );
    await settle();
    const managed = byTestId(root, 'template-uploader-managed');
    expect(byTestId(root, 'managed-explanation').textContent).toContain('manager');
    expect(managed.textContent).toContain('Team template');
    expect(managed.textContent).toContain('A password is set');
    expect(managed.textContent).not.toContain('team-secret');
    expect(managed.textContent).toContain('By link');
    expect(managed.querySelector('input, textarea')).toBeNull();
    expect(root.querySelector('[data-testid="uploader-name"]')).toBeNull();
    await typeInto(input(root, 'receiver-name'), 'Mine');
    await click(byTestId(root, 'settings-save'));
    await settle();
    const body = api.to('PATCH /api/user/users/u_1')[0]?.body as Record<string, unknown>;
    expect(body).not.toHaveProperty('uploaderTemplate');
    expect(body.receiverTemplate).toMatchObject({ name: 'Mine' });
  });

  it('says when the settings cannot be loaded, and tries again', async () => {
    const root = await open({
      'GET /api/user/users/u_1': [() => coded(500, 'INTERNAL'), () => json(saved)],
    });
    expect(byTestId(root, 'settings-load-error').textContent).toContain('Try again');
    await click(byTestId(root, 'settings-load-error').querySelector('button') as HTMLElement);
    await until(() => root.querySelector('[data-testid="settings-form"]') !== null, 'the form');
  });

  it('shows that it is loading', async () => {
    let answer: (response: Response) => void = () => {};
    const root = await open({
      'GET /api/user/users/u_1': () => new Promise<Response>((resolve) => (answer = resolve)),
    });
    expect(byTestId(root, 'settings-loading').getAttribute('aria-busy')).toBe('true');
    answer(json(saved));
    await until(() => root.querySelector('[data-testid="settings-form"]') !== null, 'the form');
  });

  it('keeps what was typed and says why when saving fails', async () => {
    const root = await open({ 'PATCH /api/user/users/u_1': () => coded(429, 'RATE_LIMITED') });
    await typeInto(input(root, 'uploader-name'), 'Kept');
    await click(byTestId(root, 'settings-save'));
    await settle();
    expect(byTestId(root, 'settings-error').textContent).not.toBe('');
    expect(input(root, 'uploader-name').value).toBe('Kept');
  });
});
