import { SecurityLogPage, type SecurityLogQuery, SecurityLogSettings } from '@ferry/core';
import { API_PREFIX, apiRequest, buildQuery } from './api';

/** A team's security log (docs/api.md "Security log"): the manager, or a member with USER_MANAGER. */
const teamPath = (teamId: string) => `/team/${encodeURIComponent(teamId)}`;

export type SecurityLogFilters = Omit<SecurityLogQuery, 'cursor' | 'limit'>;

export function listSecurityLogs(
  teamId: string,
  query: SecurityLogQuery,
  signal?: AbortSignal,
): Promise<SecurityLogPage> {
  return apiRequest(`${teamPath(teamId)}/security-logs`, {
    query: { ...query, limit: query.limit as number | undefined },
    schema: SecurityLogPage,
    signal,
  });
}

/** The export's address (a download the browser makes, with the session cookie), with the list's filters. */
export function securityLogExportUrl(
  teamId: string,
  filters: SecurityLogFilters,
  format: 'csv' | 'json',
): string {
  return `${API_PREFIX}${teamPath(teamId)}/security-logs/export${buildQuery({ ...filters, format })}`;
}

export function getSecurityLogSettings(teamId: string, signal?: AbortSignal): Promise<SecurityLogSettings> {
  return apiRequest(`${teamPath(teamId)}/security-log-settings`, { schema: SecurityLogSettings, signal });
}

export function putSecurityLogSettings(
  teamId: string,
  body: SecurityLogSettings,
): Promise<SecurityLogSettings> {
  return apiRequest(`${teamPath(teamId)}/security-log-settings`, {
    method: 'PUT',
    body,
    schema: SecurityLogSettings,
  });
}
