import { CustomDomainView, DomainsView } from '@ferry/core';
import { apiRequest } from './api';

/*
 * An account's or team's own hosts (the owner: the account's uid, or the team manager's): the subdomain of
 * BASE_DOMAIN and custom domains proven by a DNS TXT record.
 */
const base = (uid: string) => `/user/users/${encodeURIComponent(uid)}/domains`;

export function listDomains(uid: string): Promise<DomainsView> {
  return apiRequest(base(uid), { schema: DomainsView });
}

/** 409 HOST_TAKEN when another account has the name; 400 with details.problem for a refused one. */
export function claimSubdomain(uid: string, name: string): Promise<DomainsView> {
  return apiRequest(`${base(uid)}/subdomain`, { method: 'PUT', body: { name }, schema: DomainsView });
}

export function releaseSubdomain(uid: string): Promise<DomainsView> {
  return apiRequest(`${base(uid)}/subdomain`, { method: 'DELETE', schema: DomainsView });
}

export function addCustomDomain(uid: string, domain: string): Promise<CustomDomainView> {
  return apiRequest(base(uid), { method: 'POST', body: { domain }, schema: CustomDomainView });
}

/** 409 DOMAIN_NOT_PROVEN (details.record) while the TXT record is not found. */
export function verifyCustomDomain(uid: string, domain: string): Promise<CustomDomainView> {
  return apiRequest(`${base(uid)}/${encodeURIComponent(domain)}/verify`, {
    method: 'POST',
    schema: CustomDomainView,
  });
}

export async function removeCustomDomain(uid: string, domain: string): Promise<void> {
  await apiRequest(`${base(uid)}/${encodeURIComponent(domain)}`, { method: 'DELETE' });
}
