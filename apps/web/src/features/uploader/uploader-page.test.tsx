import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { harness, toastTexts } from '../../test/app-harness';
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
    expect(byTestId(root, 'file-total').textContent).toBe('2 files · 8.00 B');
    expect(toastTexts(root)).toEqual([
      'setup.exe was skipped: executable files (.exe, .msi) cannot be sent.',
    ]);

    await click(byTestId(root, 'next'));
    expect(byTestId(root, 'start-upload')).toBeTruthy();
    expect(byTestId<HTMLSelectElement>(root, 'transfer-expiry').value).toBe('7');
    expect(byTestId<HTMLSelectElement>(root, 'transfer-expiry').options).toHaveLength(7);
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
    expect(JSON.parse(localStorage.getItem('ferry.sender') ?? '{}')).toEqual({
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
    const pending: PendingTransfer = {
      transferId: 'AbCdEfGhIjKlMnOp',
      uploadToken: 'tok',
      uploadEndpoint: '/api/transfer/uploads',
      link: '/dl/AbCdEfGhIjKlMnOp',
      expiresAt: '2999-01-01T00:00:00.000Z',
      createdAt: '2024-01-01T00:00:00.000Z',
      files: [{ id: 'FILE01', name: 'a.txt', size: 1, relativePath: null, lastModified: 0 }],
    };
    localStorage.setItem(PENDING_STORAGE_KEY, JSON.stringify(pending));
    const state = {
      transferId: pending.transferId,
      type: 'S2',
      status: 'UPLOADING',
      name: null,
      link: pending.link,
      expiresAt: pending.expiresAt,
      totalSize: 1,
      files: [{ id: 'FILE01', name: 'a.txt', relativePath: null, size: 1, sha256: null, uploaded: false }],
    };
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
});
