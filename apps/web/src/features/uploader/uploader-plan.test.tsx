import {
  DEFAULT_NOTIFICATION_SETTINGS,
  DEFAULT_UPLOADER_SETTINGS,
  EMPTY_TEMPLATE,
  type Limits,
  type UserProfile,
} from '@ferry/core';
import i18next from 'i18next';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, mockApi } from '../../test/api-mock';
import { toastTexts } from '../../test/app-harness';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { useAuth } from '../auth/auth-context';
import { UploaderPage } from './uploader-page';

function pick(input: HTMLInputElement, files: File[]) {
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  return act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/** A file that says it is `size` bytes without holding them. */
function bigFile(name: string, size: number): File {
  const file = new File(['x'], name);
  Object.defineProperty(file, 'size', { value: size });
  return file;
}

function limits(overrides: Partial<Limits> = {}): Limits {
  return {
    planType: 'PREMIUM',
    files: 5000,
    fileValidityInDays: 30,
    forcedFileValidityInDays: null,
    messageLength: 800,
    recipients: 20,
    uploadSize: 250e9,
    storage: 1000e9,
    storageUsed: 0,
    globalStorage: null,
    downloadedBytes7Days: 6e11,
    downloadedBytes7DaysUsed: 0,
    forcedRegion: null,
    disableSSEC: false,
    ...overrides,
  };
}

function profile(uid: string, overrides: Partial<UserProfile> = {}): UserProfile {
  return {
    uid,
    email: `${uid}@example.com`,
    info: { firstname: null },
    notificationSettings: DEFAULT_NOTIFICATION_SETTINGS,
    lastNotificationsChecked: null,
    addressBookSettings: { autoSave: true },
    uploaderTemplate: EMPTY_TEMPLATE,
    receiverTemplate: EMPTY_TEMPLATE,
    uploaderSettings: DEFAULT_UPLOADER_SETTINGS,
    ...overrides,
  };
}

/** Asks GET /api/auth/me again, as a sign-in elsewhere in the app would. */
function ReloadAuth() {
  const { reload } = useAuth();
  return (
    <button type="button" data-testid="reload-auth" onClick={() => void reload()}>
      reload
    </button>
  );
}

const routes = [
  {
    path: '/',
    element: (
      <>
        <ReloadAuth />
        <UploaderPage />
      </>
    ),
  },
];

const expiryOptions = (root: ParentNode) =>
  byTestId<HTMLSelectElement>(root, 'transfer-expiry').options.length;

describe('uploader with the plan, settings and template of the signed-in user', () => {
  let view: Rendered;
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(async () => {
    await view?.unmount();
    await act(async () => {
      await i18next.changeLanguage('en');
    });
    vi.unstubAllGlobals();
  });

  async function open(path: string) {
    view = await render(authHarness(routes, path).ui);
    await settle();
    return view.container;
  }

  it('anonymous: the free plan, without asking for limits or a profile', async () => {
    const api = mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    const root = await open('/');
    await pick(byTestId(root, 'file-input'), [bigFile('big.bin', 6e9)]);
    expect(toastTexts(root)).toContain('Too large: 6.00 GB in total, 5.00 GB at most per transfer.');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    expect(expiryOptions(root)).toBe(7);
    expect(api.calls.map((c) => c.path)).toEqual(['/api/auth/me']);
  });

  it('a NONE user: profile loaded, no limits call, free plan limits', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(profile('u_1')),
    });
    const root = await open('/');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    expect(expiryOptions(root)).toBe(7);
    expect(api.to('GET /api/user/users/u_1')).toHaveLength(1);
    expect(api.calls.some((c) => c.path.startsWith('/api/transfer/limits'))).toBe(false);
  });

  it('a PREMIUM user: the loaded limits, the template (S2 by default, capped availability) and the time zone', async () => {
    const created: ApiCall[] = [];
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'PREMIUM', payingUser: true })),
      'GET /api/transfer/limits/u_1': () => json(limits()),
      'GET /api/user/users/u_1': () =>
        json(
          profile('u_1', {
            uploaderTemplate: {
              name: 'Monthly figures',
              message: 'See attached',
              recipients: [],
              password: null,
              defaultAvailability: 400,
              s2AsDefault: true,
            },
            notificationSettings: {
              ...DEFAULT_NOTIFICATION_SETTINGS,
              transfer: { ...DEFAULT_NOTIFICATION_SETTINGS.transfer, downloadConfirmationS2: true },
            },
          }),
        ),
      'POST /api/transfer/transfers': (call) => {
        created.push(call);
        return json(
          {
            status: 400,
            error: 'Bad Request',
            message: 'x',
            limitErrors: [{ limit: 'messageLength', max: 800, actual: 900 }],
          },
          400,
        );
      },
    });
    const root = await open('/');
    expect(byTestId<HTMLInputElement>(root, 'type-S2').checked).toBe(true);
    // 6 GB is over the free 5 GB but within the 250 GB of the loaded limits.
    await pick(byTestId(root, 'file-input'), [bigFile('big.bin', 6e9)]);
    expect(toastTexts(root)).toEqual([]);
    await click(byTestId(root, 'next'));
    expect(expiryOptions(root)).toBe(30);
    // The template's 400 days, capped at the 30-day validity limit.
    expect(byTestId<HTMLSelectElement>(root, 'transfer-expiry').value).toBe('30');
    expect(byTestId<HTMLInputElement>(root, 'transfer-name').value).toBe('Monthly figures');
    expect(byTestId<HTMLTextAreaElement>(root, 'transfer-message').value).toBe('See attached');
    expect(byTestId<HTMLInputElement>(root, 'notify-download-confirmation').checked).toBe(true);
    await typeInto(byTestId(root, 'transfer-message'), 'x'.repeat(700));
    expect(root.querySelector('[role="alert"]')).toBeNull();
    await click(byTestId(root, 'start-upload'));
    await settle();
    expect(created).toHaveLength(1);
    expect(created[0]?.body).toMatchObject({
      type: 'S2',
      expiresInDays: 30,
      downloadConfirmation: true,
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    });
    expect(toastTexts(root)).toContain('The message is too long: 900 characters, 800 at most.');
    expect(api.to('GET /api/transfer/limits/u_1')).toHaveLength(1);
  });

  it('shows the server’s limit errors in the user’s language', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'PREMIUM', payingUser: true })),
      'GET /api/transfer/limits/u_1': () => json(limits()),
      'GET /api/user/users/u_1': () => json(profile('u_1')),
      'POST /api/transfer/transfers': () =>
        json(
          {
            status: 400,
            error: 'Bad Request',
            message: 'x',
            limitErrors: [{ limit: 'recipients', max: 20, actual: 21 }],
          },
          400,
        ),
    });
    await act(async () => {
      await i18next.changeLanguage('fr');
    });
    const root = await open('/#S2');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    await click(byTestId(root, 'start-upload'));
    await settle();
    expect(toastTexts(root)).toContain('Trop de destinataires\u00a0: 21, 20 au maximum.');
  });

  it('a paying sender: the link preview of a link, characters left and problems in their language, sent on create', async () => {
    const created: ApiCall[] = [];
    mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'PREMIUM', payingUser: true })),
      'GET /api/transfer/limits/u_1': () => json(limits()),
      'GET /api/user/users/u_1': () => json(profile('u_1')),
      'POST /api/transfer/transfers': (call) => {
        created.push(call);
        return json({ status: 503, error: 'Service Unavailable', message: 'x' }, 503);
      },
    });
    const root = await open('/#S2');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    const group = byTestId(root, 'link-preview-fields');
    expect(group.querySelector('legend')?.textContent).toBe('Link preview');
    const title = byTestId<HTMLInputElement>(root, 'link-preview-title');
    const description = byTestId<HTMLTextAreaElement>(root, 'link-preview-description');
    expect(description.tagName).toBe('TEXTAREA');
    // Each control is labelled and described by its characters left (native controls: reachable with Tab).
    const labelOf = (el: HTMLElement) => group.querySelector(`label[for="${el.id}"]`)?.textContent;
    const describedBy = (el: HTMLElement) =>
      (el.getAttribute('aria-describedby') ?? '')
        .split(' ')
        .map((id) => group.querySelector(`[id="${id}"]`)?.textContent);
    expect([labelOf(title), labelOf(description)]).toEqual(['Preview title', 'Preview description']);
    expect(describedBy(title)).toEqual(['120 characters left']);
    expect(describedBy(description)).toEqual(['300 characters left']);

    await typeInto(title, 'x'.repeat(119));
    expect(describedBy(title)).toEqual(['1 character left']);
    await typeInto(title, 'x'.repeat(122));
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(title)).toEqual(['2 characters too many', 'Too long: 120 characters at most.']);
    expect(byTestId<HTMLButtonElement>(root, 'start-upload').disabled).toBe(true);
    await typeInto(description, 'Two\nlines');
    expect(describedBy(description)).toEqual([
      '291 characters left',
      'Remove the line breaks and control characters: a preview is a single line of text.',
    ]);

    // The same problems in the sender's language.
    await act(async () => {
      await i18next.changeLanguage('fr');
    });
    expect(describedBy(title)).toEqual(['2 caractères en trop', 'Trop long : 120 caractères au plus.']);
    expect(describedBy(description)[1]).toBe(
      'Retirez les retours à la ligne et les caractères de contrôle : un aperçu tient sur une seule ligne.',
    );

    // A password keeps the preview general: said in the group.
    expect(root.querySelector('[data-testid="link-preview-password"]')).toBeNull();
    await typeInto(byTestId(root, 'transfer-password'), 'pw');
    expect(byTestId(root, 'link-preview-password').textContent).toContain('mot de passe');
    await typeInto(byTestId(root, 'transfer-password'), '');

    await typeInto(title, '  Board pack — final ');
    await typeInto(description, ' ');
    expect(describedBy(title)).toEqual(['102 caractères restants']);
    expect(root.querySelectorAll('[aria-invalid="true"]')).toHaveLength(0);
    await click(byTestId(root, 'start-upload'));
    await settle();
    expect(created).toHaveLength(1);
    // Only the field the sender filled, trimmed.
    const body = created[0]?.body as { type?: string; openGraph?: object } | undefined;
    expect([body?.type, body?.openGraph]).toEqual(['S2', { title: 'Board pack — final' }]);
  });

  it('no link preview for an e-mail transfer, nor for a sender who does not pay', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'PREMIUM', payingUser: true })),
      'GET /api/transfer/limits/u_1': () => json(limits()),
      'GET /api/user/users/u_1': () => json(profile('u_1')),
    });
    let root = await open('/#S2');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    expect(root.querySelector('[data-testid="link-preview-fields"]')).not.toBeNull();
    await click(byTestId(root, 'type-S1'));
    await settle();
    expect(root.querySelector('[data-testid="link-preview-fields"]')).toBeNull();
    await view.unmount();

    mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'NONE', payingUser: false })),
      'GET /api/user/users/u_1': () => json(profile('u_1')),
    });
    root = await open('/#S2');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    expect(byTestId(root, 'transfer-name')).toBeTruthy();
    expect(root.querySelector('[data-testid="link-preview-fields"]')).toBeNull();
  });

  it('a team member: the manager’s limits, settings and template; only the allowed type', async () => {
    const created: ApiCall[] = [];
    const api = mockApi({
      'GET /api/auth/me': () =>
        json(
          signedInState({
            user: { uid: 'u_2', email: 'bo@example.com', displayName: null, locale: null },
            planType: 'TEAM',
            payingUser: true,
            managerId: 'm_1',
            authorization: { managerId: 'm_1', permissions: [] },
          }),
        ),
      'GET /api/transfer/limits/m_1': () => json(limits({ planType: 'TEAM', fileValidityInDays: 90 })),
      'GET /api/user/users/u_2': () => json(profile('u_2', { info: { firstname: 'Bo' } })),
      'GET /api/user/users/m_1': () =>
        json(
          profile('m_1', {
            uploaderTemplate: { ...EMPTY_TEMPLATE, name: 'From the team', password: 'team-pw' },
            uploaderSettings: {
              ...DEFAULT_UPLOADER_SETTINGS,
              allowS1: false,
              requirePassword: true,
              downloadLimitOpt: false,
              filePreviewOpt: false,
              requireForceEmailWhenDownloadS2: true,
              sendAllowedExtensions: ['pdf', '.docx'],
            },
          }),
        ),
      'POST /api/transfer/transfers': (call) => {
        created.push(call);
        return json({ status: 400, error: 'Bad Request', message: 'stop here' }, 400);
      },
    });
    // The hash asks for S1, which the manager does not allow.
    const root = await open('/#S1');
    expect(root.querySelector('[data-testid="type-S1"]')).toBeNull();
    expect(root.querySelector('[data-testid="type-S2"]')).toBeNull();
    expect(root.querySelector('[data-transfer-type]')?.getAttribute('data-transfer-type')).toBe('S2');

    await pick(byTestId(root, 'file-input'), [new File(['a'], 'notes.txt'), new File(['b'], 'Plan.PDF')]);
    expect(toastTexts(root)).toEqual([
      'notes.txt was skipped: only these file types are allowed: pdf, .docx.',
    ]);
    expect([...root.querySelectorAll('.file-row-base')].map((e) => e.textContent)).toEqual(['Plan.PDF']);

    await click(byTestId(root, 'next'));
    expect(expiryOptions(root)).toBe(90);
    expect(root.querySelector('[data-testid="transfer-max-downloads"]')).toBeNull();
    expect(root.querySelector('[data-testid="transfer-allow-preview"]')).toBeNull();
    const force = byTestId<HTMLInputElement>(root, 'force-downloader-email');
    expect(force.checked).toBe(true);
    expect(force.disabled).toBe(true);
    expect(byTestId<HTMLInputElement>(root, 'transfer-name').value).toBe('From the team');
    // The member's own first name, as they have no display name.
    expect(byTestId<HTMLInputElement>(root, 'sender-name').value).toBe('Bo');

    // The template password is there; removing it is refused by the required-password rule.
    const password = byTestId<HTMLInputElement>(root, 'transfer-password');
    expect(password.value).toBe('team-pw');
    await typeInto(password, '');
    await click(byTestId(root, 'start-upload'));
    expect(byTestId(root, 'password-error').textContent).toBe(
      'Enter a password: your team requires one for every transfer.',
    );
    expect(document.activeElement).toBe(password);
    expect(created).toHaveLength(0);

    await typeInto(password, 'member-pw');
    await click(byTestId(root, 'start-upload'));
    await settle();
    expect(created).toHaveLength(1);
    expect(created[0]?.body).toMatchObject({
      type: 'S2',
      password: 'member-pw',
      forceEmailWhenDownloadS2: true,
      allowPreview: true,
      expiresInDays: 21,
    });
    expect(created[0]?.body).not.toHaveProperty('maxDownloads');
    expect(api.to('GET /api/user/users/m_1')).toHaveLength(1);
  });

  it('a team member whose manager’s settings cannot be read gets the default team-member settings', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState({ planType: 'TEAM', payingUser: true, managerId: 'm_1' })),
      'GET /api/transfer/limits/m_1': () => json(limits({ planType: 'TEAM' })),
      'GET /api/user/users/u_1': () => json(profile('u_1')),
    });
    const root = await open('/');
    expect(byTestId<HTMLInputElement>(root, 'type-S1').checked).toBe(true);
    expect(byTestId(root, 'type-S2')).toBeTruthy();
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    expect(byTestId<HTMLInputElement>(root, 'transfer-password').value).toBe('');
    expect(byTestId(root, 'transfer-max-downloads')).toBeTruthy();
  });

  it('loads the limits again when the signed-in user changes', async () => {
    const api = mockApi({
      'GET /api/auth/me': [
        () => json(signedInState({ planType: 'PREMIUM', payingUser: true })),
        () =>
          json(
            signedInState({
              user: { uid: 'u_9', email: 'cy@example.com', displayName: 'Cy', locale: null },
              planType: 'PREMIUM',
              payingUser: true,
            }),
          ),
      ],
      'GET /api/transfer/limits/u_1': () => json(limits({ fileValidityInDays: 30 })),
      'GET /api/transfer/limits/u_9': () => json(limits({ fileValidityInDays: 60 })),
      'GET /api/user/users/u_1': () => json(profile('u_1')),
      'GET /api/user/users/u_9': () =>
        json(profile('u_9', { uploaderTemplate: { ...EMPTY_TEMPLATE, name: 'Cy’s template' } })),
    });
    const root = await open('/');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    expect(expiryOptions(root)).toBe(30);
    expect(byTestId<HTMLInputElement>(root, 'transfer-name').value).toBe('');

    await click(byTestId(root, 'reload-auth'));
    await settle();
    expect(api.to('GET /api/transfer/limits/u_9')).toHaveLength(1);
    expect(expiryOptions(root)).toBe(60);
    expect(byTestId<HTMLInputElement>(root, 'transfer-name').value).toBe('Cy’s template');
    expect(api.to('GET /api/transfer/limits/u_1')).toHaveLength(1);
  });
});
