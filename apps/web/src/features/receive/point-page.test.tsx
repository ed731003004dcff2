import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ReceiveRequestRoute from '../../routes/receive-request.route';
import { coded, json, mockApi } from '../../test/api-mock';
import { harness, toastTexts } from '../../test/app-harness';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { PushPage } from './push-page';
import { pointView, receipt } from './receive.fixture';
import { RECEIVE_PENDING_KEY } from './receive-resume';

const ID = 'AbCdEfGhIjKlMnOp';
const POINT = `GET /api/receive/points/request/${ID}`;

function pick(input: HTMLInputElement, files: File[]) {
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  return act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

async function open(path: string) {
  const view = await render(harness(<ReceiveRequestRoute />, path, '/r/:requestId').ui);
  await settle();
  return view;
}

describe('a request’s upload page (/r/:requestId)', () => {
  let view: Rendered;
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('asks for the password (wrong, rate limited, right), then takes only the allowed file types', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const api = mockApi({
      [POINT]: () => json(pointView({ passwordProtected: true, allowedExtensions: ['pdf'] })),
      'POST /api/receive/check-password': [
        () => coded(403, 'WRONG_PASSWORD'),
        () => coded(429, 'RATE_LIMITED', { 'Retry-After': '30' }),
        () => json({ ok: true }),
      ],
      'POST /api/receive/uploads': () => coded(410, 'RECEIVE_CLOSED'),
    });
    view = await open(`/r/${ID}`);
    const root = view.container;
    expect(byTestId(root, 'receive-title').textContent).toBe('Transfer files to Ada');
    expect(byTestId(root, 'receive-subtitle').textContent).toBe('Signed contract');
    expect(byTestId(root, 'receive-message').textContent).toContain('Please send the signed pages.');
    expect(root.querySelector('[data-testid="file-input"]')).toBeNull();

    const unlock = async (password: string) => {
      await typeInto(byTestId(root, 'receive-password'), password);
      await click(byTestId(root, 'receive-password-submit'));
      await settle();
    };
    await unlock('nope');
    expect(byTestId(root, 'receive-password-error').textContent).toBe('Wrong password.');
    await unlock('again');
    expect(byTestId(root, 'receive-password-error').textContent).toBe(
      'Too many attempts. Try again in about 30 seconds.',
    );
    expect(byTestId<HTMLButtonElement>(root, 'receive-password-submit').disabled).toBe(true);
    await act(async () => vi.advanceTimersByTime(30_000));
    expect(byTestId<HTMLButtonElement>(root, 'receive-password-submit').disabled).toBe(false);
    await unlock('s3cret');
    expect(api.to('POST /api/receive/check-password')[2]?.body).toEqual({
      target: { kind: 'request', requestId: ID },
      password: 's3cret',
    });

    expect(byTestId(root, 'allowed-extensions').textContent).toBe('Accepted file types: .pdf');
    await pick(byTestId(root, 'file-input'), [
      new File(['x'], 'photo.JPG'),
      new File(['%PDF'], 'contract.PDF'),
    ]);
    expect(toastTexts(root)).toContain('photo.JPG was skipped: only these file types are allowed: pdf.');
    expect([...root.querySelectorAll('.file-row-base')].map((e) => e.textContent)).toEqual(['contract.PDF']);

    await click(byTestId(root, 'next'));
    await typeInto(byTestId(root, 'uploader-email'), 'bob@');
    expect(root.querySelector('[aria-invalid="true"]')).toBe(byTestId(root, 'uploader-email'));
    await typeInto(byTestId(root, 'uploader-email'), 'bob@example.com');
    await typeInto(byTestId(root, 'uploader-name'), 'Bob');
    await click(byTestId(root, 'start-upload'));
    await settle();
    expect(api.to('POST /api/receive/uploads')[0]?.body).toMatchObject({
      target: { kind: 'request', requestId: ID },
      password: 's3cret',
      uploaderName: 'Bob',
      uploaderEmail: 'bob@example.com',
      answers: [],
      files: [{ name: 'contract.PDF', size: 4 }],
      locale: 'en',
    });
    // Closed meanwhile: the page says so instead of the form.
    expect(byTestId(root, 'receive-error').dataset.problem).toBe('closed');
    expect(byTestId(root, 'receive-error').textContent).toContain('This page is closed');
  });

  it('knows the asked person of a personal link, and returns refused files to the list with their notice', async () => {
    const api = mockApi({
      [POINT]: () =>
        json(
          pointView({
            linkMode: 'S1',
            recipientEmail: 'bob@example.com',
            fields: { name: 'optional', email: 'hidden', message: 'required', questions: [] },
          }),
        ),
      'POST /api/receive/uploads': () =>
        json(
          {
            status: 400,
            error: 'Bad Request',
            message: 'refused',
            codes: ['EXTENSION_NOT_AUTHORIZED'],
            details: {
              allowedExtensions: ['pdf'],
              files: [{ name: 'notes.txt', key: 'uploader:notif_extension_authorized', extensions: ['pdf'] }],
            },
          },
          400,
        ),
    });
    view = await open(`/r/${ID}?userSecret=personal-secret`);
    const root = view.container;
    expect(api.to(POINT)[0]?.query.get('userSecret')).toBe('personal-secret');
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'notes.txt'), new File(['b'], 'a.pdf')]);
    await click(byTestId(root, 'next'));
    expect(byTestId(root, 'uploader-as').textContent).toBe('Sending as bob@example.com');
    expect(root.querySelector('[data-testid="uploader-email"]')).toBeNull();
    // The message is required here.
    await click(byTestId(root, 'start-upload'));
    await settle();
    expect(api.to('POST /api/receive/uploads')).toHaveLength(0);
    expect(byTestId(root, 'uploader-message').getAttribute('aria-invalid')).toBe('true');
    await typeInto(byTestId(root, 'uploader-message'), 'Here you are');
    await click(byTestId(root, 'start-upload'));
    await settle();
    expect(api.to('POST /api/receive/uploads')[0]?.body).toMatchObject({
      target: { kind: 'request', requestId: ID, userSecret: 'personal-secret' },
      message: 'Here you are',
    });
    expect(toastTexts(root)).toContain('notes.txt was skipped: only these file types are allowed: pdf.');
    expect([...root.querySelectorAll('.file-row-base')].map((e) => e.textContent)).toEqual(['a.pdf']);
  });

  it('says in the visitor’s language when a request is unknown or expired', async () => {
    mockApi({ [POINT]: () => coded(404, 'NOT_FOUND') });
    view = await open(`/r/${ID}`);
    expect(byTestId(view.container, 'receive-error').textContent).toContain('This page does not exist');
    await view.unmount();
    mockApi({ [POINT]: () => coded(410, 'RECEIVE_EXPIRED') });
    view = await open(`/r/${ID}`);
    expect(byTestId(view.container, 'receive-error').dataset.problem).toBe('expired');
    expect(byTestId(view.container, 'receive-error').textContent).toContain('This request has expired');
  });

  it('offers to resume an unfinished upload of this page, and forgets one the server finished', async () => {
    localStorage.setItem(
      RECEIVE_PENDING_KEY,
      JSON.stringify({
        point: `request:${ID}`,
        pending: {
          transferId: 'TrAnSfEr00000001',
          uploadToken: 'tok',
          uploadEndpoint: '/api/transfer/uploads',
          link: `/r/${ID}`,
          expiresAt: '',
          createdAt: '2030-01-01T00:00:00.000Z',
          files: [{ id: 'FILE01', name: 'a.pdf', size: 1, relativePath: null, lastModified: 0 }],
        },
      }),
    );
    const api = mockApi({
      [POINT]: () => json(pointView()),
      'GET /api/receive/uploads/TrAnSfEr00000001': () =>
        json(
          receipt({
            status: 'UPLOADING',
            receivedAt: null,
            files: [
              { id: 'FILE01', name: 'a.pdf', relativePath: null, size: 1, sha256: null, uploaded: false },
            ],
          }),
        ),
    });
    view = await open(`/r/${ID}`);
    const root = view.container;
    await until(() => root.querySelector('[data-testid="resume-banner"]') !== null, 'the resume banner');
    expect(api.to('GET /api/receive/uploads/TrAnSfEr00000001')[0]?.headers['x-upload-token']).toBe('tok');
    await pick(byTestId(root, 'file-input'), [new File(['zz'], 'other.pdf')]);
    expect(toastTexts(root).at(-1)).toContain('not part of the unfinished transfer');
    await click(byTestId(root, 'resume-discard'));
    expect(root.querySelector('[data-testid="resume-banner"]')).toBeNull();
    expect(localStorage.getItem(RECEIVE_PENDING_KEY)).toBeNull();
  });
});

