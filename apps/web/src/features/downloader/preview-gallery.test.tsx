import type { DownloadInfo, DownloadLinkResponse, ThumbnailLink } from '@ferry/core';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harness } from '../../test/app-harness';
import { byTestId, click, type Rendered, render, settle, until } from '../../test/render';
import { DownloadPage } from './download-page';

const ID = 'PqRsTuVwXyZaBcDe';
const info: DownloadInfo = {
  transferId: ID,
  name: 'Shoot',
  message: null,
  senderName: null,
  status: 'ENABLED',
  expiresAt: '2030-03-12T14:03:00.000Z',
  passwordProtected: false,
  locked: false,
  allowPreview: true,
  fileCount: 3,
  totalSize: 3000,
  downloadsLeft: null,
  price: null,
  purchased: true,
  files: [
    {
      id: 'IMG001',
      name: 'beach.jpg',
      relativePath: null,
      size: 1000,
      sha256: null,
      uploaded: true,
      scanStatus: 'clean',
    },
    {
      id: 'TXT001',
      name: 'notes.txt',
      relativePath: null,
      size: 1000,
      sha256: null,
      uploaded: true,
      scanStatus: 'clean',
    },
    {
      id: 'BIN001',
      name: 'data.bin',
      relativePath: null,
      size: 1000,
      sha256: null,
      uploaded: true,
      scanStatus: 'clean',
    },
  ],
  downloaderEmailRequired: false,
  recipientEmail: null,
  virusScan: true,
};

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const rendition = (name: string) => `http://x/api/transfer/downloads/renditions/${name}`;
const link = (kind: 'image' | 'text', url: string): DownloadLinkResponse => ({
  url,
  fileName: kind === 'image' ? 'beach.jpg' : 'notes.txt',
  size: 10,
  sha256: null,
  expiresAt: '2030-01-01T00:00:00.000Z',
  preview: {
    kind,
    parts: [
      {
        url,
        contentType: kind === 'image' ? 'image/webp' : 'text/plain; charset=utf-8',
        width: 800,
        height: 600,
      },
    ],
    poster: null,
    pageCount: null,
  },
});

function serve(options: {
  info?: DownloadInfo;
  thumbnails?: () => ThumbnailLink[];
  preview?: (fileId: string) => Response;
}) {
  const calls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://x');
      calls.push(`${url.pathname}${url.search}`);
      if (url.pathname.endsWith('/info')) return json(options.info ?? info);
      if (url.pathname.endsWith('/thumbnail-links'))
        return json({ thumbnails: options.thumbnails?.() ?? [] });
      if (url.pathname.endsWith('/link')) return options.preview!(url.searchParams.get('fileId')!);
      if (url.pathname.endsWith('/renditions/text'))
        return new Response('first lines\nof the notes', { status: 200 });
      return new Response('', { status: 500 });
    }),
  );
  return calls;
}

const ready: ThumbnailLink[] = [
  {
    fileId: 'IMG001',
    status: 'ready',
    url: rendition('thumb'),
    width: 320,
    height: 240,
    kind: 'image',
    preview: true,
  },
  { fileId: 'TXT001', status: 'none', kind: 'text', preview: true },
  { fileId: 'BIN001', status: 'none', preview: false },
];

const key = async (target: Element, k: string) =>
  act(async () => {
    target.dispatchEvent(new KeyboardEvent('keydown', { key: k, bubbles: true }));
  });

