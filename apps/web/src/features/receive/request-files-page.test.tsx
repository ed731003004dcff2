import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { anonymousState, signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { requestView } from './receive.fixture';
import { RequestFilesPage } from './request-files-page';

const routes = [{ path: '/request-files', element: <RequestFilesPage /> }];

async function submit(root: HTMLElement) {
  await act(async () => {
    byTestId<HTMLFormElement>(root, 'request-submit').closest('form')?.requestSubmit();
  });
  await settle();
}

describe('/request-files', () => {
  let view: Rendered;
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('tells a signed-out visitor why to sign in, with a way back here', async () => {
    mockApi({ 'GET /api/auth/me': () => json(anonymousState()) });
    view = await render(authHarness(routes, '/request-files#S2').ui);
    await settle();
    const root = view.container;
    expect(byTestId(root, 'request-signin').textContent).toContain('Sign in to request files');
    expect(byTestId(root, 'request-signin-link').getAttribute('href')).toBe(
      `/signin?next=${encodeURIComponent('/request-files#S2')}`,
    );
  });

  it('creates a link request (S2) for 7 days on the free plan, then shows the link with a QR code', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () =>
        json(
          userProfile({
            receiverTemplate: {
              name: 'Holiday photos',
              message: null,
              recipients: [],
              password: null,
              defaultAvailability: null,
              s2AsDefault: true,
            },
          }),
        ),
      'POST /api/receive/requests': () => json(requestView({ subject: 'Holiday photos' }), 201),
    });
    view = await render(authHarness(routes, '/request-files').ui);
    await until(() => view.container.querySelector('[data-testid="request-subject"]') !== null, 'the form');
    await settle();
    const root = view.container;
    // The template says s2AsDefault: by link, its name as the subject.
    expect(byTestId<HTMLInputElement>(root, 'type-S2').checked).toBe(true);
    expect(byTestId<HTMLInputElement>(root, 'request-subject').value).toBe('Holiday photos');
    expect(byTestId<HTMLSelectElement>(root, 'request-expiry').value).toBe('7');
    expect(byTestId(root, 'request-preview').textContent).toContain('Transfer files to Ada · Holiday photos');
    await typeInto(byTestId(root, 'request-message'), 'All of them, please');
    await submit(root);
    expect(api.to('POST /api/receive/requests')[0]?.body).toMatchObject({
      linkMode: 'S2',
      subject: 'Holiday photos',
      message: 'All of them, please',
      senderName: 'Ada',
      senderEmail: 'ada@example.com',
      expiresInDays: 7,
      uploadNotification: true,
      locale: 'en',
    });
    expect(byTestId(root, 'request-result').textContent).toBe('Your upload link is ready');
    expect(byTestId<HTMLInputElement>(root, 'request-link').value).toBe(
      'http://localhost/r/AbCdEfGhIjKlMnOp',
    );
    // The QR code's module is fetched when a link is shown.
    await until(() => root.querySelector('[data-testid="request-qr"]') !== null, 'the QR code', 10_000);
    expect(byTestId(root, 'request-qr').getAttribute('aria-label')).toBe('QR code of the upload link');

    await click(byTestId(root, 'request-new'));
    expect(byTestId<HTMLInputElement>(root, 'request-subject').value).toBe('Holiday photos');
    expect(byTestId<HTMLTextAreaElement>(root, 'request-message').value).toBe('');
  });

  it('asks people by e-mail (S1) and shows each one’s delivery; a taken custom address is said at its field', async () => {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      'POST /api/receive/requests': [
        () =>
          json(
            {
              status: 409,
              error: 'Conflict',
              message: 'taken',
              codes: ['CONFLICT'],
              details: { field: 'customId' },
            },
            409,
          ),
        () =>
          json(
            requestView({
              linkMode: 'S1',
              recipients: [{ email: 'bob@example.com', delivery: 'queued', error: null, uploadedAt: null }],
            }),
            201,
          ),
      ],
      'GET /api/receive/requests/AbCdEfGhIjKlMnOp': () =>
        json(
          requestView({
            linkMode: 'S1',
            recipients: [{ email: 'bob@example.com', delivery: 'sent', error: null, uploadedAt: null }],
          }),
        ),
    });
    view = await render(authHarness(routes, '/request-files#S1').ui);
    await until(() => view.container.querySelector('[data-testid="recipients-input"]') !== null, 'the form');
    await settle();
    const root = view.container;
    // Nobody to ask yet: the button says so at the field.
    await submit(root);
    expect(api.to('POST /api/receive/requests')).toHaveLength(0);
    expect(byTestId(root, 'recipients-error').textContent).not.toBe('');

    await typeInto(byTestId(root, 'recipients-input'), 'bob@example.com,');
    await typeInto(byTestId(root, 'request-custom-id'), 'Our-Box');
    await submit(root);
    expect(api.to('POST /api/receive/requests')[0]?.body).toMatchObject({
      linkMode: 'S1',
      recipients: ['bob@example.com'],
      customId: 'our-box',
      expiryReminder: true,
    });
    expect(byTestId(root, 'request-custom-id-error').textContent).toBe(
      'This address is already taken. Choose another one.',
    );
    await typeInto(byTestId(root, 'request-custom-id'), 'our-box-2');
    expect(root.querySelector('[data-testid="request-custom-id-error"]')).toBeNull();
    await submit(root);
    expect(byTestId(root, 'request-result').textContent).toBe('Request sent to 1 person');
    await until(
      () => root.querySelector('[data-testid="request-recipient"]')?.getAttribute('data-delivery') === 'sent',
      'the delivery to be reported',
    );
  });
});
