import type { TeamOverview } from '@ferry/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { coded, json, mockApi } from '../../test/api-mock';
import { signedInState } from '../../test/fixtures';
import { byTestId, type Rendered, render, settle, until } from '../../test/render';
import { appHarness } from '../dashboard/dashboard.fixture';
import { barHeights, TeamOverviewPage } from './overview-page';

const routes = [{ path: '/dashboard/admin', element: <TeamOverviewPage /> }];
const activity = Array.from({ length: 30 }, (_, i) => ({
  date: new Date(Date.UTC(2030, 0, 1 + i)).toISOString().slice(0, 10),
  transfersCreated: i === 29 ? 4 : i === 10 ? 2 : 0,
  bytesDownloaded: i === 29 ? 2e9 : 0,
}));
const OVERVIEW: TeamOverview = {
  teamId: 'u_1',
  seats: { used: 3, pending: 1, total: 5 },
  storage: { usedBytes: 1e9, totalBytes: 2e12 },
  downloaded7Days: { usedBytes: 2e9, maxBytes: 6e11 },
  activity,
};

describe('barHeights', () => {
  it('scales each series to its own maximum; all zeros stay flat', () => {
    expect(barHeights([0, 2, 4])).toEqual([0, 50, 100]);
    expect(barHeights([0, 0])).toEqual([0, 0]);
  });
});

describe('/dashboard/admin', () => {
  let view: Rendered;
  afterEach(async () => {
    await view?.unmount();
    vi.unstubAllGlobals();
  });

  async function open(answer: () => Response) {
    mockApi({ 'GET /api/auth/me': () => json(signedInState()), 'GET /api/team/u_1/overview': answer });
    view = await render(appHarness(routes, '/dashboard/admin').ui);
    await settle();
    return view.container;
  }

  it('shows seats, storage, the 7-day bytes and the 30 days as charts with a table', async () => {
    const root = await open(() => json(OVERVIEW));
    await until(() => root.querySelector('[data-testid="overview-seats"]') !== null, 'the figures');
    expect(byTestId(root, 'overview-seats').textContent).toBe('3 of 5');
    expect(byTestId(root, 'overview-pending').textContent).toBe('1 invitation pending');
    expect(byTestId(root, 'overview-storage').textContent).toContain(' of ');
    const chart = byTestId(root, 'chart-transfers');
    expect(chart.getAttribute('role')).toBe('img');
    expect(chart.getAttribute('aria-label')).toContain('6 transfers');
    expect(chart.querySelectorAll('rect')).toHaveLength(30);
    const rows = byTestId(root, 'activity-table').querySelectorAll('tbody tr');
    expect(rows).toHaveLength(30);
    expect(rows[29]?.querySelectorAll('td')[0]?.textContent).toBe('4');
  });

  it('leaves the pending line out when no invitation is pending', async () => {
    const root = await open(() => json({ ...OVERVIEW, seats: { used: 2, pending: 0, total: null } }));
    await until(() => root.querySelector('[data-testid="overview-seats"]') !== null, 'the figures');
    expect(byTestId(root, 'overview-seats').textContent).toBe('2');
    expect(root.querySelector('[data-testid="overview-pending"]')).toBeNull();
  });

  it('says when the server refuses (a member without an admin permission)', async () => {
    const root = await open(() => coded(403, 'FORBIDDEN'));
    await until(() => root.querySelector('[data-testid="no-access"]') !== null, 'the no-access notice');
    expect(root.querySelector('[data-testid="no-access"]')?.textContent).toContain('Ask your team manager');
    expect(root.querySelector('[data-testid="overview-error"]')).toBeNull();
  });

  it('shows any other failure as the error it is', async () => {
    const root = await open(() => coded(500, 'INTERNAL'));
    await until(() => root.querySelector('[data-testid="overview-error"]') !== null, 'the error');
    expect(root.querySelector('[data-testid="no-access"]')).toBeNull();
  });
});