describe('preview gallery and viewer', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows thumbnails, opens each kind in the viewer, moves with the arrows and closes with Escape', async () => {
    const calls = serve({
      thumbnails: () => ready,
      preview: (fileId) =>
        json(link(fileId === 'IMG001' ? 'image' : 'text', rendition(fileId === 'IMG001' ? 'big' : 'text'))),
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, '/dl/:transferId/:fileId?').ui);
    const root = view.container;
    await until(() => root.querySelector('[data-testid="preview-gallery"]') !== null, 'the gallery');
    // A file with neither thumbnail nor preview is left out; the text file shows its icon and opens.
    expect(root.querySelector('[data-testid="preview-item-BIN001"]')).toBeNull();
    const thumb = byTestId(root, 'preview-open-IMG001').querySelector('img')!;
    expect(thumb.getAttribute('src')).toBe(rendition('thumb'));
    expect(thumb.getAttribute('loading')).toBe('lazy');
    expect(calls.filter((c) => c.includes('/link'))).toEqual([]);

    const opener = byTestId(root, 'preview-open-IMG001');
    opener.focus();
    await click(opener);
    await until(() => root.querySelector('.preview-dialog-body img') !== null, 'the image');
    const dialog = byTestId(root, 'preview-viewer');
    expect(dialog.querySelector('.preview-dialog-body img')!.getAttribute('src')).toBe(rendition('big'));
    expect(byTestId(root, 'preview-position').textContent).toBe('1 of 2');
    expect(document.activeElement).toBe(byTestId(root, 'preview-close'));
    expect(calls.filter((c) => c.includes('/link'))).toEqual([
      `/api/transfer/downloads/link?transferId=${ID}&fileId=IMG001&preview=true`,
    ]);

    // Focus stays in the viewer: Shift+Tab from its first control goes to its last, Tab from there back.
    await act(async () => {
      document.activeElement!.dispatchEvent(
        new KeyboardEvent('keydown', { key: 'Tab', shiftKey: true, bubbles: true }),
      );
    });
    expect(document.activeElement).toBe(byTestId(root, 'preview-next'));
    await key(document.activeElement!, 'Tab');
    expect(document.activeElement).toBe(byTestId(root, 'preview-close'));

    await key(dialog, 'ArrowRight');
    await until(() => root.querySelector('[data-testid="preview-text"]') !== null, 'the text');
    expect(byTestId(root, 'preview-text').tagName).toBe('PRE');
    expect(byTestId(root, 'preview-text').textContent).toBe('first lines\nof the notes');
    // Back to the image: shown from this visit's answer, not asked (and counted) again.
    await key(dialog, 'ArrowLeft');
    await settle();
    expect(calls.filter((c) => c.includes('/link'))).toHaveLength(2);

    await key(dialog, 'Escape');
    await settle();
    expect(root.querySelector('[data-testid="preview-viewer"]')).toBeNull();
    expect(document.activeElement).toBe(byTestId(root, 'preview-open-IMG001'));
  });

  it('says when the transfer has reached its preview limit', async () => {
    serve({
      thumbnails: () => ready,
      preview: () =>
        json({ status: 403, error: 'Forbidden', message: 'x', codes: ['TOO_MANY_PREVIEWS'] }, 403),
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, '/dl/:transferId/:fileId?').ui);
    const root = view.container;
    await until(() => root.querySelector('[data-testid="preview-open-IMG001"]') !== null, 'the gallery');
    await click(byTestId(root, 'preview-open-IMG001'));
    await until(() => root.querySelector('[data-testid="preview-error"]') !== null, 'the notice');
    expect(byTestId(root, 'preview-error').textContent).toBe('This transfer has reached its preview limit.');
  });

  it('asks again while thumbnails are pending', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    let asked = 0;
    serve({
      thumbnails: () => {
        asked += 1;
        return asked < 3 ? [{ fileId: 'IMG001', status: 'pending', kind: 'image', preview: false }] : ready;
      },
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, '/dl/:transferId/:fileId?').ui);
    const root = view.container;
    for (let i = 0; i < 20 && asked < 3; i++)
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000);
      });
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    vi.useRealTimers();
    expect(asked).toBe(3);
    expect(root.querySelector('[data-testid="preview-open-IMG001"] img')).not.toBeNull();
  });

  it("holds the gallery's place with a tile per file while the thumbnails are asked, so the list does not jump", async () => {
    let answer: (thumbnails: ThumbnailLink[]) => void = () => undefined;
    const thumbnails = new Promise<ThumbnailLink[]>((resolve) => {
      answer = resolve;
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const url = new URL(input, 'http://x');
        if (url.pathname.endsWith('/info')) return json(info);
        if (url.pathname.endsWith('/thumbnail-links')) return json({ thumbnails: await thumbnails });
        return new Response('', { status: 500 });
      }),
    );
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, '/dl/:transferId/:fileId?').ui);
    const root = view.container;
    await until(
      () => root.querySelector('[data-testid="preview-gallery-loading"]') !== null,
      'the placeholder',
    );
    const loading = byTestId(root, 'preview-gallery-loading');
    expect(loading.getAttribute('aria-busy')).toBe('true');
    // before the list, where the gallery comes, one tile per file with its name
    expect([...loading.querySelectorAll('.preview-caption')].map((c) => c.textContent)).toEqual(
      info.files.map((f) => f.name),
    );
    expect(
      loading.compareDocumentPosition(byTestId(root, 'download-all')) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBe(Node.DOCUMENT_POSITION_FOLLOWING);
    answer(ready);
    await until(() => root.querySelector('[data-testid="preview-gallery"]') !== null, 'the gallery');
    expect(root.querySelector('[data-testid="preview-gallery-loading"]')).toBeNull();
  });

  it('shows no gallery and asks nothing when the sender turned previews off', async () => {
    const calls = serve({ info: { ...info, allowPreview: false } });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, '/dl/:transferId/:fileId?').ui);
    await settle();
    expect(view.container.querySelector('[data-testid="download-all"]')).not.toBeNull();
    expect(view.container.querySelector('[data-testid="preview-gallery"]')).toBeNull();
    expect(calls.some((c) => c.includes('thumbnail-links'))).toBe(false);
  });
});
