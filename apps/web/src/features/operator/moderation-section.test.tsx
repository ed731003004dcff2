import type { ModerationCase } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { json, mockApi } from '../../test/api-mock';
import { authHarness } from '../../test/auth-harness';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { RequireAuth } from '../auth/require-auth';
import { actionsFor } from './moderation-case';
import { OperatorPage } from './operator-page';

const routes = [{ element: <RequireAuth />, children: [{ path: '/operator', element: <OperatorPage /> }] }];
const ID = 'AbCdEfGhIjKlMnOp';

function moderationCase(overrides: Partial<ModerationCase> = {}): ModerationCase {
  return {
    transferId: ID,
    type: 'S2',
    status: 'ENABLED',
    name: 'Invoice',
    message: 'Pay here\nquickly',
    senderEmail: 'bad@example.net',
    senderName: null,
    ownerEmail: null,
    fileCount: 1,
    totalSize: 2048,
    files: [{ id: 'FILE01', name: 'invoice.pdf', size: 2048, sha256: 'ab'.repeat(32) }],
    recipientCount: 0,
    createdAt: '2026-11-27T10:00:00.000Z',
    expiresAt: '2026-12-04T10:00:00.000Z',
    sentAt: '2026-11-27T10:01:00.000Z',
    hold: null,
    reports: [
      {
        id: 7,
        reason: 'phishing',
        details: 'asks for my card',
        reporterEmail: 'me@example.org',
        signedIn: false,
        at: '2026-11-27T11:00:00.000Z',
      },
    ],
    reporters: 1,
    ...overrides,
  };
}

describe('/operator?tab=moderation', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  it('lists the queue, opens a case and retains it after a confirmation', async () => {
    let current = moderationCase();
    const api = mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/operator/me': () => json({ operator: true, email: 'ada@example.com' }),
      'GET /api/operator/moderation': () => json({ cases: current.status === 'RETAINED' ? [] : [current] }),
      [`GET /api/operator/moderation/${ID}`]: () => json(current),
      [`POST /api/operator/moderation/${ID}/retain`]: () => {
        current = moderationCase({ status: 'RETAINED', reports: [], reporters: 0 });
        return json(current);
      },
    });
    view = await render(authHarness(routes, '/operator?tab=moderation').ui);
    await settle();
    const root = view.container;
    const row = byTestId(root, `moderation-row-${ID}`);
    expect(row.textContent).toContain('Invoice');
    expect(row.textContent).toContain('Phishing or fraud');

    await click(byTestId(root, `moderation-open-${ID}`));
    await settle();
    expect(byTestId(root, 'location').textContent).toBe(`/operator?tab=moderation&case=${ID}`);
    const detail = byTestId(root, 'moderation-case');
    expect(byTestId(detail, 'moderation-case-reports').textContent).toContain('asks for my card');
    expect(byTestId(detail, 'moderation-case-files').textContent).toContain('invoice.pdf');
    // Not held: it can be put under review, retained, or its reports dismissed; not released.
    expect(detail.querySelector('[data-testid="moderation-release"]')).toBeNull();

    await click(byTestId(detail, 'moderation-retain'));
    const dialog = byTestId(root, 'moderation-confirm');
    expect(dialog.textContent).toContain('Retain this transfer?');
    await click(byTestId(dialog, 'confirm-cancel'));
    expect(api.to(`POST /api/operator/moderation/${ID}/retain`)).toEqual([]);
    await click(byTestId(detail, 'moderation-retain'));
    await click(byTestId(root, 'confirm-ok'));
    await settle();
    expect(api.to(`POST /api/operator/moderation/${ID}/retain`)).toHaveLength(1);
    expect(byTestId(root, 'moderation-case-status').textContent).toBe('RETAINED');
    expect(root.textContent).toContain('The transfer is retained.');
    expect(byTestId(root, 'moderation-empty')).toBeTruthy();
  });

  it('opens any transfer by its id, refusing what is not one', async () => {
    mockApi({
      'GET /api/auth/me': () => json(signedInState()),
      'GET /api/operator/me': () => json({ operator: true, email: 'ada@example.com' }),
      'GET /api/operator/moderation': () => json({ cases: [] }),
      [`GET /api/operator/moderation/${ID}`]: () => json(moderationCase({ reports: [], reporters: 0 })),
    });
    view = await render(authHarness(routes, '/operator?tab=moderation').ui);
    await settle();
    const root = view.container;
    await typeInto(byTestId<HTMLInputElement>(root, 'moderation-open-id'), 'not/an id');
    await click(byTestId(root, 'moderation-open-submit'));
    expect(root.textContent).toContain('Enter a transfer id: the part after /dl/ in its link.');
    await typeInto(byTestId<HTMLInputElement>(root, 'moderation-open-id'), ` ${ID} `);
    await click(byTestId(root, 'moderation-open-submit'));
    await settle();
    expect(byTestId(root, 'moderation-case')).toBeTruthy();
    expect(byTestId(root, 'moderation-hold')).toBeTruthy();
  });
});

describe('the decisions a case offers', () => {
  it('follow its status and hold', () => {
    expect(actionsFor(moderationCase())).toEqual(['hold', 'retain', 'dismiss']);
    expect(
      actionsFor(
        moderationCase({
          status: 'MODERATING',
          hold: { source: 'rule', at: '2026-11-27T10:00:00.000Z', by: 'system', details: {} },
          reports: [],
        }),
      ),
    ).toEqual(['release', 'retain']);
    expect(actionsFor(moderationCase({ status: 'DELETED', reports: [] }))).toEqual([]);
  });
});
