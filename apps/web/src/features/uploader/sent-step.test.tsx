import type { RecipientStatus, TransferSummary } from '@ferry/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transferSummary } from '../../test/fixtures';
import { byTestId, type Rendered, render } from '../../test/render';
import { ToastProvider } from '../toasts/toast-context';
import { allDeliveriesFinal, SentStep } from './sent-step';

const recipient = (email: string, delivery: RecipientStatus['delivery'], error: string | null = null) => ({
  email,
  delivery,
  error,
  downloadedAt: null,
});

function sent(recipients: RecipientStatus[]): TransferSummary {
  return transferSummary({
    type: 'S1',
    name: 'Plans',
    totalSize: 2_000_000,
    senderEmail: 'me@example.com',
    senderVerification: 'verified',
    sentAt: '2030-01-01T00:00:00.000Z',
    recipients,
  });
}

function rows(root: HTMLElement) {
  return [...root.querySelectorAll<HTMLElement>('[data-testid="recipient-status"]')].map((row) => ({
    email: row.dataset.email,
    delivery: row.dataset.delivery,
    text: row.textContent,
  }));
}

async function wait(ms: number) {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms));
  });
}

describe('allDeliveriesFinal', () => {
  it('is true once every e-mail is sent, rejected or in doubt; failed ones are still retried', () => {
    expect(allDeliveriesFinal([recipient('a@x.io', 'sent'), recipient('b@x.io', 'rejected')])).toBe(true);
    expect(allDeliveriesFinal([recipient('a@x.io', 'in_doubt')])).toBe(true);
    expect(allDeliveriesFinal([recipient('a@x.io', 'sent'), recipient('b@x.io', 'failed')])).toBe(false);
    expect(allDeliveriesFinal([recipient('a@x.io', 'queued')])).toBe(false);
    expect(allDeliveriesFinal([])).toBe(false);
  });
});

describe('SentStep', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  function mount(summary: TransferSummary, options: { pollMs?: number; pollLimitMs?: number } = {}) {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return render(
      <QueryClientProvider client={client}>
        <ToastProvider>
          <SentStep summary={summary} uploadToken="tok" onSendAnother={() => undefined} {...options} />
        </ToastProvider>
      </QueryClientProvider>,
    );
  }

  it('follows each recipient until every delivery is final, then stops asking', async () => {
    const answers = [
      sent([recipient('ann@example.com', 'queued'), recipient('bob@example.com', 'failed', '451 try later')]),
      sent([
        recipient('ann@example.com', 'sent'),
        recipient('bob@example.com', 'rejected', '550 5.1.1 no such user'),
      ]),
    ];
    const fetchMock = vi.fn(
      async (_url: string, _init?: RequestInit) =>
        new Response(JSON.stringify(answers.shift() ?? answers.at(-1)), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    view = await mount(
      sent([recipient('ann@example.com', 'waiting'), recipient('bob@example.com', 'waiting')]),
      {
        pollMs: 20,
      },
    );
    const root = view.container;
    expect(byTestId(root, 'send-status').textContent).toBe('Sent to 2 recipients');
    expect(rows(root).map((r) => r.delivery)).toEqual(['waiting', 'waiting']);

    await vi.waitFor(() => expect(rows(root).map((r) => r.delivery)).toEqual(['sent', 'rejected']), {
      timeout: 5000,
    });
    expect(rows(root)).toEqual([
      { email: 'ann@example.com', delivery: 'sent', text: 'ann@example.com Delivered' },
      {
        email: 'bob@example.com',
        delivery: 'rejected',
        text: 'bob@example.com RejectedTheir mail server refused it: 550 5.1.1 no such user. Check the address and send again.',
      },
    ]);
    expect(byTestId(root, 'delivery-problem').textContent).toContain('1 recipient did not get the e-mail.');
    const calls = fetchMock.mock.calls.length;
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/transfer/transfers/AbCdEfGhIjKlMnOp/upload-state');
    const headers = fetchMock.mock.calls[0]?.[1]?.headers as Record<string, string> | undefined;
    expect(headers?.['X-Upload-Token']).toBe('tok');
    await wait(100);
    expect(fetchMock.mock.calls.length).toBe(calls);
    expect(root.querySelector('[data-testid="delivery-progress"]')).toBeNull();
    expect(byTestId<HTMLInputElement>(root, 'transfer-link').value).toBe(
      'http://localhost:3000/dl/AbCdEfGhIjKlMnOp',
    );
  });

  it('gives up asking after the time limit and says the delivery goes on', async () => {
    const fetchMock = vi.fn(
      async () =>
        new Response(JSON.stringify(sent([recipient('ann@example.com', 'queued')])), { status: 200 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    view = await mount(sent([recipient('ann@example.com', 'queued')]), { pollMs: 20, pollLimitMs: 80 });
    expect(byTestId(view.container, 'delivery-progress').textContent).toBe('Checking delivery…');
    await vi.waitFor(
      () =>
        expect(byTestId(view.container, 'delivery-progress').textContent).toContain(
          'We stopped checking here',
        ),
      { timeout: 5000 },
    );
    const calls = fetchMock.mock.calls.length;
    await wait(100);
    expect(fetchMock.mock.calls.length).toBe(calls);
  });
});
