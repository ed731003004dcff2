import type { SecurityLogEntry } from '@ferry/core';
import { act } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, click, type Rendered, render, settle, typeInto } from '../../test/render';
import { userProfile } from '../account/profile.fixture';
import { appHarness } from '../dashboard/dashboard.fixture';
import { SecurityLogPage } from './security-log-page';

const LIST = 'GET /api/team/u_1/security-logs';
const SETTINGS = '/api/team/u_1/security-log-settings';

const entry = (id: number, over: Partial<SecurityLogEntry> = {}): SecurityLogEntry => ({
  id,
  at: '2030-01-02T10:00:00.000Z',
  actor: 'bob@example.com',
  actorUserId: 'u_2',
  action: 'sign-in',
  ip: '203.0.113.5',
  userAgent: 'Firefox',
  target: null,
  details: {},
  ...over,
});

async function choose(select: HTMLSelectElement, value: string) {
  await act(async () => {
    select.value = value;
    select.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

describe('/dashboard/admin/security-logs', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
  });

  async function open(
    routes: Record<string, Parameters<typeof mockApi>[0][string]>,
    state = signedInState(),
  ) {
    const api = mockApi({
      'GET /api/auth/me': () => json(state),
      'GET /api/user/users/u_1': () => json(userProfile()),
      [`GET ${SETTINGS}`]: () => json({ retentionDays: 365 }),
      ...routes,
    });
    const harness = appHarness(
      [{ path: '/dashboard/admin/security-logs', element: <SecurityLogPage /> }],
      '/dashboard/admin/security-logs',
    );
    view = await render(harness.ui);
    await settle();
    return { root: view.container, api };
  }

  it('lists entries with a readable action, filters, searches and pages', async () => {
    const { root, api } = await open({
      [LIST]: (call) =>
        call.query.get('cursor')
          ? json({ entries: [entry(1, { action: 'transfer-created', target: 'T-old' })], nextCursor: null })
          : json({
              entries: [entry(3, { action: 'sign-in-failed', actor: null, actorUserId: null }), entry(2)],
              nextCursor: '2',
            }),
    });
    const rows = () => [...root.querySelectorAll<HTMLElement>('[data-testid="security-log-row"]')];
    expect(rows().map((r) => r.dataset.action)).toEqual(['sign-in-failed', 'sign-in']);
    expect(rows()[0]!.textContent).toContain('Sign-in failed');
    expect(rows()[0]!.textContent).toContain('Unknown');
    expect(rows()[1]!.textContent).toContain('bob@example.com');

    await click(byTestId(root, 'security-log-older'));
    await settle();
    expect(api.to(LIST).at(-1)!.query.get('cursor')).toBe('2');
    expect(rows()[0]!.textContent).toContain('Transfer created');
    await click(byTestId(root, 'security-log-newer'));
    await settle();
    expect(rows()).toHaveLength(2);

    await choose(byTestId<HTMLSelectElement>(root, 'security-log-member'), 'u_2');
    await choose(byTestId<HTMLSelectElement>(root, 'security-log-action'), 'sign-in');
    await typeInto(byTestId<HTMLInputElement>(root, 'security-log-from'), '2030-01-01');
    await typeInto(byTestId<HTMLInputElement>(root, 'security-log-search'), '203.0');
    await click(byTestId(root, 'security-log-apply'));
    await settle();
    const query = api.to(LIST).at(-1)!.query;
    expect(Object.fromEntries(query)).toEqual({
      member: 'u_2',
      action: 'sign-in',
      from: '2030-01-01',
      q: '203.0',
      limit: '50',
    });
    const csv = byTestId<HTMLAnchorElement>(root, 'security-log-export-csv').getAttribute('href')!;
    expect(csv).toBe(
      '/api/team/u_1/security-logs/export?member=u_2&action=sign-in&from=2030-01-01&q=203.0&format=csv',
    );
    expect(byTestId<HTMLAnchorElement>(root, 'security-log-export-json').getAttribute('href')).toContain(
      'format=json',
    );
  });

  it("reads a member's team log at the manager's uid", async () => {
    const { api } = await open(
      {
        'GET /api/team/m_1/security-logs': () => json({ entries: [], nextCursor: null }),
        'GET /api/team/m_1/security-log-settings': () => json({ retentionDays: 90 }),
      },
      signedInState({ managerId: 'm_1', authorization: { managerId: 'm_1', permissions: ['USER_MANAGER'] } }),
    );
    expect(api.to('GET /api/team/m_1/security-logs')).toHaveLength(1);
    expect(byTestId(view.container, 'security-log-empty')).toBeTruthy();
    expect(byTestId<HTMLInputElement>(view.container, 'security-log-retention-days').value).toBe('90');
  });

  it('saves the retention, 30 to 3650 days', async () => {
    const { root, api } = await open({
      [LIST]: () => json({ entries: [], nextCursor: null }),
      [`PUT ${SETTINGS}`]: (call) => json(call.body),
    });
    const days = byTestId<HTMLInputElement>(root, 'security-log-retention-days');
    const save = byTestId<HTMLButtonElement>(root, 'security-log-retention-save');
    await typeInto(days, '29');
    expect(save.disabled).toBe(true);
    await typeInto(days, '30');
    await click(save);
    await settle();
    expect(api.to(`PUT ${SETTINGS}`).map((c) => c.body)).toEqual([{ retentionDays: 30 }]);
    expect(byTestId(root, 'security-log-retention-saved')).toBeTruthy();
  });

  it('says who the log is for when the server answers 404', async () => {
    const { root } = await open({ [LIST]: () => coded(404, 'NOT_FOUND') });
    expect(byTestId(root, 'security-log-not-allowed').textContent).toContain('team manager');
  });
});
