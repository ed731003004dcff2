import { z } from 'zod';
import { Email } from './transfer.js';

/**
 * The address book and contact groups (/dashboard/address-book, /dashboard/contact-groups; spec §1, §2, §3
 * addressBookSettings). Each signed-in account has its own: contacts (one per address, case-insensitively) and
 * named groups of them. Calls live under /api/user/contacts and /api/user/contact-groups (docs/api.md).
 */

/** How a contact got into the address book: typed in, saved from a sent transfer, or imported from a file. */
export const CONTACT_SOURCES = ['manual', 'auto', 'import'] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

/** At most this many contacts per account. */
export const MAX_CONTACTS = 10_000;
/** At most this many groups per account. */
export const MAX_CONTACT_GROUPS = 500;
/** An import file may hold at most this many bytes (UTF-8): 2 MB. */
export const MAX_CONTACT_IMPORT_BYTES = 2_000_000;
/** An import answer lists at most this many skipped lines (its `skipped` count has them all). */
export const MAX_IMPORT_SKIPPED_LINES = 500;
export const CONTACT_LIST_DEFAULT_LIMIT = 50;
export const CONTACT_LIST_MAX_LIMIT = 200;
export const CONTACT_NAME_MAX = 200;
export const CONTACT_COMPANY_MAX = 200;
export const CONTACT_NOTES_MAX = 2000;
export const CONTACT_GROUP_NAME_MAX = 100;

/** Contact and group ids: a letter prefix and 16 random alphanumerics. */
export const ContactId = z.string().regex(/^c_[A-Za-z0-9]{16}$/, 'not a contact id');
export const ContactGroupId = z.string().regex(/^g_[A-Za-z0-9]{16}$/, 'not a contact group id');

/** PostgreSQL text cannot hold NUL: refused up front (400, not 500). Blank text is stored as null. */
const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .transform((v) => v || null);

export const Contact = z.object({
  id: ContactId,
  email: z.string(),
  name: z.string().nullable(),
  company: z.string().nullable(),
  notes: z.string().nullable(),
  source: z.enum(CONTACT_SOURCES),
  /** The groups the contact is in. */
  groupIds: z.array(ContactGroupId),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** When a transfer of this account was last sent to the address (null: never). */
  lastUsedAt: z.string().nullable(),
  /** How many transfers of this account went to the address since it was saved. */
  useCount: z.number().int(),
});
export type Contact = z.infer<typeof Contact>;

export const CONTACT_SORTS = ['name', 'recent'] as const;
export type ContactSort = (typeof CONTACT_SORTS)[number];

/**
 * GET /api/user/contacts: one page of the address book.
 * - `q`: case-insensitive substring of the address, name or company;
 * - `sort`: `name` (by name, else address; the default) or `recent` (last used first, then by name);
 * - `groupId`: only the members of that group;
 * - `cursor`: the previous page's `nextCursor`, with the same `sort`, `q` and `groupId`.
 */
export const ContactListQuery = z.object({
  q: z
    .string()
    .max(200)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .transform((v) => v.trim() || undefined)
    .optional(),
  sort: z.enum(CONTACT_SORTS).default('name'),
  groupId: ContactGroupId.optional(),
  cursor: z.string().max(800).optional(),
  limit: z.coerce.number().int().min(1).max(CONTACT_LIST_MAX_LIMIT).default(CONTACT_LIST_DEFAULT_LIMIT),
});
export type ContactListQuery = z.input<typeof ContactListQuery>;

export const ContactListResponse = z.object({
  items: z.array(Contact),
  /** Give it as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
  /** How many contacts match `q` and `groupId`. */
  total: z.number().int(),
  /** How many contacts the account has, and may have. */
  count: z.number().int(),
  max: z.number().int(),
});
export type ContactListResponse = z.infer<typeof ContactListResponse>;

/** POST /api/user/contacts. An address already in the book is `409 CONFLICT` (`details.contactId`). */
export const ContactCreate = z.strictObject({
  email: Email,
  name: text(CONTACT_NAME_MAX).nullable().optional(),
  company: text(CONTACT_COMPANY_MAX).nullable().optional(),
  notes: text(CONTACT_NOTES_MAX).nullable().optional(),
  /** Groups to put the new contact in. */
  groupIds: z.array(ContactGroupId).max(MAX_CONTACT_GROUPS).optional(),
});
export type ContactCreate = z.input<typeof ContactCreate>;

/** PATCH /api/user/contacts/{id}: any field; `groupIds` replaces the contact's groups; "" or null clears text. */
export const ContactUpdate = z.strictObject({
  email: Email.optional(),
  name: text(CONTACT_NAME_MAX).nullable().optional(),
  company: text(CONTACT_COMPANY_MAX).nullable().optional(),
  notes: text(CONTACT_NOTES_MAX).nullable().optional(),
  groupIds: z.array(ContactGroupId).max(MAX_CONTACT_GROUPS).optional(),
});
export type ContactUpdate = z.input<typeof ContactUpdate>;

export const CONTACT_IMPORT_FORMATS = ['csv', 'vcard'] as const;
export type ContactImportFormat = (typeof CONTACT_IMPORT_FORMATS)[number];

