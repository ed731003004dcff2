import type { TransferDetail } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { TRANSFERS_QUERY_KEY } from '../../../lib/dashboard-api';
import { coded, type Handler, json, mockApi, noContent } from '../../../test/api-mock';
import { signedInState } from '../../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../../test/render';
import { userProfile } from '../../account/profile.fixture';
import { appHarness } from '../dashboard.fixture';
import { TransferDetailPage } from './transfer-detail-page';
import { listPage, transferDetail } from './transfers.fixture';

const ID = 'AbCdEfGhIjKlMnOp';
const DETAIL = `GET /api/transfer/transfers/${ID}/detail`;
const LIST = 'GET /api/transfer/transfers';
const routes = [
  { path: '/dashboard/transfers/:id', element: <TransferDetailPage id={ID} /> },
  { path: '/dashboard/transfers', element: <p data-testid="list-page">list</p> },
];

describe('/dashboard/transfers/:id', () => {
  let view: Rendered;
  /** What the fake server stores: each action's answer becomes what the detail gives next. */
  let current: TransferDetail;
  const answer = (patch: Partial<TransferDetail>) => {
    current = { ...current, ...patch };
    return json(current);
  };
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(extra: Record<string, Handler | Handler[]> = {}) {
    current = transferDetail();
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [DETAIL]: () => json(current),
      [LIST]: () => json(listPage([])),
      ...extra,
    });
    const harness = appHarness(routes, `/dashboard/transfers/${ID}`);
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api, harness };
  }

  async function submit(form: HTMLElement, value: string) {
    await typeInto(form.querySelector('input') as HTMLInputElement, value);
    await click(form.querySelector('button[type="submit"]') as HTMLElement);
    await settle();
  }

  it('shows a received upload’s typed address as not verified, the same in every event and the facts', async () => {
    const uploader = { kind: 'uploader' as const, userId: null, email: 'erin@example.com' };
    const received = transferDetail({
      type: 'S3',
      events: [
        { type: 'CREATED', at: '2030-01-01T10:00:00.000Z', actor: uploader, data: {} },
        { type: 'UPLOADED', at: '2030-01-01T10:05:00.000Z', actor: uploader, data: {} },
      ],
    });
    const { root } = await open({
      [DETAIL]: () => json(received),
      [`GET /api/receive/received/${ID}`]: () =>
        json({
          transferId: ID,
          point: { kind: 'request', id: 'tax-2030', title: 'Tax forms', widgetId: null, viaPush: false },
          uploader: {
            name: 'Erin',
            email: 'erin@example.com',
            emailVerified: false,
            message: null,
            answers: [],
          },
          receivedAt: '2030-01-01T10:05:00.000Z',
        }),
    });
    const who = [...root.querySelectorAll('[data-testid="transfer-event"]')].map(
      (li) => li.textContent?.split(' · ')[1],
    );
    expect(who).toEqual([
      'erin@example.com (address not verified)',
      'erin@example.com (address not verified)',
    ]);
    expect(byTestId(root, 'received-from').textContent).toBe(
      'Erin · erin@example.com (address not verified)',
    );
  });

  it('shows the files with a copyable SHA-256, the recipient’s timeline and the history in words', async () => {
    const writeText = vi.fn(async () => {});
    vi.stubGlobal('navigator', { ...navigator, clipboard: { writeText } });
    const { root } = await open();
    expect(byTestId(root, 'transfer-title').textContent).toBe('Holiday photos');
    expect(byTestId(root, 'file-name').textContent).toBe('beach.jpg');
    expect(byTestId(root, 'file-size').textContent).toBe('1.50 MB');
    await click(byTestId(root, 'file-sha-copy'));
    expect(writeText).toHaveBeenCalledWith('a'.repeat(64));
    expect(document.body.textContent).toContain('SHA-256 copied.');
    const timeline = [...byTestId(root, 'recipient-timeline').querySelectorAll('li')].map(
      (li) => li.textContent?.split(' · ')[0],
    );
    expect(timeline).toEqual([
      'E-mail sent',
      'E-mail delivered',
      'Opened the link',
      'Downloaded 1 file (1.50 MB)',
    ]);
    const events = [...root.querySelectorAll('[data-testid="transfer-event"]')].map((li) => li.textContent);
    expect(events[0]).toMatch(/^Recipient added · automatically · January 1, 2030/);
    expect(events[1]).toMatch(/^Created · you · January 1, 2030/);
  });

  it('renames the transfer, then shows the server’s answer and refreshes the list', async () => {
    const { root, api, harness } = await open({
      [`PATCH /api/transfer/transfers/${ID}`]: (call) =>
        answer({ name: (call.body as { name: string }).name }),
    });
    const listKey = [TRANSFERS_QUERY_KEY, 'list', {}];
    harness.client.setQueryData(listKey, { pages: [], pageParams: [] });
    await submit(byTestId(root, 'rename-form'), 'Summer');
    expect(api.to(`PATCH /api/transfer/transfers/${ID}`)[0]?.body).toEqual({ name: 'Summer' });
    expect(byTestId(root, 'transfer-title').textContent).toBe('Summer');
    expect(document.body.textContent).toContain('Transfer renamed.');
    expect(harness.client.getQueryState(listKey)?.isInvalidated).toBe(true);
    expect(api.to(DETAIL)).toHaveLength(2);
  });

  it('shows the plan’s limit in words when the expiry date is too far', async () => {
    const { root, api } = await open({
      [`PATCH /api/transfer/transfers/${ID}`]: () =>
        json(
          {
            status: 400,
            error: 'Bad Request',
            message: 'limit',
            limitErrors: [{ limit: 'fileValidityInDays', max: 7, actual: 30 }],
          },
          400,
        ),
    });
    const form = byTestId(root, 'expiry-form');
    expect(form.querySelector('input')?.getAttribute('max')).toBe('2030-01-08');
    await submit(form, '2030-01-31');
    expect(api.to(`PATCH /api/transfer/transfers/${ID}`)[0]?.body).toEqual({ expiresAt: '2030-01-31' });
    expect(byTestId(root, 'expiry-form-error').textContent).toBe(
      'A transfer can stay available 7 days at most (30 asked).',
    );
  });

  it('sets and removes the password, removal only after confirming', async () => {
    const PATCH = `PATCH /api/transfer/transfers/${ID}`;
    const { root, api } = await open({
      [PATCH]: (call) =>
        answer({ passwordProtected: (call.body as { password: string | null }).password !== null }),
    });
    await submit(byTestId(root, 'password-form'), 's3cret!');
    expect(api.to(PATCH)[0]?.body).toEqual({ password: 's3cret!' });
    expect(byTestId<HTMLInputElement>(root, 'password-form').querySelector('input')?.value).toBe('');
    await click(byTestId(root, 'password-remove'));
    expect(api.to(PATCH)).toHaveLength(1);
    await click(byTestId(root, 'password-remove-yes'));
    await settle();
    expect(api.to(PATCH)[1]?.body).toEqual({ password: null });
    expect(root.querySelector('[data-testid="password-remove"]')).toBeNull();
  });

  it('turns preview off, sets and clears the download limit, and disables the transfer', async () => {
    const PATCH = `PATCH /api/transfer/transfers/${ID}`;
    const { root, api } = await open({
      [PATCH]: () => answer({}),
      [`POST /api/transfer/transfers/${ID}/disable`]: () =>
        answer({ status: 'DISABLED', statusLabel: 'disabled' }),
    });
    await click(byTestId(root, 'preview-switch'));
    await settle();
    expect(api.to(PATCH)[0]?.body).toEqual({ allowPreview: false });
    await submit(byTestId(root, 'max-downloads-form'), '5');
    expect(api.to(PATCH)[1]?.body).toEqual({ maxDownloads: 5 });
    await submit(byTestId(root, 'max-downloads-form'), '');
    expect(api.to(PATCH)[2]?.body).toEqual({ maxDownloads: null });
    await click(byTestId(root, 'toggle-enabled'));
    await settle();
    expect(byTestId(root, 'transfer-summary').textContent).toContain('disabled');
    expect(byTestId(root, 'toggle-enabled').textContent).toBe('Enable');
  });

  it('adds and removes recipients, and says why when the server refuses', async () => {
    const { root, api } = await open({
      [`POST /api/transfer/transfers/${ID}/recipients`]: [() => coded(403, 'FORBIDDEN'), () => answer({})],
      [`DELETE /api/transfer/transfers/${ID}/recipients/bob%40example.com`]: () => answer({ recipients: [] }),
    });
    const form = byTestId(root, 'recipients-add-form');
    await submit(form, 'c@example.com, d@example.com');
    expect(byTestId(root, 'recipients-add-form-error').textContent).not.toBe('');
    await submit(form, 'c@example.com, d@example.com');
    expect(api.to(`POST /api/transfer/transfers/${ID}/recipients`)[1]?.body).toEqual({
      emails: ['c@example.com', 'd@example.com'],
    });
    expect(root.querySelector('[data-testid="recipients-add-form-error"]')).toBeNull();
    await click(byTestId(root, 'recipient-remove'));
    await click(byTestId(root, 'recipient-remove-yes'));
    await settle();
    expect(root.querySelectorAll('[data-testid="transfer-recipient"]')).toHaveLength(0);
  });

  it('renames and deletes a file', async () => {
    const FILE = `/api/transfer/transfers/${ID}/files/F1a2b3`;
    const { root, api } = await open({
      [`PATCH ${FILE}`]: () => answer({}),
      [`DELETE ${FILE}`]: () => answer({ files: [] }),
    });
    await click(byTestId(root, 'file-rename'));
    await submit(byTestId(root, 'file-rename-form'), 'sea.jpg');
    expect(api.to(`PATCH ${FILE}`)[0]?.body).toEqual({ name: 'sea.jpg' });
    expect(root.querySelector('[data-testid="file-rename-form"]')).toBeNull();
    await click(byTestId(root, 'file-delete'));
    await click(byTestId(root, 'file-delete-yes'));
    await settle();
    expect(api.to(`DELETE ${FILE}`)).toHaveLength(1);
    expect(root.querySelectorAll('[data-testid="transfer-file"]')).toHaveLength(0);
  });

  it('deletes the transfer after confirming, then goes back to the list', async () => {
    const { root, api } = await open({ [`DELETE /api/transfer/transfers/${ID}`]: () => noContent() });
    await click(byTestId(root, 'delete-transfer'));
    expect(api.to(`DELETE /api/transfer/transfers/${ID}`)).toHaveLength(0);
    await click(byTestId(root, 'delete-transfer-yes'));
    await settle();
    expect(api.to(`DELETE /api/transfer/transfers/${ID}`)).toHaveLength(1);
    expect(byTestId(root, 'list-page')).toBeTruthy();
  });

  it('says in words when the transfer cannot be found', async () => {
    const { root } = await open({ [DETAIL]: () => coded(404, 'TRANSFER_NOT_FOUND') });
    expect(byTestId(root, 'transfer-error').querySelector('p')?.textContent).not.toMatch(
      /transfer_not_found/,
    );
    expect(byTestId(root, 'transfer-error').querySelector('p')?.textContent?.length).toBeGreaterThan(5);
  });

  it("shows a priced transfer's price and its sales to its seller", async () => {
    const { root } = await open({
      [DETAIL]: () =>
        json(
          transferDetail({
            type: 'S2',
            price: { amount: 1250, currency: 'EUR' },
            sales: [
              {
                email: 'buyer@example.com',
                countryCode: 'DE',
                currency: 'EUR',
                amount: 1250,
                tax: 238,
                total: 1488,
                receiptNumber: 'FRY-2030-000007',
                paidAt: '2030-01-02T10:00:00.000Z',
              },
            ],
          }),
        ),
    });
    const summary = byTestId(root, 'transfer-sales-summary').textContent?.replace(/\u00a0|\u202f/g, ' ');
    expect(summary).toBe('On sale at €12.50 (VAT excluded): 1 sale, €12.50 before VAT.');
    const row = byTestId(root, 'transfer-sale').textContent ?? '';
    expect(row).toContain('buyer@example.com');
    expect(row).toContain('€14.88');
    expect(row).toContain('FRY-2030-000007');
  });

  it('shows no sales section for a free transfer', async () => {
    const { root } = await open();
    expect(root.querySelector('[data-testid="transfer-sales"]')).toBeNull();
  });
  it('offers a team admin downloads with the admin-dashboard flag on a member’s transfer, not the owner', async () => {
    const opened: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      opened.push(this.href);
    });
    const LINK = 'GET /api/transfer/downloads/link';
    const link = (call: { query: URLSearchParams }) =>
      json({
        url: `https://files.example/${call.query.get('fileId') ?? 'zip'}`,
        fileName: call.query.get('fileId') ? 'beach.jpg' : 'transfer.zip',
        size: 1_500_000,
        sha256: null,
        expiresAt: '2030-01-08T10:00:00.000Z',
      });
    const { root, api } = await open({
      [DETAIL]: () => json(transferDetail({ ownerId: 'u_2' })),
      [LINK]: link,
    });
    expect(byTestId(root, 'transfer-admin-download').textContent).toContain('do not count against');
    await click(byTestId(root, 'transfer-admin-download-all'));
    await settle();
    await click(byTestId(root, 'file-admin-download'));
    await settle();
    const calls = api.to(LINK).map((c) => c.query);
    expect(calls.map((q) => [q.get('transferId'), q.get('fileId'), q.get('admin-dashboard')])).toEqual([
      [ID, null, 'true'],
      [ID, 'F1a2b3', 'true'],
    ]);
    expect(opened).toEqual(['https://files.example/zip', 'https://files.example/F1a2b3']);
    expect(byTestId(root, 'file-admin-download').getAttribute('aria-label')).toBe('Download beach.jpg');
  });

  it('offers no admin download on the viewer’s own transfer, nor once its files are gone', async () => {
    const own = await open();
    expect(own.root.querySelector('[data-testid="transfer-admin-download"]')).toBeNull();
    expect(own.root.querySelector('[data-testid="file-admin-download"]')).toBeNull();
    await view.unmount();
    const gone = await open({
      [DETAIL]: () => json(transferDetail({ ownerId: 'u_2', expired: true })),
    });
    expect(gone.root.querySelector('[data-testid="transfer-admin-download"]')).toBeNull();
  });
});
