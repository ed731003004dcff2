import type { TransferDetail, TransferFilesAddResponse } from '@ferry/core';
import { act } from 'react';
import { useParams } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coded, type Handler, json, mockApi } from '../../../test/api-mock';
import { signedInState } from '../../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../../test/render';
import { userProfile } from '../../account/profile.fixture';
import type { TransportCallbacks, UploadTransport } from '../../uploader/upload-engine';
import { appHarness } from '../dashboard.fixture';
import { TransferDetailPage } from './transfer-detail-page';
import { listPage, transferDetail } from './transfers.fixture';

/** The uploads the page starts: the test says when bytes arrive and when each file is done. */
const uploads = vi.hoisted(
  () => [] as Array<{ fileId: string; token: string; callbacks: TransportCallbacks }>,
);
vi.mock('../../uploader/tus-transport', () => ({
  createTusTransport: (): UploadTransport => ({
    create(target, file, callbacks) {
      uploads.push({ fileId: file.id, token: target.uploadToken, callbacks });
      return { start: () => undefined, pause: async () => undefined };
    },
  }),
}));

const ID = 'AbCdEfGhIjKlMnOp';
const CLONE = 'ClOnEdTrAnSfEr01';
const ADDITION = 'AdDiTiOn00000001';
const DETAIL = (id: string) => `GET /api/transfer/transfers/${id}/detail`;

function Detail() {
  const { id = '' } = useParams();
  return <TransferDetailPage key={id} id={id} />;
}
const routes = [
  { path: '/dashboard/transfers/:id', element: <Detail /> },
  { path: '/dashboard/transfers', element: <p data-testid="list-page">list</p> },
];

