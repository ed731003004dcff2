import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { harness, toastTexts } from '../../test/app-harness';
import { transferSummary } from '../../test/fixtures';
import { byTestId, click, flush, type Rendered, render } from '../../test/render';
import { PENDING_STORAGE_KEY, type PendingTransfer } from './resume-store';
import { UploaderPage } from './uploader-page';

function pick(input: HTMLInputElement, files: File[]) {
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  return act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

function setValue(element: HTMLInputElement | HTMLTextAreaElement, value: string) {
  const proto =
    element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(element, value);
  return act(async () => {
    element.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

describe('uploader page', () => {
  let view: Rendered;
  beforeEach(() => {
    localStorage.clear();
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('lists picked files, skips refused names with their notice, and moves on to the options', async () => {
    view = await render(harness(<UploaderPage />, '/').ui);
    const root = view.container;
    expect(byTestId<HTMLButtonElement>(root, 'next').disabled).toBe(true);
    await pick(byTestId(root, 'file-input'), [
      new File(['hello'], 'report-with-a-really-long-name-2024.pdf'),
      new File(['MZ'], 'setup.exe'),
      new File(['abc'], 'notes.txt'),
    ]);
    const names = [...root.querySelectorAll('.file-row-base')].map((e) => e.textContent);
    expect(names).toEqual(['report-with-a-real...pdf', 'notes.txt']);
    expect(root.querySelector('.file-row-name')?.getAttribute('title')).toBe(
      'report-with-a-really-long-name-2024.pdf',
    );
    expect(byTestId(root, 'file-total').textContent).toBe('2 files · 8 B');
    expect(toastTexts(root)).toEqual([
      'setup.exe was skipped: executable files (.exe, .msi) cannot be sent.',
    ]);

    await click(byTestId(root, 'next'));
    expect(byTestId(root, 'start-upload')).toBeTruthy();
    expect(byTestId<HTMLSelectElement>(root, 'transfer-expiry').value).toBe('7');
    expect(byTestId<HTMLSelectElement>(root, 'transfer-expiry').options).toHaveLength(7);
  });

  it('warns about empty files and lets the sender drop them', async () => {
    view = await render(harness(<UploaderPage />, '/').ui);
    const root = view.container;
    expect(root.querySelector('[data-testid="empty-files-warning"]')).toBeNull();
    await pick(byTestId(root, 'file-input'), [
      new File([], 'placeholder.txt'),
      new File(['abc'], 'notes.txt'),
    ]);
    expect(byTestId(root, 'empty-files-warning').textContent).toContain(
      '“placeholder.txt” is empty (0 bytes): it will arrive empty.',
    );
    expect(byTestId(root, 'file-row-empty').textContent).toBe('empty');
    await pick(byTestId(root, 'file-input'), [new File([], 'blank.csv')]);
    expect(byTestId(root, 'empty-files-warning').textContent).toContain('2 files are empty (0 bytes)');
    await click(byTestId(root, 'remove-empty-files'));
    expect([...root.querySelectorAll('.file-row-base')].map((e) => e.textContent)).toEqual(['notes.txt']);
    expect(root.querySelector('[data-testid="empty-files-warning"]')).toBeNull();
    expect(byTestId(root, 'file-total').textContent).toBe('1 file · 3 B');
  });

  it('refuses a message over 500 characters and remembers the sender', async () => {
    view = await render(harness(<UploaderPage />, '/#S2', '/').ui);
    const root = view.container;
    await pick(byTestId(root, 'file-input'), [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'next'));
    await setValue(byTestId(root, 'transfer-message'), 'x'.repeat(501));
    expect(byTestId<HTMLButtonElement>(root, 'start-upload').disabled).toBe(true);
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('501 characters, 500 at most');
    await setValue(byTestId(root, 'transfer-message'), 'hi');
    expect(byTestId<HTMLButtonElement>(root, 'start-upload').disabled).toBe(false);
    await setValue(byTestId(root, 'sender-email'), 'me@example.com');
    expect(JSON.parse(localStorage.getItem('ferry.sender') ?? '{}')).toMatchObject({
      email: 'me@example.com',
      name: '',
    });
  });

  it('opens the file picker from the drop zone and keeps folder paths', async () => {
    view = await render(harness(<UploaderPage />, '/').ui);
    const root = view.container;
    const input = byTestId<HTMLInputElement>(root, 'file-input');
    const clicked = vi.spyOn(input, 'click').mockImplementation(() => undefined);
    await click(byTestId(root, 'dropzone'));
    expect(clicked).toHaveBeenCalledOnce();
    expect(byTestId(root, 'folder-input').hasAttribute('webkitdirectory')).toBe(true);
    const inFolder = new File(['x'], 'a.txt');
    Object.defineProperty(inFolder, 'webkitRelativePath', { value: 'album/a.txt' });
    await pick(byTestId(root, 'folder-input'), [inFolder]);
    expect(root.querySelector('.file-row-folder')?.textContent).toBe('album/');
  });

  it('offers to resume an unfinished transfer, and discards it on request', async () => {
    const pending = pendingUpload();
    localStorage.setItem(PENDING_STORAGE_KEY, JSON.stringify(pending));
    const state = transferSummary({
      transferId: pending.transferId,
      status: 'UPLOADING',
      link: pending.link,
      expiresAt: pending.expiresAt,
      totalSize: 1,
      files: [{ id: 'FILE01', name: 'a.txt', relativePath: null, size: 1, sha256: null, uploaded: false }],
    });
    const fetchMock = vi.fn(async (_input: string) => new Response(JSON.stringify(state), { status: 200 }));
    vi.stubGlobal('fetch', fetchMock);
    view = await render(harness(<UploaderPage />, '/').ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'resume-banner').textContent).toContain('Unfinished transfer');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/transfer/transfers/AbCdEfGhIjKlMnOp/upload-state');

    // A file that is not part of it is refused with a notice, not silently mixed in.
    await pick(byTestId(root, 'file-input'), [new File(['zz'], 'other.txt')]);
    expect(toastTexts(root).at(-1)).toContain('not part of the unfinished transfer');

    await click(byTestId(root, 'resume-discard'));
    expect(root.querySelector('[data-testid="resume-banner"]')).toBeNull();
    expect(localStorage.getItem(PENDING_STORAGE_KEY)).toBeNull();
  });

  it('forgets an unfinished transfer the server no longer knows', async () => {
    localStorage.setItem(
      PENDING_STORAGE_KEY,
      JSON.stringify({
        transferId: 'AbCdEfGhIjKlMnOp',
        uploadToken: 'tok',
        uploadEndpoint: '/u',
        link: '/dl/x',
        expiresAt: '2999-01-01T00:00:00.000Z',
        createdAt: '',
        files: [{ id: 'FILE01', name: 'a.txt', size: 1, relativePath: null, lastModified: 0 }],
      }),
    );
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response('{"status":404,"error":"Not Found","message":"x","codes":["TRANSFER_NOT_FOUND"]}', {
            status: 404,
          }),
      ),
    );
    view = await render(harness(<UploaderPage />, '/').ui);
    await flush();
    expect(view.container.querySelector('[data-testid="resume-banner"]')).toBeNull();
    expect(localStorage.getItem(PENDING_STORAGE_KEY)).toBeNull();
  });

  it('sends by e-mail at /#S1: asks for recipients and the sender, then creates an S1 transfer', async () => {
    localStorage.setItem(
      'ferry.sender',
      JSON.stringify({
        email: '',
        name: 'Me',
        verifications: [{ email: 'Me@Example.com', token: 'proof-1', expiresAt: '2999-01-01T00:00:00.000Z' }],
      }),
    );
    const bodies: unknown[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_input: string, init?: RequestInit) => {
        bodies.push(JSON.parse(String(init?.body)));
        return new Response(
          JSON.stringify({
            status: 400,
            error: 'Bad Request',
            message: 'too many',
            limitErrors: [{ limit: 'recipients', max: 10, actual: 11 }],
          }),
          { status: 400 },
        );
      }),
    );
    view = await render(harness(<UploaderPage />, '/#S1', '/').ui);
    const root = view.container;
    expect(byTestId<HTMLInputElement>(root, 'type-S1').checked).toBe(true);
    await pick(byTestId(root, 'file-input'), [new File(['abc'], 'plan.pdf')]);
    await click(byTestId(root, 'next'));
    expect(byTestId(root, 'start-upload').textContent).toBe('Send');
    expect(byTestId<HTMLInputElement>(root, 'notify-download-confirmation').checked).toBe(true);
    expect(byTestId<HTMLInputElement>(root, 'notify-expiry-reminder').checked).toBe(true);

    // Nothing filled in: the sender is told what is missing, and the recipients field gets the focus.
    await click(byTestId(root, 'start-upload'));
    expect(byTestId(root, 'recipients-error').textContent).toBe('Add at least one recipient.');
    expect(document.activeElement).toBe(byTestId(root, 'recipients-input'));
    expect(root.textContent).toContain('Enter your e-mail address: we send you a code to confirm it');
    expect(bodies).toEqual([]);

    const recipients = byTestId<HTMLInputElement>(root, 'recipients-input');
    const paste = new Event('paste', { bubbles: true, cancelable: true }) as Event & {
      clipboardData: { getData: () => string };
    };
    paste.clipboardData = { getData: () => 'ann@example.com, bob@example.com' };
    await act(async () => {
      recipients.dispatchEvent(paste);
    });
    await setValue(byTestId(root, 'sender-email'), 'me@example.com');
    await click(byTestId(root, 'notify-expiry-reminder'));
    await click(byTestId(root, 'start-upload'));
    await flush();

    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toMatchObject({
      type: 'S1',
      recipients: ['ann@example.com', 'bob@example.com'],
      senderEmail: 'me@example.com',
      senderName: 'Me',
      // The proof kept from an earlier verification of this address (any case): no new code needed.
      senderVerificationToken: 'proof-1',
      downloadConfirmation: true,
      expiryReminder: false,
    });
    expect(toastTexts(root)).toContain('Too many recipients: 11, 10 at most.');
    // Back on the options, nothing lost.
    expect(root.querySelectorAll('[data-testid="recipient-chip"]')).toHaveLength(2);
  });

  it('switches between e-mail and link without losing the files', async () => {
    const { ui, router } = harness(<UploaderPage />, '/', '/');
    view = await render(ui);
    const root = view.container;
    await pick(byTestId(root, 'file-input'), [new File(['abc'], 'plan.pdf')]);
    await click(byTestId(root, 'type-S2'));
    expect(router.state.location.hash).toBe('#S2');
    await click(byTestId(root, 'next'));
    expect(root.querySelector('[data-testid="recipients-input"]')).toBeNull();
    expect(byTestId<HTMLInputElement>(root, 'force-downloader-email').checked).toBe(false);
    expect(byTestId(root, 'start-upload').textContent).toBe('Transfer');
    await click(byTestId(root, 'type-S1'));
    expect(byTestId(root, 'recipients-input')).toBeTruthy();
    const back = [...root.querySelectorAll('button')].find((b) => b.textContent === 'Back');
    await click(back as HTMLButtonElement);
    expect(byTestId(root, 'file-total').textContent).toBe('1 file · 3 B');
  });

  it('after a reload, takes the code of an uploaded e-mail transfer, then shows each recipient', async () => {
    const pending = s1PendingUpload({
      recipients: ['ann@example.com', 'bob@example.com'],
      uploaded: true,
    });
    localStorage.setItem(PENDING_STORAGE_KEY, JSON.stringify(pending));
    const recipient = (email: string, delivery: 'waiting' | 'queued') => ({
      email,
      delivery,
      error: null,
      downloadedAt: null,
    });
    const waiting = transferSummary({
      type: 'S1',
      totalSize: 1,
      files: [{ id: 'FILE01', name: 'a.txt', relativePath: null, size: 1, sha256: null, uploaded: true }],
      senderEmail: 'me@example.com',
      senderVerification: 'pending',
      recipients: [recipient('ann@example.com', 'waiting'), recipient('bob@example.com', 'waiting')],
    });
    const sent = {
      ...waiting,
      senderVerification: 'verified',
      sentAt: '2030-01-01T00:00:00.000Z',
      recipients: [recipient('ann@example.com', 'queued'), recipient('bob@example.com', 'queued')],
    };
    const fetchMock = vi.fn(async (input: string, init?: RequestInit) => {
      if (input.endsWith('/upload-state')) return new Response(JSON.stringify(waiting), { status: 200 });
      if (input.endsWith('/sender-verification') && init?.method === 'POST')
        return new Response(
          JSON.stringify({
            transfer: sent,
            senderVerificationToken: 'proof-2',
            expiresAt: '2999-01-01T00:00:00Z',
          }),
          { status: 200 },
        );
      return new Response('', { status: 500 });
    });
    vi.stubGlobal('fetch', fetchMock);
    view = await render(harness(<UploaderPage />, '/', '/').ui);
    await flush();
    await flush();
    const root = view.container;
    expect(byTestId(root, 'send-status').dataset.state).toBe('waiting_code');
    expect(byTestId(root, 'send-status').textContent).toBe('Waiting for your code');
    expect(byTestId(root, 'send-status-code').textContent).toContain('me@example.com');
    expect(byTestId(root, 'verification-email').textContent).toBe(
      'We sent a code to me@example.com. Enter it here and your transfer goes out at once.',
    );
    // No file needs to be added again: the upload is done.
    expect(root.querySelector('[data-testid="resume-banner"]')).toBeNull();
    expect(root.querySelector('[data-testid="progress-total"]')).toBeNull();

    await setValue(byTestId(root, 'verification-code'), '123456');
    await flush();
    expect(byTestId(root, 'send-status').dataset.state).toBe('sent');
    expect(byTestId(root, 'send-status').textContent).toBe('Sent to 2 recipients');
    expect(
      [...root.querySelectorAll<HTMLElement>('[data-testid="recipient-status"]')].map((r) => r.dataset.email),
    ).toEqual(['ann@example.com', 'bob@example.com']);
    expect(localStorage.getItem(PENDING_STORAGE_KEY)).toBeNull();
    expect(JSON.parse(localStorage.getItem('ferry.sender') ?? '{}').verifications).toEqual([
      { email: 'me@example.com', token: 'proof-2', expiresAt: '2999-01-01T00:00:00Z' },
    ]);
    expect(toastTexts(root)).toContain('E-mail address confirmed.');
  });

  it('offers the code in the resume banner of an e-mail transfer still uploading', async () => {
    const pending = s1PendingUpload();
    localStorage.setItem(PENDING_STORAGE_KEY, JSON.stringify(pending));
    const uploading = transferSummary({
      type: 'S1',
      status: 'UPLOADING',
      files: [{ id: 'FILE01', name: 'a.txt', relativePath: null, size: 1, sha256: null, uploaded: false }],
      senderVerification: 'pending',
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) =>
        input.endsWith('/upload-state')
          ? new Response(JSON.stringify(uploading), { status: 200 })
          : new Response(
              JSON.stringify({
                transfer: { ...uploading, senderVerification: 'verified' },
                senderVerificationToken: 'proof-3',
                expiresAt: '2999-01-01T00:00:00Z',
              }),
              { status: 200 },
            ),
      ),
    );
    view = await render(harness(<UploaderPage />, '/', '/').ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'resume-recipients').textContent).toBe('To: ann@example.com');
    await setValue(byTestId(root, 'verification-code'), '654321');
    await flush();
    expect(root.querySelector('[data-testid="verification"]')).toBeNull();
    const saved = JSON.parse(localStorage.getItem(PENDING_STORAGE_KEY) ?? '{}') as PendingTransfer;
    expect(saved.verification?.state).toBe('verified');
  });

  it('shows the code field of the resume banner only once the server has said where the transfer stands', async () => {
    localStorage.setItem(PENDING_STORAGE_KEY, JSON.stringify(s1PendingUpload()));
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    view = await render(harness(<UploaderPage />, '/', '/').ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'resume-banner')).toBeTruthy();
    // A transfer that turns out to be uploaded goes to the code step: a code typed here would be lost.
    expect(root.querySelector('[data-testid="verification-code"]')).toBeNull();
    const uploading = transferSummary({
      type: 'S1',
      status: 'UPLOADING',
      files: [{ id: 'FILE01', name: 'a.txt', relativePath: null, size: 1, sha256: null, uploaded: false }],
      senderVerification: 'pending',
    });
    answer(new Response(JSON.stringify(uploading), { status: 200 }));
    await flush();
    expect(byTestId(root, 'resume-banner').querySelector('[data-testid="verification-code"]')).toBeTruthy();
  });
});

/** A transfer saved by the browser while its one file was uploading. */
function pendingUpload(): PendingTransfer {
  return {
    transferId: 'AbCdEfGhIjKlMnOp',
    uploadToken: 'tok',
    uploadEndpoint: '/api/transfer/uploads',
    link: '/dl/AbCdEfGhIjKlMnOp',
    expiresAt: '2999-01-01T00:00:00.000Z',
    createdAt: '2024-01-01T00:00:00.000Z',
    files: [{ id: 'FILE01', name: 'a.txt', size: 1, relativePath: null, lastModified: 0 }],
  };
}

/** The same as an e-mail transfer whose sender's code was asked for (`verification` changes what differs). */
function s1PendingUpload(
  verification: Partial<NonNullable<PendingTransfer['verification']>> = {},
): PendingTransfer {
  return {
    ...pendingUpload(),
    verification: {
      type: 'S1',
      senderEmail: 'me@example.com',
      recipients: ['ann@example.com'],
      state: 'pending',
      codeSentAt: new Date().toISOString(),
      resendAfterSeconds: 60,
      uploaded: false,
      ...verification,
    },
  };
}
