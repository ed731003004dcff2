import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18next } from '../../i18n';
import { coded, json, mockApi } from '../../test/api-mock';
import { byTestId, click, type Rendered, render, settle, typeInto, until } from '../../test/render';
import { WIDGET_ID, widgetPoint } from '../inboxes/inboxes.fixture';
import { WidgetPage } from './widget-page';
import { WidgetReceipt } from './widget-receipt';

const POINT = `GET /api/receive/points/widget/${WIDGET_ID}`;
const UPLOADS = 'POST /api/receive/uploads';

/** Picks files through the widget's hidden file input, as the browser's file chooser would. */
async function pick(root: HTMLElement, files: File[]) {
  const input = byTestId<HTMLInputElement>(root, 'file-input');
  Object.defineProperty(input, 'files', { configurable: true, value: files });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('/widgets/:widgetId', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
    await i18next.changeLanguage('en');
  });

  /** As app.tsx renders it on this path: no AuthProvider, so no session call. */
  async function open(routes: Parameters<typeof mockApi>[0], path = `/widgets/${WIDGET_ID}`) {
    const api = mockApi(routes);
    const router = createMemoryRouter(
      [{ path: '/widgets/:widgetId', element: <WidgetPage widgetId={WIDGET_ID} /> }],
      {
        initialEntries: [path],
      },
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    view = await render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await settle();
    return { root: view.container, api };
  }

  it('draws the inbox in the owner’s colours with the fields it asks, and makes no session call', async () => {
    const { root, api } = await open({
      [POINT]: () =>
        json(
          widgetPoint({
            theme: { backgroundColor: '#FFEEDD', actionColor: '#123456', startbtnColor: '#00AA00' },
            fields: {
              name: 'required',
              email: 'optional',
              message: 'hidden',
              questions: [{ id: 'q1', label: 'Order number', required: true }],
            },
            allowedExtensions: ['pdf', 'jpg'],
          }),
        ),
    });
    expect(api.calls.map((c) => c.path)).toEqual([`/api/receive/points/widget/${WIDGET_ID}`]);
    const card = root.querySelector<HTMLElement>('.widget-card') as HTMLElement;
    expect(card.style.getPropertyValue('--theme-bg')).toBe('#ffeedd');
    // A light background gets dark text, a dark one white text.
    expect(card.style.getPropertyValue('--theme-bg-text')).toBe('#000000');
    expect(card.style.getPropertyValue('--theme-action-text')).toBe('#ffffff');
    expect(byTestId(root, 'widget-title').textContent).toBe('Client files');
    expect(root.textContent).toContain('To Ada');
    expect(root.textContent).toContain('Send us your documents.');
    expect(root.querySelector('[data-testid="widget-message"]')).toBeNull();
    expect(root.querySelector('label[for]')?.textContent).toBe('Your name');
    expect(byTestId(root, 'widget-accepted').textContent).toBe(
      'Accepted file types: .pdf, .jpg. Up to 5.00 GB in all.',
    );
    // No app header, menu or sign-in link in the frame.
    expect(root.querySelector('.app-header, [data-testid="header-signin"]')).toBeNull();
  });

  it('enforces the required fields, skips files of other types with the spec’s notice, and sends the answers', async () => {
    const { root, api } = await open({
      [POINT]: () =>
        json(
          widgetPoint({
            fields: {
              name: 'required',
              email: 'optional',
              message: 'optional',
              questions: [{ id: 'q1', label: 'Order number', required: true }],
            },
            allowedExtensions: ['pdf'],
          }),
        ),
      [UPLOADS]: () => coded(403, 'WRONG_PASSWORD'),
    });
    await click(byTestId(root, 'widget-submit'));
    expect(api.to(UPLOADS)).toHaveLength(0);
    expect(byTestId<HTMLInputElement>(root, 'widget-name').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(byTestId(root, 'widget-name'));
    expect(byTestId(root, 'widget-files-error').textContent).toBe('Add at least one file.');
    expect(root.textContent).toContain('Required.');

    await pick(root, [
      new File(['%PDF-1.4'], 'invoice.PDF', { type: 'application/pdf' }),
      new File(['x'], 'photo.png', { type: 'image/png' }),
    ]);
    expect(byTestId(root, 'widget-notices').textContent).toBe(
      'photo.png was skipped: only these file types are allowed: .pdf.',
    );
    expect(byTestId(root, 'file-list').textContent).toContain('invoice.PDF');

    await typeInto(byTestId(root, 'widget-name'), 'Bob');
    await typeInto(byTestId(root, 'widget-email'), 'not an address');
    await typeInto(byTestId(root, 'widget-question-q1'), 'A-1234');
    await click(byTestId(root, 'widget-submit'));
    expect(api.to(UPLOADS)).toHaveLength(0);
    expect(root.textContent).toContain('Enter a valid e-mail address.');
    await typeInto(byTestId(root, 'widget-email'), 'bob@example.com');
    await typeInto(byTestId(root, 'widget-message'), 'Here you go');
    await click(byTestId(root, 'widget-submit'));
    await settle();
    expect(api.to(UPLOADS)[0]?.body).toMatchObject({
      target: { kind: 'widget', widgetId: WIDGET_ID },
      uploaderName: 'Bob',
      uploaderEmail: 'bob@example.com',
      message: 'Here you go',
      answers: [{ questionId: 'q1', answer: 'A-1234' }],
      files: [{ name: 'invoice.PDF', size: 8 }],
      locale: 'en',
    });
  });

  it('asks for the password of a protected inbox and says when it is wrong', async () => {
    const { root, api } = await open({
      [POINT]: () => json(widgetPoint({ passwordProtected: true })),
      [UPLOADS]: () => coded(403, 'WRONG_PASSWORD'),
    });
    await pick(root, [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'widget-submit'));
    expect(byTestId<HTMLInputElement>(root, 'widget-password').getAttribute('aria-invalid')).toBe('true');
    await typeInto(byTestId(root, 'widget-password'), 'guess');
    await click(byTestId(root, 'widget-submit'));
    await settle();
    expect(api.to(UPLOADS)[0]?.body).toMatchObject({ password: 'guess' });
    expect(root.textContent).toContain('Wrong password.');
    expect(document.activeElement).toBe(byTestId(root, 'widget-password'));
  });

  it('says "closed" for a switched-off inbox, also when it closes while the visitor fills the form', async () => {
    const closed = await open({ [POINT]: () => coded(410, 'RECEIVE_CLOSED') });
    expect(byTestId(closed.root, 'widget-closed').textContent).toContain(
      'does not accept files at the moment',
    );
    await view.unmount();
    const { root } = await open({
      [POINT]: () => json(widgetPoint()),
      [UPLOADS]: () => coded(410, 'RECEIVE_CLOSED'),
    });
    await pick(root, [new File(['a'], 'a.txt')]);
    await click(byTestId(root, 'widget-submit'));
    await settle();
    expect(byTestId(root, 'widget-closed')).toBeTruthy();
    expect(root.querySelector('[data-testid="widget-form"]')).toBeNull();
  });

  it('says when the widget does not exist, and speaks the language of ?lang=', async () => {
    const { root } = await open({ [POINT]: () => coded(404, 'NOT_FOUND') }, `/widgets/${WIDGET_ID}?lang=fr`);
    // The French texts are their own chunk: wait for them rather than for a number of ticks.
    await until(() => document.documentElement.lang === 'fr', 'the French texts');
    await settle();
    expect(byTestId(root, 'widget-not-found').textContent).toContain('Ce formulaire de dépôt n’existe plus.');
    expect(document.documentElement.lang).toBe('fr');
  });

  it('shows the receipt: what arrived, when, and where the receipt went', async () => {
    const again = vi.fn();
    view = await render(
      <WidgetReceipt
        receipt={{
          transferId: 'AbCdEfGhIjKlMnOp',
          status: 'ENABLED',
          title: 'Client files',
          ownerName: 'Ada',
          files: [
            {
              id: 'F1a2b3',
              name: 'invoice.pdf',
              relativePath: null,
              size: 1_500_000,
              sha256: 'a'.repeat(64),
              uploaded: true,
            },
          ],
          totalSize: 1_500_000,
          receivedAt: '2030-01-01T10:00:00.000Z',
          receiptSentTo: 'bob@example.com',
        }}
        onAgain={again}
      />,
    );
    const root = view.container;
    expect(byTestId(root, 'widget-receipt-summary').textContent).toBe('1 file (1.50 MB) arrived safely.');
    expect(byTestId(root, 'widget-receipt-mail').textContent).toBe('A receipt was sent to bob@example.com.');
    expect(document.activeElement?.id).toBe('widget-receipt-title');
    await click(byTestId(root, 'widget-again'));
    expect(again).toHaveBeenCalled();
  });
});
