import {
  Contact,
  type ContactCreate,
  ContactGroupDetail,
  type ContactGroupListQuery,
  ContactGroupListResponse,
  type ContactImportFormat,
  type ContactImportRequest,
  ContactImportResult,
  type ContactListQuery,
  ContactListResponse,
  type ContactUpdate,
} from '@ferry/core';
import { API_PREFIX, apiRequest, buildQuery } from './api';

/**
 * The TanStack Query key of everything in the address book (contacts and groups): each change invalidates it
 * whole, so lists, groups and counts all read again.
 */
export const CONTACTS_QUERY_KEY = 'address-book';

const contact = (id: string) => `/user/contacts/${encodeURIComponent(id)}`;
const group = (id: string) => `/user/contact-groups/${encodeURIComponent(id)}`;

/** GET /user/contacts: one page of the signed-in user's address book. */
export function listContacts(query: ContactListQuery, signal?: AbortSignal): Promise<ContactListResponse> {
  return apiRequest('/user/contacts', {
    query: { ...query, limit: typeof query.limit === 'number' ? query.limit : undefined },
    schema: ContactListResponse,
    signal,
  });
}

export function createContact(body: ContactCreate): Promise<Contact> {
  return apiRequest('/user/contacts', { method: 'POST', body, schema: Contact });
}

export function updateContact(id: string, body: ContactUpdate): Promise<Contact> {
  return apiRequest(contact(id), { method: 'PATCH', body, schema: Contact });
}

export function deleteContact(id: string): Promise<unknown> {
  return apiRequest(contact(id), { method: 'DELETE' });
}

/** POST /user/contacts/import with the file's text. */
export function importContacts(body: ContactImportRequest): Promise<ContactImportResult> {
  return apiRequest('/user/contacts/import', { method: 'POST', body, schema: ContactImportResult });
}

/** The address of the export (a plain link: the browser downloads it with the session cookie). */
export function contactsExportUrl(format: ContactImportFormat, groupId?: string): string {
  return `${API_PREFIX}/user/contacts/export${buildQuery({ format, groupId })}`;
}

export function listContactGroups(
  query: ContactGroupListQuery = {},
  signal?: AbortSignal,
): Promise<ContactGroupListResponse> {
  return apiRequest('/user/contact-groups', {
    query: { q: query.q, limit: typeof query.limit === 'number' ? query.limit : undefined },
    schema: ContactGroupListResponse,
    signal,
  });
}

export function getContactGroup(id: string, signal?: AbortSignal): Promise<ContactGroupDetail> {
  return apiRequest(group(id), { schema: ContactGroupDetail, signal });
}

export function createContactGroup(name: string, contactIds: string[] = []): Promise<ContactGroupDetail> {
  return apiRequest('/user/contact-groups', {
    method: 'POST',
    body: { name, contactIds },
    schema: ContactGroupDetail,
  });
}

export function renameContactGroup(id: string, name: string): Promise<ContactGroupDetail> {
  return apiRequest(group(id), { method: 'PATCH', body: { name }, schema: ContactGroupDetail });
}

export function deleteContactGroup(id: string): Promise<unknown> {
  return apiRequest(group(id), { method: 'DELETE' });
}

export function addGroupMembers(
  id: string,
  members: { contactIds?: string[]; emails?: string[] },
): Promise<ContactGroupDetail> {
  return apiRequest(`${group(id)}/members`, { method: 'POST', body: members, schema: ContactGroupDetail });
}

export function removeGroupMember(id: string, contactId: string): Promise<ContactGroupDetail> {
  return apiRequest(`${group(id)}/members/${encodeURIComponent(contactId)}`, {
    method: 'DELETE',
    schema: ContactGroupDetail,
  });
}