function pick(input: HTMLInputElement, files: File[]) {
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  return act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('/dashboard/transfers/:id — clone and add files', () => {
  let view: Rendered;
  beforeEach(() => {
    uploads.length = 0;
    // No hashing worker here: the server's own checksum guards the bytes.
    vi.stubGlobal('Worker', undefined);
  });
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  /** What the fake server holds: each action's answer becomes what the detail gives next. */
  let current: TransferDetail;
  const answer = (detail: TransferDetail, status = 200) => {
    current = detail;
    return json(detail, status);
  };

  async function open(extra: Record<string, Handler | Handler[]> = {}, detail = transferDetail()) {
    current = detail;
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [DETAIL(ID)]: () => json(current),
      'GET /api/transfer/transfers': () => json(listPage([])),
      ...extra,
    });
    const harness = appHarness(routes, `/dashboard/transfers/${ID}`);
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api, harness };
  }

  it('clones with the overrides chosen in the dialog, then follows the clone until its files are copied', async () => {
    const cloning: TransferDetail = transferDetail({
      transferId: CLONE,
      type: 'S2',
      status: 'CLONING',
      statusLabel: 'cloning',
      name: 'Copy',
      recipients: [],
      clonedFrom: ID,
    });
    const { root, api } = await open(
      {
        [`POST /api/transfer/transfers/${ID}/clone`]: [
          () =>
            json(
              {
                status: 400,
                error: 'Bad Request',
                message: 'x',
                limitErrors: [{ limit: 'storage', max: 1e11, actual: 2e11 }],
              },
              400,
            ),
          () => json(cloning, 201),
        ],
        [DETAIL(CLONE)]: [
          () => json(cloning),
          () => json({ ...cloning, status: 'ENABLED', statusLabel: 'enabled' }),
        ],
      },
      transferDetail({ passwordProtected: true, maxDownloads: 4 }),
    );
    await click(byTestId(root, 'clone-open'));
    const dialog = byTestId(document.body, 'clone-dialog');
    expect(byTestId<HTMLInputElement>(dialog, 'clone-name').value).toBe('Holiday photos');
    expect(byTestId<HTMLInputElement>(dialog, 'clone-type-S1').checked).toBe(true);
    expect(byTestId<HTMLTextAreaElement>(dialog, 'clone-recipients').value).toBe('bob@example.com');
    expect(byTestId<HTMLSelectElement>(dialog, 'clone-password').value).toBe('keep');
    expect(byTestId<HTMLInputElement>(dialog, 'clone-max-downloads').value).toBe('4');
    expect(document.activeElement).toBe(byTestId(dialog, 'clone-name'));

    await typeInto(byTestId(dialog, 'clone-name'), 'Copy');
    await click(byTestId(dialog, 'clone-type-S2'));
    expect(dialog.querySelector('[data-testid="clone-recipients"]')).toBeNull();
    await typeInto(byTestId(dialog, 'clone-max-downloads'), '');
    await click(byTestId(dialog, 'clone-preview'));
    await click(byTestId(dialog, 'clone-submit'));
    await settle();
    // Refused: said in words, in the dialog, which stays open.
    expect(byTestId(dialog, 'clone-error').textContent).toMatch(/storage/i);
    await click(byTestId(dialog, 'clone-submit'));
    await settle();
    expect(api.to(`POST /api/transfer/transfers/${ID}/clone`)[1]?.body).toEqual({
      name: 'Copy',
      type: 'S2',
      maxDownloads: null,
      allowPreview: false,
    });
    // The clone's page, "copying" until its files are there; the page asks again by itself.
    expect(byTestId(root, 'transfer-title').textContent).toBe('Copy');
    expect(byTestId(root, 'transfer-cloning').textContent).toContain('Copying the files');
    expect(document.body.textContent).toContain('Transfer cloned');
    expect(root.querySelector('[data-testid="clone-open"]')).toBeNull();
    await until(
      () => root.querySelector('[data-testid="transfer-cloning"]') === null,
      'the clone to be ready',
      4000,
    );
    expect(byTestId(root, 'transfer-summary').textContent).toContain('enabled');
    expect(byTestId(root, 'transfer-cloned-from').querySelector('a')?.getAttribute('href')).toBe(
      `/dashboard/transfers/${ID}`,
    );
  });

  it('adds files through the upload engine: progress, then completion, e-mail to the recipients if asked', async () => {
    const added: TransferFilesAddResponse = {
      transferId: ID,
      additionId: ADDITION,
      uploadToken: 'addition-token',
      uploadEndpoint: '/api/transfer/uploads',
      files: [{ id: 'NeW001', name: 'more.txt', relativePath: null, size: 4, sha256: null, uploaded: false }],
    };
    const completed = transferDetail({
      fileCount: 2,
      files: [
        ...transferDetail().files,
        {
          id: 'NeW001',
          name: 'more.txt',
          relativePath: null,
          size: 4,
          sha256: 'b'.repeat(64),
          uploaded: true,
        },
      ],
    });
    const { root, api } = await open({
      [`POST /api/transfer/transfers/${ID}/files`]: [() => coded(409, 'CONFLICT'), () => json(added, 201)],
      [`POST /api/transfer/transfers/${ID}/additions/${ADDITION}/complete`]: () => answer(completed),
    });
    await click(byTestId(root, 'add-files-open'));
    const panel = byTestId(root, 'add-files');
    expect(byTestId<HTMLButtonElement>(panel, 'add-files-start').disabled).toBe(true);
    await pick(byTestId(panel, 'file-input'), [
      new File(['MZ'], 'setup.exe'),
      new File(['more'], 'more.txt'),
    ]);
    // The refused name is skipped with its notice; the rest is kept.
    expect(document.body.textContent).toContain('setup.exe was skipped');
    expect(byTestId(panel, 'file-list').textContent).toContain('more.txt');
    await click(byTestId(panel, 'add-files-notify'));
    expect(byTestId(panel, 'add-files-start').textContent).toBe('Upload 1 file (4 B)');
    await click(byTestId(panel, 'add-files-start'));
    await settle();
    expect(byTestId(panel, 'add-files-error').textContent).not.toBe('');
    await click(byTestId(panel, 'add-files-start'));
    await settle();
    expect(api.to(`POST /api/transfer/transfers/${ID}/files`)[1]?.body).toEqual({
      files: [{ name: 'more.txt', size: 4 }],
    });

    // The uploader's engine and progress view, on the addition's own token.
    expect(uploads.map((u) => [u.fileId, u.token])).toEqual([['NeW001', 'addition-token']]);
    await act(async () => uploads[0]!.callbacks.onProgress(2));
    await until(() => byTestId<HTMLProgressElement>(panel, 'progress-total').value === 50, 'half the bytes');
    expect(byTestId(panel, 'pause')).toBeTruthy();
    await act(async () => uploads[0]!.callbacks.onSuccess());
    await settle();
    expect(api.to(`POST /api/transfer/transfers/${ID}/additions/${ADDITION}/complete`)[0]?.body).toEqual({
      files: [{ id: 'NeW001' }],
      notifyRecipients: true,
    });
    expect(document.body.textContent).toContain('1 file added.');
    expect([...root.querySelectorAll('[data-testid="file-name"]')].map((e) => e.textContent)).toEqual([
      'beach.jpg',
      'more.txt',
    ]);
    expect(root.querySelector('[data-testid="add-files"]')).toBeNull();
  });

  it('cancels an addition in progress, and drops one left unfinished', async () => {
    const added: TransferFilesAddResponse = {
      transferId: ID,
      additionId: ADDITION,
      uploadToken: 'addition-token',
      uploadEndpoint: '/api/transfer/uploads',
      files: [{ id: 'NeW001', name: 'more.txt', relativePath: null, size: 4, sha256: null, uploaded: false }],
    };
    const leftOver = transferDetail({
      additions: [
        {
          additionId: 'OlDaDdItIoN00001',
          createdAt: '2030-01-01T12:00:00.000Z',
          files: [
            { id: 'OlD001', name: 'old.bin', relativePath: null, size: 9, sha256: null, uploaded: false },
          ],
        },
      ],
    });
    const { root, api } = await open(
      {
        [`POST /api/transfer/transfers/${ID}/files`]: () => json(added, 201),
        [`DELETE /api/transfer/transfers/${ID}/additions/${ADDITION}`]: () => answer(leftOver),
        [`DELETE /api/transfer/transfers/${ID}/additions/OlDaDdItIoN00001`]: () => answer(transferDetail()),
      },
      leftOver,
    );
    expect(byTestId(root, 'transfer-addition').textContent).toContain('0 of 1 file uploaded');
    await click(byTestId(root, 'add-files-open'));
    await pick(byTestId(root, 'file-input'), [new File(['more'], 'more.txt')]);
    await click(byTestId(root, 'add-files-start'));
    await settle();
    const cancel = [...byTestId(root, 'add-files').querySelectorAll('button')].find(
      (b) => b.textContent === 'Cancel',
    );
    await click(cancel as HTMLButtonElement);
    await settle();
    expect(api.to(`DELETE /api/transfer/transfers/${ID}/additions/${ADDITION}`)).toHaveLength(1);
    expect(root.querySelector('[data-testid="add-files"]')).toBeNull();

    await click(byTestId(root, 'addition-cancel'));
    await click(byTestId(root, 'addition-cancel-yes'));
    await settle();
    expect(api.to(`DELETE /api/transfer/transfers/${ID}/additions/OlDaDdItIoN00001`)).toHaveLength(1);
    expect(root.querySelector('[data-testid="transfer-additions"]')).toBeNull();
    expect(document.body.textContent).toContain('Files dropped.');
  });

  it('offers neither on a transfer whose files are gone', async () => {
    const { root } = await open(
      {},
      transferDetail({
        status: 'DELETED',
        statusLabel: 'deleted',
        bytesDeletedAt: '2030-01-03T00:00:00.000Z',
      }),
    );
    expect(root.querySelector('[data-testid="clone-open"]')).toBeNull();
    expect(root.querySelector('[data-testid="add-files-open"]')).toBeNull();
  });
});
