import type { TeamActivityDay } from '@ferry/core';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { formatSize, intlLocale } from '../../lib/format';
import { useAuth } from '../auth/auth-context';
import { PageFrame } from '../dashboard/page-frame';
import { getTeamOverview } from './team-api';
import { teamIdOf } from './transfer-policy-page';
import './team-admin.css';

const WIDTH = 300;
const HEIGHT = 100;

/** Bar heights (0…HEIGHT) of one series, scaled to its own maximum. */
export function barHeights(values: readonly number[]): number[] {
  const max = Math.max(0, ...values);
  return values.map((v) => (max === 0 ? 0 : Math.round((v / max) * HEIGHT)));
}

/** One series of the 30 days as bars: an image for the eye; the table below says the same in words. */
function Bars({ values, label, testId }: { values: readonly number[]; label: string; testId: string }) {
  const heights = barHeights(values);
  const step = WIDTH / Math.max(1, values.length);
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      className="team-chart"
      role="img"
      aria-label={label}
      preserveAspectRatio="none"
      data-testid={testId}
    >
      {heights.map((h, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: one bar per day, in order
        <rect key={i} x={i * step + 1} y={HEIGHT - h} width={Math.max(1, step - 2)} height={h} />
      ))}
    </svg>
  );
}

/**
 * `/dashboard/admin`: the team at a glance — seats used of the plan's (and those pending invitations hold), storage used of the global storage, bytes
 * downloaded over 7 days, and 30 days of activity (transfers created, bytes downloaded) as bar charts with a
 * table. For the manager and members with TRANSFER_MANAGER or USER_MANAGER.
 */
export function TeamOverviewPage() {
  const { t, i18n } = useTranslation();
  const { state } = useAuth();
  const teamId = teamIdOf(state);
  const tableId = useId();
  const overview = useQuery({
    queryKey: ['team-overview', teamId],
    queryFn: ({ signal }) => getTeamOverview(teamId, signal),
    enabled: teamId !== '',
  });
  const size = (bytes: number) => formatSize(bytes, i18n.language);
  const day = (d: TeamActivityDay) =>
    new Date(`${d.date}T00:00:00Z`).toLocaleDateString(intlLocale(i18n.language), {
      day: 'numeric',
      month: 'short',
      timeZone: 'UTC',
    });
  const o = overview.data;
  return (
    <PageFrame
      title={t('teamPolicies:overview.title')}
      testId="page-admin-overview"
      loading={overview.isPending && teamId !== ''}
      loadingText={t('teamPolicies:loading')}
      error={overview.error}
      errorTestId="overview-error"
    >
      {o && (
        <>
          <dl className="team-figures">
            <div>
              <dt>{t('teamPolicies:overview.seats')}</dt>
              <dd data-testid="overview-seats">
                {o.seats.total === null
                  ? String(o.seats.used)
                  : t('teamPolicies:overview.of', { used: o.seats.used, total: o.seats.total })}
              </dd>
              {o.seats.pending > 0 && (
                // Pending invitations hold their seats until they expire or are withdrawn.
                <dd className="muted" data-testid="overview-pending">
                  {t('teamPolicies:overview.pending', { count: o.seats.pending })}
                </dd>
              )}
            </div>
            <div>
              <dt>{t('teamPolicies:overview.storage')}</dt>
              <dd data-testid="overview-storage">
                {o.storage.totalBytes === null
                  ? size(o.storage.usedBytes)
                  : t('teamPolicies:overview.of', {
                      used: size(o.storage.usedBytes),
                      total: size(o.storage.totalBytes),
                    })}
              </dd>
            </div>
            <div>
              <dt>{t('teamPolicies:overview.downloaded7')}</dt>
              <dd data-testid="overview-downloaded">
                {t('teamPolicies:overview.of', {
                  used: size(o.downloaded7Days.usedBytes),
                  total: size(o.downloaded7Days.maxBytes),
                })}
              </dd>
            </div>
          </dl>
          <section aria-labelledby={`${tableId}-title`}>
            <h2 id={`${tableId}-title`}>{t('teamPolicies:overview.activity')}</h2>
            <h3>{t('teamPolicies:overview.transfers_created')}</h3>
            <Bars
              values={o.activity.map((d) => d.transfersCreated)}
              label={t('teamPolicies:overview.chart_transfers', {
                count: o.activity.reduce((s, d) => s + d.transfersCreated, 0),
              })}
              testId="chart-transfers"
            />
            <h3>{t('teamPolicies:overview.bytes_downloaded')}</h3>
            <Bars
              values={o.activity.map((d) => d.bytesDownloaded)}
              label={t('teamPolicies:overview.chart_bytes', {
                size: size(o.activity.reduce((s, d) => s + d.bytesDownloaded, 0)),
              })}
              testId="chart-bytes"
            />
            <details>
              <summary>{t('teamPolicies:overview.table')}</summary>
              <div className="team-table-scroll">
                <table data-testid="activity-table">
                  <thead>
                    <tr>
                      <th scope="col">{t('teamPolicies:overview.day')}</th>
                      <th scope="col">{t('teamPolicies:overview.transfers_created')}</th>
                      <th scope="col">{t('teamPolicies:overview.bytes_downloaded')}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {o.activity.map((d) => (
                      <tr key={d.date}>
                        <th scope="row">{day(d)}</th>
                        <td>{d.transfersCreated}</td>
                        <td>{size(d.bytesDownloaded)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            </details>
          </section>
        </>
      )}
    </PageFrame>
  );
}