/**
 * POST /api/user/contacts/import as JSON (the file's text in `content`). The same call also takes the file itself
 * as a `text/csv` or `text/vcard` body, with `groupId` in the query.
 */
export const ContactImportRequest = z.strictObject({
  /** Absent: a text that starts with BEGIN:VCARD is vCard, any other CSV. */
  format: z.enum(CONTACT_IMPORT_FORMATS).optional(),
  content: z.string(),
  /** Put every contact of the file (new or already there) in this group. */
  groupId: ContactGroupId.optional(),
});
export type ContactImportRequest = z.input<typeof ContactImportRequest>;

/**
 * Why a line of an import was skipped: no address on it, not an address, the same address earlier in the file,
 * a value too long, or a line that could not be read (a broken quote).
 */
export const CONTACT_IMPORT_SKIP_REASONS = [
  'missing_email',
  'invalid_email',
  'duplicate',
  'too_long',
  'unreadable',
] as const;
export type ContactImportSkipReason = (typeof CONTACT_IMPORT_SKIP_REASONS)[number];

export const ContactImportSkippedLine = z.object({
  /** 1-based line of the file (for a vCard, the line of its BEGIN:VCARD). */
  line: z.number().int(),
  reason: z.enum(CONTACT_IMPORT_SKIP_REASONS),
  /** What was found there (the text that is not an address), shortened to 200 characters. */
  value: z.string().nullable(),
});
export type ContactImportSkippedLine = z.infer<typeof ContactImportSkippedLine>;

/**
 * The import's outcome. Nothing is ever removed or overwritten: an address already in the book only gets the
 * name, company or notes it did not have (`updated`), otherwise it is `unchanged`.
 */
export const ContactImportResult = z.object({
  format: z.enum(CONTACT_IMPORT_FORMATS),
  added: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  skipped: z.number().int(),
  /** The first MAX_IMPORT_SKIPPED_LINES skipped lines, in file order. */
  skippedLines: z.array(ContactImportSkippedLine),
  groupId: ContactGroupId.nullable(),
});
export type ContactImportResult = z.infer<typeof ContactImportResult>;

/** GET /api/user/contacts/export?format=csv|vcard[&groupId=]: the address book (or a group) as a file. */
export const ContactExportQuery = z.object({
  format: z.enum(CONTACT_IMPORT_FORMATS).default('csv'),
  groupId: ContactGroupId.optional(),
});
export type ContactExportQuery = z.input<typeof ContactExportQuery>;

export const ContactGroup = z.object({
  id: ContactGroupId,
  name: z.string(),
  memberCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type ContactGroup = z.infer<typeof ContactGroup>;

/** GET /api/user/contact-groups/{id}: the group and all its members, by name. */
export const ContactGroupDetail = ContactGroup.extend({ members: z.array(Contact) });
export type ContactGroupDetail = z.infer<typeof ContactGroupDetail>;

/** GET /api/user/contact-groups?q=&limit=: the account's groups by name (`q`: substring of the name). */
export const ContactGroupListQuery = z.object({
  q: z
    .string()
    .max(200)
    .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters')
    .transform((v) => v.trim() || undefined)
    .optional(),
  limit: z.coerce.number().int().min(1).max(MAX_CONTACT_GROUPS).default(MAX_CONTACT_GROUPS),
});
export type ContactGroupListQuery = z.input<typeof ContactGroupListQuery>;

export const ContactGroupListResponse = z.object({
  items: z.array(ContactGroup),
  /** How many groups match `q`. */
  total: z.number().int(),
  /** How many groups the account has, and may have. */
  count: z.number().int(),
  max: z.number().int(),
});
export type ContactGroupListResponse = z.infer<typeof ContactGroupListResponse>;

const groupName = z
  .string()
  .trim()
  .min(1)
  .max(CONTACT_GROUP_NAME_MAX)
  .refine((v) => !v.includes('\u0000'), 'must not contain NUL characters');

/** POST /api/user/contact-groups. A name already used (case-insensitively) is `409 CONFLICT`. */
export const ContactGroupCreate = z.strictObject({
  name: groupName,
  contactIds: z.array(ContactId).max(MAX_CONTACTS).optional(),
});
export type ContactGroupCreate = z.input<typeof ContactGroupCreate>;

/** PATCH /api/user/contact-groups/{id}: a new name. */
export const ContactGroupUpdate = z.strictObject({ name: groupName });
export type ContactGroupUpdate = z.input<typeof ContactGroupUpdate>;

/**
 * POST /api/user/contact-groups/{id}/members: contacts by id, and/or addresses (an address not in the book is
 * added to it first, as typed in).
 */
export const ContactGroupMembersAdd = z
  .strictObject({
    contactIds: z.array(ContactId).max(MAX_CONTACTS).optional(),
    emails: z.array(Email).max(1000).optional(),
  })
  .refine((v) => (v.contactIds?.length ?? 0) + (v.emails?.length ?? 0) > 0, 'give contactIds or emails');
export type ContactGroupMembersAdd = z.input<typeof ContactGroupMembersAdd>;
