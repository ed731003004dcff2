import type { DownloadInfo } from '@ferry/core';
import i18next from 'i18next';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { harness, toastTexts } from '../../test/app-harness';
import { byTestId, click, flush, type Rendered, render } from '../../test/render';
import { DownloadPage } from './download-page';

const ID = 'AbCdEfGhIjKlMnOp';
const PATTERN = '/dl/:transferId/:fileId?';

const unlocked: DownloadInfo = {
  transferId: ID,
  name: 'Holiday photos',
  message: 'Enjoy!\nSee you',
  senderName: 'Alice',
  status: 'ENABLED',
  expiresAt: '2030-03-12T14:03:00.000Z',
  passwordProtected: true,
  locked: false,
  allowPreview: true,
  fileCount: 2,
  totalSize: 3_500_000,
  downloadsLeft: 4,
  price: null,
  purchased: true,
  files: [
    {
      id: 'FILE01',
      name: 'beach.jpg',
      relativePath: 'album/beach.jpg',
      size: 2_500_000,
      sha256: null,
      uploaded: true,
      scanStatus: 'clean',
    },
    {
      id: 'FILE02',
      name: 'notes.txt',
      relativePath: null,
      size: 1_000_000,
      sha256: null,
      uploaded: true,
      scanStatus: 'not-scanned',
    },
  ],
  downloaderEmailRequired: false,
  recipientEmail: null,
  virusScan: true,
};
const locked: DownloadInfo = { ...unlocked, locked: true, files: [] };

