import type { DownloadInfo } from '@ferry/core';
import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { harness } from '../../test/app-harness';
import { byTestId, click, flush, type Rendered, render, settle, typeInto } from '../../test/render';
import { DownloadPage } from './download-page';

const ID = 'AbCdEfGhIjKlMnOp';
const PATTERN = '/dl/:transferId/:fileId?';

const info = (overrides: Partial<DownloadInfo> = {}): DownloadInfo => ({
  transferId: ID,
  name: 'Invoice',
  message: 'Pay now',
  senderName: null,
  status: 'ENABLED',
  expiresAt: '2030-03-12T14:03:00.000Z',
  passwordProtected: false,
  locked: false,
  allowPreview: true,
  fileCount: 1,
  totalSize: 9,
  downloadsLeft: null,
  price: null,
  purchased: true,
  files: [
    {
      id: 'FILE01',
      name: 'invoice.pdf',
      relativePath: null,
      size: 9,
      sha256: null,
      uploaded: true,
      scanStatus: 'clean',
    },
  ],
  downloaderEmailRequired: false,
  recipientEmail: null,
  virusScan: true,
  ...overrides,
});

async function choose(select: HTMLSelectElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLSelectElement.prototype, 'value')?.set?.call(select, value);
  await act(async () => {
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('report abuse', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open() {
    view = await render(harness(<DownloadPage />, `/dl/${ID}`, PATTERN).ui);
    await settle();
    return view.container;
  }

  it('asks for a reason, checks the address, sends the report and says it was sent', async () => {
    const api = mockApi({
      'GET /api/transfer/downloads/info': () => json(info()),
      'POST /api/transfer/reports': () => json({ received: true }, 202),
    });
    const root = await open();
    const opener = byTestId<HTMLButtonElement>(root, 'report-abuse');
    expect(opener.textContent).toBe('Report abuse');
    await click(opener);
    const dialog = byTestId(root, 'report-dialog');
    // The first field has the focus; its label names it.
    const reason = byTestId<HTMLSelectElement>(dialog, 'report-reason');
    expect(document.activeElement).toBe(reason);
    expect(dialog.querySelector(`label[for="${reason.id}"]`)?.textContent).toBe('Reason');

    await click(byTestId(dialog, 'report-submit'));
    expect(reason.getAttribute('aria-invalid')).toBe('true');
    expect(dialog.textContent).toContain('Choose the reason of your report.');
    await choose(reason, 'phishing');
    await typeInto(
      byTestId<HTMLTextAreaElement>(dialog, 'report-details'),
      '  It asks for my bank password  ',
    );
    await typeInto(byTestId<HTMLInputElement>(dialog, 'report-email'), 'not an address');
    await click(byTestId(dialog, 'report-submit'));
    expect(dialog.textContent).toContain('Enter a valid e-mail address.');
    expect(api.to('POST /api/transfer/reports')).toEqual([]);

    await typeInto(byTestId<HTMLInputElement>(dialog, 'report-email'), 'me@example.org');
    await click(byTestId(dialog, 'report-submit'));
    await settle();
    expect(api.to('POST /api/transfer/reports').map((c) => c.body)).toEqual([
      {
        transferId: ID,
        reason: 'phishing',
        details: 'It asks for my bank password',
        email: 'me@example.org',
      },
    ]);
    expect(byTestId(root, 'report-sent').textContent).toBe(
      'Thank you. Your report was sent to the people who run this service.',
    );
    await click(byTestId(root, 'report-close'));
    expect(root.querySelector('[data-testid="report-dialog"]')).toBeNull();
  });

  it('says how long to wait when reports are rate limited, and keeps what was typed', async () => {
    mockApi({
      'GET /api/transfer/downloads/info': () => json(info()),
      'POST /api/transfer/reports': () => coded(429, 'RATE_LIMITED', { 'Retry-After': '120' }),
    });
    const root = await open();
    // As with the keyboard: the button has the focus when it opens the dialog, and gets it back after.
    byTestId(root, 'report-abuse').focus();
    await click(byTestId(root, 'report-abuse'));
    await choose(byTestId<HTMLSelectElement>(root, 'report-reason'), 'malware');
    await click(byTestId(root, 'report-submit'));
    await settle();
    expect(byTestId(root, 'report-error').textContent).toBe(
      'Too many attempts. Try again in about 2 minutes.',
    );
    expect(byTestId<HTMLSelectElement>(root, 'report-reason').value).toBe('malware');
    await click(byTestId(root, 'report-cancel'));
    await flush();
    expect(root.querySelector('[data-testid="report-dialog"]')).toBeNull();
    expect(document.activeElement).toBe(byTestId(root, 'report-abuse'));
  });

  it('shows a transfer under review as pending, with the report button still there', async () => {
    mockApi({
      'GET /api/transfer/downloads/info': () =>
        json(info({ status: 'MODERATING', files: [], message: null })),
    });
    const root = await open();
    expect(byTestId(root, 'download-not-ready').textContent).toBe(
      'This transfer is pending: it is being reviewed. Try again later.',
    );
    expect(byTestId<HTMLButtonElement>(root, 'download-all').disabled).toBe(true);
    expect(byTestId(root, 'report-abuse')).toBeTruthy();
  });
});
