import { afterEach, describe, expect, it, vi } from 'vitest';
import { harness } from '../../test/app-harness';
import { byTestId, click, flush, type Rendered, render } from '../../test/render';
import { UnsubscribePage } from './unsubscribe-page';

function serve(response: () => Response) {
  const fetchMock = vi.fn(async (_input: string, _init?: RequestInit) => response());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function json(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status });
}

describe('unsubscribe page', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('explains what stops and does nothing until the button is pressed', async () => {
    const fetchMock = serve(() => json({ kind: 'downloadConfirmation', transferName: 'Holiday photos' }));
    view = await render(harness(<UnsubscribePage />, '/unsubscribe?token=tok%2Fen', '/unsubscribe').ui);
    await flush();
    const root = view.container;
    // Opening the link (as mail scanners do) must not turn anything off.
    expect(fetchMock).not.toHaveBeenCalled();
    expect(root.querySelector('h1')?.textContent).toBe('Turn off these e-mails?');
    expect(root.textContent).toContain('each time someone downloads the transfer');

    await click(byTestId(root, 'unsubscribe-confirm'));
    await flush();
    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/transfer/notifications/unsubscribe?token=tok%2Fen');
    expect(init.method).toBe('POST');
    expect(byTestId(root, 'unsubscribe-result').textContent).toBe(
      'You will no longer be told when “Holiday photos” is downloaded.',
    );
    expect(byTestId(root, 'unsubscribe-result').dataset.kind).toBe('downloadConfirmation');
    expect(root.querySelector('[data-testid="unsubscribe-confirm"]')).toBeNull();
  });

  it('names expiry reminders, also for a transfer without a name', async () => {
    serve(() => json({ kind: 'expiryReminder', transferName: null }));
    view = await render(harness(<UnsubscribePage />, '/unsubscribe?token=abc', '/unsubscribe').ui);
    await click(byTestId(view.container, 'unsubscribe-confirm'));
    await flush();
    expect(byTestId(view.container, 'unsubscribe-result').textContent).toBe(
      'You will no longer get reminders before this transfer expires.',
    );
  });

  it('says the link does not work for an unknown token (404)', async () => {
    serve(() => json({ status: 404, error: 'Not Found', message: 'x', codes: ['TRANSFER_NOT_FOUND'] }, 404));
    view = await render(harness(<UnsubscribePage />, '/unsubscribe?token=bad', '/unsubscribe').ui);
    await click(byTestId(view.container, 'unsubscribe-confirm'));
    await flush();
    expect(view.container.querySelector('h1')?.textContent).toBe('This link does not work');
    expect(byTestId(view.container, 'unsubscribe-error').getAttribute('role')).toBe('alert');
  });

  it('says so at once when the link has no token, without calling the server', async () => {
    const fetchMock = serve(() => json({}));
    view = await render(harness(<UnsubscribePage />, '/unsubscribe', '/unsubscribe').ui);
    await flush();
    expect(view.container.querySelector('h1')?.textContent).toBe('This link does not work');
    expect(view.container.querySelector('[data-testid="unsubscribe-confirm"]')).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('keeps the button after a network failure, with the reason, so it can be tried again', async () => {
    let calls = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        calls++;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return json({ kind: 'expiryReminder', transferName: 'Plans' });
      }),
    );
    view = await render(harness(<UnsubscribePage />, '/unsubscribe?token=abc', '/unsubscribe').ui);
    const root = view.container;
    await click(byTestId(root, 'unsubscribe-confirm'));
    await flush();
    expect(byTestId(root, 'unsubscribe-error').textContent).toContain('The server cannot be reached');
    await click(byTestId(root, 'unsubscribe-confirm'));
    await flush();
    expect(byTestId(root, 'unsubscribe-result').textContent).toBe(
      'You will no longer get reminders before “Plans” expires.',
    );
  });
});