describe('/push', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('asks whom to send to, then reads that account’s inbox; an unknown one is said', async () => {
    const api = mockApi({
      'GET /api/receive/push': (call) =>
        call.query.get('to') === 'ada@example.com'
          ? json(
              pointView({
                kind: 'inbox',
                id: 'ada',
                title: 'Ada’s inbox',
                ownerName: null,
                expiresAt: null,
                message: null,
              }),
            )
          : coded(404, 'NOT_FOUND'),
    });
    const h = harness(<PushPage />, '/push');
    view = await render(h.ui);
    const root = view.container;
    await typeInto(byTestId(root, 'push-to'), 'nobody@example.com');
    await click(byTestId(root, 'push-to-submit'));
    await settle();
    expect(h.router.state.location.search).toBe('?to=nobody%40example.com');
    expect(byTestId(root, 'receive-error').textContent).toContain('Nobody to send to');
    await click(byTestId(root, 'push-to-change'));
    await typeInto(byTestId(root, 'push-to'), 'ada@example.com');
    await click(byTestId(root, 'push-to-submit'));
    await settle();
    expect(api.to('GET /api/receive/push').at(-1)?.query.get('to')).toBe('ada@example.com');
    // An inbox does not name its owner: its title says who receives.
    expect(byTestId(root, 'receive-title').textContent).toBe('Transfer files to Ada’s inbox');
    expect(root.querySelector('[data-testid="receive-subtitle"]')).toBeNull();
    expect(byTestId(root, 'file-input')).toBeTruthy();
  });
});
