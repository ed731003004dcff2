import type { Contact, ContactGroup, ContactGroupDetail, ContactListResponse } from '@ferry/core';

/** For tests: a contact as the API gives it. */
export function contact(overrides: Partial<Contact> = {}): Contact {
  return {
    id: 'c_AAAAAAAAAAAAAAAA',
    email: 'bob@example.com',
    name: 'Bob Stone',
    company: null,
    notes: null,
    source: 'manual',
    groupIds: [],
    createdAt: '2030-01-01T10:00:00.000Z',
    updatedAt: '2030-01-01T10:00:00.000Z',
    lastUsedAt: null,
    useCount: 0,
    ...overrides,
  };
}

/** For tests: a GET /api/user/contacts answer. */
export function contactPage(
  items: Contact[],
  overrides: Partial<ContactListResponse> = {},
): ContactListResponse {
  return { items, nextCursor: null, total: items.length, count: items.length, max: 10_000, ...overrides };
}

export function contactGroup(overrides: Partial<ContactGroup> = {}): ContactGroup {
  return {
    id: 'g_AAAAAAAAAAAAAAAA',
    name: 'Team',
    memberCount: 0,
    createdAt: '2030-01-01T10:00:00.000Z',
    updatedAt: '2030-01-01T10:00:00.000Z',
    ...overrides,
  };
}

export function groupDetail(group: Partial<ContactGroup>, members: Contact[]): ContactGroupDetail {
  return { ...contactGroup({ ...group, memberCount: members.length }), members };
}

export function groupPage(items: ContactGroup[]) {
  return { items, total: items.length, count: items.length, max: 500 };
}
