import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness } from '../dashboard/dashboard.fixture';
import { InboxNewPage } from './inbox-new-page';
import { INBOX_ID, inboxList, inboxView } from './inboxes.fixture';

const CREATE = 'POST /api/receive/inboxes';

async function keyIn(input: HTMLInputElement, key: string) {
  const { act } = await import('react');
  await act(async () => {
    input.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
  });
}

async function choose(select: HTMLSelectElement, value: string) {
  const { act } = await import('react');
  select.value = value;
  await act(async () => {
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('/dashboard/admin/inboxes/new', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(list = inboxList([]), extra = {}) {
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      'GET /api/receive/inboxes': () => json(list),
      ...extra,
    });
    const harness = appHarness(
      [
        { path: '/dashboard/admin/inboxes/new', element: <InboxNewPage /> },
        { path: '/dashboard/admin/inboxes/:id', element: <p data-testid="detail">detail</p> },
      ],
      '/dashboard/admin/inboxes/new',
    );
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api, harness };
  }

  it('creates an inbox: address from the title, extensions as chips, limits, fields with questions, colours', async () => {
    const { root, api, harness } = await open(inboxList([]), {
      [CREATE]: () => json(inboxView(), 201),
    });
    await typeInto(byTestId(root, 'inbox-title'), 'Client files — Été 2030');
    expect(byTestId<HTMLInputElement>(root, 'inbox-slug').value).toBe('client-files-ete-2030');
    await typeInto(byTestId(root, 'inbox-description'), 'Send us your documents.');
    await click(byTestId(root, 'inbox-mode-S1'));

    const extensions = byTestId<HTMLInputElement>(root, 'inbox-extensions');
    await typeInto(extensions, '.PDF, jpg docx');
    await keyIn(extensions, 'Enter');
    expect(
      [...root.querySelectorAll('[data-testid="inbox-extensions-chip"]')].map((c) => c.textContent),
    ).toEqual(['.pdf', '.jpg', '.docx']);
    await keyIn(extensions, 'Backspace');
    await typeInto(extensions, 'not/valid');
    await keyIn(extensions, 'Enter');
    expect(byTestId(root, 'inbox-extensions-error').textContent).toBe('Not a file type: not/valid.');
    await typeInto(extensions, '');

    await typeInto(byTestId(root, 'inbox-size'), '500');
    await choose(byTestId(root, 'inbox-size-unit'), 'MB');
    await typeInto(byTestId(root, 'inbox-days'), '5');

    // S1: the e-mail is always required.
    const email = byTestId<HTMLSelectElement>(root, 'inbox-fields-email');
    expect(email.disabled).toBe(true);
    expect(email.value).toBe('required');
    await choose(byTestId(root, 'inbox-fields-message'), 'hidden');
    await click(byTestId(root, 'inbox-fields-question-add'));
    await click(byTestId(root, 'inbox-fields-question-add'));
    const labels = () => [
      ...root.querySelectorAll<HTMLInputElement>('[data-testid="inbox-fields-question-label"]'),
    ];
    expect(document.activeElement).toBe(labels()[1]);
    await typeInto(labels()[0] as HTMLInputElement, 'Project number');
    await typeInto(labels()[1] as HTMLInputElement, 'Deadline');
    await click(
      root.querySelectorAll<HTMLElement>('[data-testid="inbox-fields-question-required"]')[0] as HTMLElement,
    );
    // The second question moves up, and keeps the focus on its arrow.
    await click(
      root.querySelectorAll<HTMLElement>('[data-testid="inbox-fields-question-up"]')[1] as HTMLElement,
    );
    expect(labels().map((l) => l.value)).toEqual(['Deadline', 'Project number']);
    expect((document.activeElement as HTMLElement).dataset.testid).toBe('inbox-fields-question-down');

    await typeInto(byTestId(root, 'inbox-colors-backgroundColor'), '#112233');
    expect(
      byTestId<HTMLElement>(root, 'inbox-preview')
        .querySelector<HTMLElement>('.widget-card')
        ?.style.getPropertyValue('--theme-bg'),
    ).toBe('#112233');

    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(CREATE)[0]?.body).toEqual({
      slug: 'client-files-ete-2030',
      title: 'Client files — Été 2030',
      description: 'Send us your documents.',
      linkMode: 'S1',
      allowedExtensions: ['pdf', 'jpg'],
      maxUploadBytes: 500_000_000,
      fileValidityDays: 5,
      fields: {
        name: 'optional',
        email: 'required',
        message: 'hidden',
        questions: [
          { id: 'q2', label: 'Deadline', required: false },
          { id: 'q1', label: 'Project number', required: true },
        ],
      },
      uploadNotification: true,
      customization: { backgroundColor: '#112233', actionColor: null, startbtnColor: null },
    });
    expect(harness.router.state.location.pathname).toBe(`/dashboard/admin/inboxes/${INBOX_ID}`);
    expect(document.body.textContent).toContain('Inbox created.');
  });

  it('refuses to save until the problems are fixed, then shows a taken address from the server', async () => {
    const { root, api } = await open(inboxList([]), {
      [CREATE]: () =>
        json(
          {
            status: 409,
            error: 'Conflict',
            message: 'taken',
            codes: ['CONFLICT'],
            details: { field: 'slug' },
          },
          409,
        ),
    });
    await click(byTestId(root, 'inbox-fields-question-add'));
    await typeInto(byTestId(root, 'inbox-size'), '9000');
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(CREATE)).toHaveLength(0);
    expect(byTestId(root, 'inbox-title-error').textContent).toBe('Give the inbox a title: senders see it.');
    expect(byTestId(root, 'inbox-slug-error').textContent).toContain('3 to 40');
    expect(byTestId(root, 'inbox-size-error').textContent).toBe('Your plan allows 5.00 GB at most.');
    expect(root.textContent).toContain('Write the question, or remove it.');
    expect(document.activeElement).toBe(byTestId(root, 'inbox-title'));

    await typeInto(byTestId(root, 'inbox-title'), 'Taken');
    await typeInto(byTestId(root, 'inbox-size'), '');
    await click(byTestId(root, 'inbox-fields-question-remove'));
    expect(document.activeElement).toBe(byTestId(root, 'inbox-fields-question-add'));
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(CREATE)).toHaveLength(1);
    expect(byTestId(root, 'inbox-slug-error').textContent).toBe('This address is taken. Choose another one.');
    expect(document.activeElement).toBe(byTestId(root, 'inbox-slug'));
  });

  it('offers only the kinds of inbox the team allows, says why, and keeps the team’s password and colour rules', async () => {
    const { root, api } = await open(
      inboxList([], {
        allowInboxS2: false,
        receiveRequirePassword: true,
        receiveAllowCustomization: false,
        receiveAllowedExtensions: ['pdf', 'png'],
      }),
      { [CREATE]: () => json(inboxView(), 201) },
    );
    expect(byTestId<HTMLInputElement>(root, 'inbox-mode-S1').checked).toBe(true);
    expect(byTestId<HTMLInputElement>(root, 'inbox-mode-S2').disabled).toBe(true);
    expect(byTestId(root, 'inbox-mode').textContent).toContain(
      'Unavailable: link inboxes are turned off in your account',
    );
    expect(byTestId(root, 'inbox-colors-locked').textContent).toContain('default colours are used');
    expect(root.querySelector('[data-testid="inbox-colors"]')).toBeNull();
    expect(root.textContent).toContain('Your team allows only .pdf, .png.');
    await typeInto(byTestId(root, 'inbox-title'), 'Docs');
    await typeInto(byTestId(root, 'inbox-extensions'), 'exe');
    await keyIn(byTestId(root, 'inbox-extensions'), 'Enter');
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(CREATE)).toHaveLength(0);
    expect(byTestId(root, 'inbox-password-error').textContent).toContain('A password is required');
    expect(byTestId(root, 'inbox-extensions-error').textContent).toBe(
      'Your team does not allow exe. Remove them.',
    );
    await click(
      byTestId(root, 'inbox-extensions')
        .closest('.chips-input')
        ?.querySelector('.chip-remove') as HTMLElement,
    );
    await typeInto(byTestId(root, 'inbox-password'), 'open sesame');
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(api.to(CREATE)[0]?.body).toMatchObject({
      linkMode: 'S1',
      password: 'open sesame',
      allowedExtensions: [],
    });
    expect(api.to(CREATE)[0]?.body).not.toHaveProperty('customization');
  });

  it('says so when the server refuses for a setting', async () => {
    const { root } = await open(inboxList([]), {
      [CREATE]: () =>
        json(
          {
            status: 403,
            error: 'Forbidden',
            message: 'no',
            codes: ['FORBIDDEN'],
            details: { setting: 'allowInboxS2' },
          },
          403,
        ),
    });
    await typeInto(byTestId(root, 'inbox-title'), 'Docs');
    await click(byTestId(root, 'inbox-save'));
    await settle();
    expect(byTestId(root, 'inbox-error').textContent).toContain(
      'Link inboxes are turned off for your account.',
    );
  });

  it('explains why there is no form when inboxes are off', async () => {
    const { root } = await open(inboxList([], { allowed: false, allowInboxS1: false, allowInboxS2: false }));
    expect(byTestId(root, 'inboxes-not-allowed')).toBeTruthy();
    expect(root.querySelector('[data-testid="inbox-form"]')).toBeNull();
  });
});