type Handler = (url: URL, init: RequestInit | undefined) => Response;
function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify(body), { status, headers });
}
function coded(status: number, code: string, headers: Record<string, string> = {}) {
  return json({ status, error: 'x', message: code, codes: [code] }, status, headers);
}
function serve(handler: Handler) {
  const fetchMock = vi.fn(async (input: string, init?: RequestInit) =>
    handler(new URL(input, 'http://x'), init),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('download page', () => {
  let view: Rendered;
  afterEach(async () => {
    vi.useRealTimers();
    await act(async () => {
      await i18next.changeLanguage('en');
    });
    sessionStorage.clear();
    await view?.unmount();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('asks for the password, tells wrong from rate limited, then lists the files', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    let attempts = 0;
    serve((url, init) => {
      if (url.pathname.endsWith('/info'))
        return json(url.searchParams.get('password') === 'right' ? unlocked : locked);
      if (url.pathname.endsWith('/check-password')) {
        const { password } = JSON.parse(String(init?.body)) as { password: string };
        attempts++;
        if (attempts === 2) return coded(429, 'RATE_LIMITED', { 'Retry-After': '7' });
        return password === 'right' ? json({ ok: true }) : coded(403, 'WRONG_PASSWORD');
      }
      return new Response('', { status: 500 });
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    const root = view.container;
    const input = byTestId<HTMLInputElement>(root, 'password-input');

    const submitWith = async (value: string) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
      await act(async () => input.dispatchEvent(new Event('input', { bubbles: true })));
      await click(byTestId(root, 'password-submit'));
      await flush();
    };
    await submitWith('wrong');
    expect(byTestId(root, 'password-error').textContent).toBe('Wrong password.');
    await submitWith('again');
    expect(byTestId(root, 'password-error').textContent).toBe(
      'Too many attempts. Try again in about 7 seconds.',
    );
    // Locked until Retry-After has passed: the page then says so and takes the password again.
    expect(byTestId<HTMLButtonElement>(root, 'password-submit').disabled).toBe(true);
    await act(async () => vi.advanceTimersByTime(7_000));
    expect(byTestId(root, 'password-error').textContent).toBe('You can try the password again now.');
    expect(byTestId<HTMLButtonElement>(root, 'password-submit').disabled).toBe(false);
    await submitWith('right');
    await flush();
    expect(root.querySelector('h1')?.textContent).toBe('Holiday photos');
    expect(root.textContent).toContain('Sent by Alice');
    expect(byTestId(root, 'download-summary').textContent).toBe('2 files · 3.50 MB');
    expect(byTestId(root, 'file-row-FILE01').querySelector('.file-row-folder')?.textContent).toBe('album/');
  });

  it("checks an S1 transfer's password with the personal link's secret, as the info call does", async () => {
    const bodies: unknown[] = [];
    serve((url, init) => {
      if (url.pathname.endsWith('/info'))
        return json(url.searchParams.get('password') === 'right' ? unlocked : locked);
      if (url.pathname.endsWith('/check-password')) {
        bodies.push(JSON.parse(String(init?.body)));
        return json({ ok: true });
      }
      return new Response('', { status: 500 });
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}?userSecret=s3cr3t`, PATTERN).ui);
    await flush();
    const root = view.container;
    const input = byTestId<HTMLInputElement>(root, 'password-input');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, 'right');
    await act(async () => input.dispatchEvent(new Event('input', { bubbles: true })));
    await click(byTestId(root, 'password-submit'));
    await flush();
    expect(bodies).toEqual([{ transferId: ID, password: 'right', userSecret: 's3cr3t' }]);
  });

  it.each([
    ['en', 'Too many attempts. Try again in about 15 minutes.'],
    ['fr', 'Trop de tentatives. Réessayez dans environ 15 minutes.'],
  ])('a locked password says the wait in words (%s) and disables the button meanwhile', async (lng, said) => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    serve((url) => {
      if (url.pathname.endsWith('/info')) return json(locked);
      if (url.pathname.endsWith('/check-password'))
        return coded(429, 'RATE_LIMITED', { 'Retry-After': '892' });
      return new Response('', { status: 500 });
    });
    await act(async () => {
      await i18next.changeLanguage(lng);
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    const root = view.container;
    const input = byTestId<HTMLInputElement>(root, 'password-input');
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, 'guess');
    await act(async () => input.dispatchEvent(new Event('input', { bubbles: true })));
    const button = byTestId<HTMLButtonElement>(root, 'password-submit');
    await click(button);
    await flush();
    // Intl may put a (narrow) no-break space between the number and its unit.
    expect(byTestId(root, 'password-error').textContent?.replace(/\s/g, ' ')).toBe(said);
    expect(button.disabled).toBe(true);
    await act(async () => vi.advanceTimersByTime(880_000)); // 12 s left: still locked
    expect(button.disabled).toBe(true);
    await act(async () => vi.advanceTimersByTime(12_000));
    expect(button.disabled).toBe(false);
  });

  it.each([
    ['en', '2 files · 3.50 MB', '2.50 MB'],
    ['fr', '2 fichiers · 3,50\u202fMo', '2,50\u202fMo'],
    ['de', '2 Dateien · 3,50 MB', '2,50 MB'],
  ])('shows the sizes in the page’s language (%s)', async (lng, summary, fileSize) => {
    serve((url) =>
      url.pathname.endsWith('/info')
        ? json({ ...unlocked, passwordProtected: false })
        : new Response('', { status: 500 }),
    );
    await act(async () => {
      await i18next.changeLanguage(lng);
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'download-summary').textContent).toBe(summary);
    expect(byTestId(root, 'file-row-FILE01').querySelector('.file-row-size')?.textContent).toBe(fileSize);
  });

  it('gives the locked page its own <h1>, the password prompt', async () => {
    serve((url) => (url.pathname.endsWith('/info') ? json(locked) : new Response('', { status: 500 })));
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    const headings = view.container.querySelectorAll('h1');
    expect(headings).toHaveLength(1);
    expect(headings[0]?.textContent).toBe('This transfer is protected');
  });

  it('downloads a file through a hidden link, with the password', async () => {
    const fetchMock = serve((url) => {
      if (url.pathname.endsWith('/info')) return json({ ...unlocked, passwordProtected: false });
      if (url.pathname.endsWith('/link')) {
        return json({
          url: '/api/transfer/downloads/blob/tok123',
          fileName: 'beach.jpg',
          size: 2_500_000,
          sha256: null,
          expiresAt: '2030-01-01T00:00:00Z',
        });
      }
      return new Response('', { status: 500 });
    });
    const clicks: HTMLAnchorElement[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}/FILE01`, PATTERN).ui);
    await flush();
    const root = view.container;
    // The file named in the link is offered first.
    expect(byTestId(root, 'file-row-FILE01').className).toContain('is-highlighted');
    expect(root.textContent).toContain('This link points to album/beach.jpg.');

    await click(byTestId(root, 'download-file-FILE01'));
    await flush();
    const linkCall = fetchMock.mock.calls.find(([u]) => String(u).includes('/link'));
    const linkUrl = new URL(String(linkCall?.[0]), 'http://ferry.test');
    expect(linkUrl.pathname).toBe('/api/transfer/downloads/link');
    expect(linkUrl.searchParams.get('transferId')).toBe(ID);
    expect(linkUrl.searchParams.get('fileId')).toBe('FILE01');
    // Every download of one visit carries the same browser code, so the server counts them as one.
    expect(linkUrl.searchParams.get('browserCode')).toMatch(/^[0-9a-f-]{36}$/);
    expect(linkUrl.searchParams.get('orderId')).toMatch(/^\d+$/);
    expect(clicks).toHaveLength(1);
    expect(clicks[0]?.getAttribute('href')).toBe('/api/transfer/downloads/blob/tok123');
    expect(clicks[0]?.download).toBe('beach.jpg');
    expect(clicks[0]?.isConnected).toBe(false);

    await click(byTestId(root, 'download-all'));
    await flush();
    const zipCall = fetchMock.mock.calls.filter(([u]) => String(u).includes('/link'))[1];
    const zipUrl = new URL(String(zipCall?.[0]), 'http://ferry.test');
    expect(zipUrl.searchParams.get('transferId')).toBe(ID);
    expect(zipUrl.searchParams.has('fileId')).toBe(false);
    expect(zipUrl.searchParams.get('browserCode')).toBe(linkUrl.searchParams.get('browserCode'));
  });

  it("shows each file's virus scan, asks again while it runs, and offers no download of an infected file", async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const scanning = {
      ...unlocked,
      passwordProtected: false,
      status: 'SCANNING',
      files: unlocked.files.map((f) => ({ ...f, scanStatus: 'pending' })),
    };
    const [first, second] = unlocked.files;
    const scanned = {
      ...unlocked,
      passwordProtected: false,
      files: [
        { ...first!, scanStatus: 'infected' },
        { ...second!, scanStatus: 'not-scanned' },
      ],
    };
    let done = false;
    const fetchMock = serve(() => json(done ? scanned : scanning));
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    expect(byTestId(view.container, 'download-not-ready').textContent).toContain('being checked for viruses');
    expect(byTestId(view.container, 'file-scan-FILE01').textContent).toBe('Being checked');
    expect((byTestId(view.container, 'download-all') as HTMLButtonElement).disabled).toBe(true);

    done = true;
    const calls = fetchMock.mock.calls.length;
    await act(async () => vi.advanceTimersByTime(5_000));
    await flush();
    expect(fetchMock.mock.calls.length).toBeGreaterThan(calls);
    expect(view.container.querySelector('[data-testid="download-not-ready"]')).toBeNull();
    expect(byTestId(view.container, 'file-scan-FILE01').textContent).toBe('Blocked: a virus was found');
    expect((byTestId(view.container, 'download-file-FILE01') as HTMLButtonElement).disabled).toBe(true);
    expect(byTestId(view.container, 'file-scan-FILE02').textContent).toBe('Not scanned');
    expect((byTestId(view.container, 'download-file-FILE02') as HTMLButtonElement).disabled).toBe(false);
    // Nothing is pending any more: no further asking.
    const settled = fetchMock.mock.calls.length;
    await act(async () => vi.advanceTimersByTime(20_000));
    expect(fetchMock.mock.calls.length).toBe(settled);
  });

  it('says nothing of scanning per file when the server does not scan (every file is not-scanned)', async () => {
    serve(() => json({ ...unlocked, passwordProtected: false, virusScan: false }));
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    expect(byTestId(view.container, 'download-file-FILE01')).toBeTruthy();
    expect(view.container.querySelector('[data-testid^="file-scan-"]')).toBeNull();
  });

  it('shows the spec notice when the download limit is reached', async () => {
    serve((url) => {
      if (url.pathname.endsWith('/info')) return json({ ...unlocked, passwordProtected: false });
      return coded(403, 'TOO_MANY_DOWNLOADS');
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    await click(byTestId(view.container, 'download-all'));
    await flush();
    expect(toastTexts(view.container)).toContain('This transfer has reached its download limit.');
  });

  it('goes to /d/expired for an expired transfer and /d/notfound for an unknown one', async () => {
    serve(() => coded(410, 'TRANSFER_EXPIRED'));
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    await flush();
    expect(view.container.querySelector('[data-testid="at-expired"]')).not.toBeNull();
    await view.unmount();

    serve(() => coded(404, 'TRANSFER_NOT_FOUND'));
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    await flush();
    expect(view.container.querySelector('[data-testid="at-notfound"]')).not.toBeNull();
  });

  it('opens at a custom link: the info is asked by the link, and the page shows the transfer', async () => {
    const fetchMock = serve(() => json(unlocked));
    view = await render(harness(<DownloadPage />, '/dl/q3-report', PATTERN).ui);
    await flush();
    const infoUrl = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x');
    expect(infoUrl.searchParams.get('transferId')).toBe('q3-report');
    expect(view.container.textContent).toContain('Holiday photos');
  });

  it('says when a transfer not open yet opens, counts down, and shows the files once it opened', async () => {
    const opens = new Date(Date.now() + 1500);
    let asked = 0;
    serve(() => {
      asked++;
      return Date.now() < opens.getTime()
        ? json(
            {
              status: 403,
              error: 'x',
              message: 'later',
              codes: ['NOT_YET_AVAILABLE'],
              details: { availableFrom: opens.toISOString() },
            },
            403,
          )
        : json({ ...unlocked, passwordProtected: false });
    });
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'download-opens').textContent).toContain('Not available yet');
    expect(byTestId(root, 'download-countdown').textContent).toMatch(/^Opens in \d+s$/);
    for (let i = 0; i < 100 && !root.textContent?.includes('beach.jpg'); i++) {
      await act(async () => {
        await new Promise((r) => setTimeout(r, 100));
      });
      await flush();
    }
    expect(root.querySelector('[data-testid="download-opens"]')).toBeNull();
    expect(root.textContent).toContain('beach.jpg');
    expect(asked).toBeGreaterThanOrEqual(2);
  });

  it('does not even ask the server about a malformed id', async () => {
    const fetchMock = serve(() => json(unlocked));
    view = await render(harness(<DownloadPage />, '/dl/not_an_id', PATTERN).ui);
    await flush();
    expect(view.container.querySelector('[data-testid="at-notfound"]')).not.toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("passes a recipient's userSecret to the info and every link call, and greets them", async () => {
    const fetchMock = serve((url) => {
      if (url.pathname.endsWith('/info'))
        return json({
          ...unlocked,
          passwordProtected: false,
          recipientEmail: url.searchParams.get('userSecret') === 's3cr3t' ? 'ann@example.com' : null,
        });
      if (url.pathname.endsWith('/link'))
        return json({
          url: '/blob/1',
          fileName: 'a.zip',
          size: 1,
          sha256: null,
          expiresAt: '2030-01-01T00:00:00Z',
        });
      return new Response('', { status: 500 });
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    view = await render(harness(<DownloadPage />, `/dl/${ID}?userSecret=s3cr3t`, PATTERN).ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'recipient-greeting').textContent).toBe('Sent to you, ann@example.com');
    const infoUrl = new URL(String(fetchMock.mock.calls[0]?.[0]), 'http://x');
    expect(infoUrl.searchParams.get('userSecret')).toBe('s3cr3t');

    await click(byTestId(root, 'download-file-FILE02'));
    await flush();
    await click(byTestId(root, 'download-all'));
    await flush();
    const links = fetchMock.mock.calls
      .map(([u]) => new URL(String(u), 'http://x'))
      .filter((u) => u.pathname.endsWith('/link'));
    expect(links).toHaveLength(2);
    for (const link of links) {
      expect(link.searchParams.get('userSecret')).toBe('s3cr3t');
      // A recipient's link says who downloads: no e-mail is asked for or sent.
      expect(link.searchParams.has('downloaderEmail')).toBe(false);
    }
  });

  it("asks for the downloader's e-mail before any download when the sender wants it", async () => {
    const fetchMock = serve((url) => {
      if (url.pathname.endsWith('/info'))
        return json({ ...unlocked, passwordProtected: false, downloaderEmailRequired: true });
      if (url.pathname.endsWith('/link')) {
        if (!url.searchParams.get('downloaderEmail')) return coded(401, 'DOWNLOADER_EMAIL_REQUIRED');
        return json({
          url: '/blob/1',
          fileName: 'notes.txt',
          size: 1,
          sha256: null,
          expiresAt: '2030-01-01T00:00:00Z',
        });
      }
      return new Response('', { status: 500 });
    });
    const clicks = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'downloader-email-form')).toBeTruthy();
    expect(byTestId<HTMLButtonElement>(root, 'download-all').disabled).toBe(true);
    expect(byTestId<HTMLButtonElement>(root, 'download-file-FILE02').disabled).toBe(true);

    const input = byTestId<HTMLInputElement>(root, 'downloader-email');
    const submitWith = async (value: string) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(input, value);
      await act(async () => input.dispatchEvent(new Event('input', { bubbles: true })));
      await click(byTestId(root, 'downloader-email-submit'));
    };
    await submitWith('not an address');
    expect(byTestId(root, 'downloader-email-error').textContent).toBe('Enter a valid e-mail address.');
    expect(byTestId<HTMLButtonElement>(root, 'download-all').disabled).toBe(true);

    await submitWith(' dora@example.com ');
    expect(root.querySelector('[data-testid="downloader-email-form"]')).toBeNull();
    expect(byTestId(root, 'downloading-as').textContent).toContain('Downloading as dora@example.com');
    // Remembered for the visit: a reload of the tab does not ask again.
    expect(JSON.parse(sessionStorage.getItem('ferry.downloaderEmail') ?? 'null')).toBe('dora@example.com');

    await click(byTestId(root, 'download-file-FILE02'));
    await flush();
    const link = fetchMock.mock.calls
      .map(([u]) => new URL(String(u), 'http://x'))
      .find((u) => u.pathname.endsWith('/link'));
    expect(link?.searchParams.get('downloaderEmail')).toBe('dora@example.com');
    expect(clicks).toHaveBeenCalledOnce();
  });

  it('asks again when the server refuses the download without an e-mail (401)', async () => {
    sessionStorage.setItem('ferry.downloaderEmail', JSON.stringify('old@example.com'));
    serve((url) => {
      if (url.pathname.endsWith('/info'))
        return json({ ...unlocked, passwordProtected: false, downloaderEmailRequired: true });
      return coded(401, 'DOWNLOADER_EMAIL_REQUIRED');
    });
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await flush();
    const root = view.container;
    expect(byTestId(root, 'downloading-as').textContent).toContain('old@example.com');
    await click(byTestId(root, 'download-all'));
    await flush();
    expect(byTestId(root, 'downloader-email-error').textContent).toBe(
      'Enter your e-mail address to download these files.',
    );
    expect(toastTexts(root)).toContain('Enter your e-mail address to download these files.');
    expect(sessionStorage.getItem('ferry.downloaderEmail')).toBeNull();
    expect(byTestId<HTMLButtonElement>(root, 'download-all').disabled).toBe(true);
  });
});
