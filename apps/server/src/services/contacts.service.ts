import {
  type Contact,
  ContactCreate,
  ContactExportQuery,
  type ContactGroup,
  ContactGroupCreate,
  type ContactGroupDetail,
  ContactGroupId,
  ContactGroupListQuery,
  type ContactGroupListResponse,
  ContactGroupMembersAdd,
  ContactGroupUpdate,
  ContactId,
  ContactImportRequest,
  type ContactImportResult,
  ContactListQuery,
  type ContactListResponse,
  type ContactSort,
  ContactUpdate,
  formatSize,
  MAX_CONTACT_GROUPS,
  MAX_CONTACT_IMPORT_BYTES,
  MAX_CONTACTS,
  MAX_IMPORT_SKIPPED_LINES,
} from '@ferry/core';
import type { Logger } from 'pino';
import type { PgAccountRepository } from '../db/account.repository.js';
import type {
  ContactCursor,
  ContactGroupRow,
  ContactRow,
  PgContactsRepository,
  Refusal,
} from '../db/contacts.repository.js';
import { randomAlphanumeric } from '../lib/ids.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { contactsToCsv, contactsToVCard } from './contacts-export.js';
import { parseContactFile } from './contacts-import.js';
import { settingsOf } from './user.service.js';

const newContactId = () => `c_${randomAlphanumeric(16)}`;
const newGroupId = () => `g_${randomAlphanumeric(16)}`;

const noContact = () => new AppError('NOT_FOUND', 'No such contact in your address book.');
const noGroup = () => new AppError('NOT_FOUND', 'No such contact group.');
const bookFull = (count: number, adding: number) =>
  new AppError(
    'LIMIT_EXCEEDED',
    `Your address book holds at most ${MAX_CONTACTS} contacts: delete some before adding more.`,
    { details: { limit: 'contacts', max: MAX_CONTACTS, actual: count + adding } },
  );

function signedIn(auth: Authenticated | null): string {
  if (!auth) throw new AppError('UNAUTHORIZED', 'Sign in first.');
  return auth.user.id;
}

/** A refusal of the repository as the error the caller gets. */
function refusal(r: Refusal, adding = 1): AppError {
  switch (r.refused) {
    case 'exists':
      return new AppError('CONFLICT', 'This address is already in your address book.', {
        details: { contactId: r.id },
      });
    case 'full':
      return bookFull(r.count, adding);
    case 'no_group':
      return noGroup();
    case 'no_contact':
      return noContact();
    case 'not_found':
      return noContact();
  }
}

const isRefusal = (value: object): value is Refusal => 'refused' in value;

function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    company: row.company,
    notes: row.notes,
    source: row.source,
    groupIds: row.groupIds,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    useCount: row.useCount,
  };
}

function toGroup(row: ContactGroupRow): ContactGroup {
  return {
    id: row.id,
    name: row.name,
    memberCount: row.memberCount,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toGroupDetail(row: ContactGroupRow & { members: ContactRow[] }): ContactGroupDetail {
  return { ...toGroup(row), members: row.members.map(toContact) };
}

const badCursor = () =>
  new AppError('VALIDATION_FAILED', 'This cursor is not valid for this list: start from the first page.', {
    details: { field: 'cursor' },
  });

/** The next page's cursor: where the last contact stands in the sort order (it carries no secret). */
function writeCursor(sort: ContactSort, last: ContactRow & { sortKey: string }): string {
  const position = [
    sort,
    last.sortKey,
    last.id,
    sort === 'recent' ? (last.lastUsedAt?.toISOString() ?? null) : null,
  ];
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function readCursor(cursor: string, sort: ContactSort): ContactCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 4) throw badCursor();
  const [s, key, id, usedAt] = parsed;
  if (s !== sort || typeof key !== 'string' || key.length > 1300 || key.includes('\u0000')) throw badCursor();
  if (!ContactId.safeParse(id).success) throw badCursor();
  if (usedAt !== null && (typeof usedAt !== 'string' || Number.isNaN(Date.parse(usedAt)))) throw badCursor();
  return { key, id, usedAt };
}

/**
 * The address book and contact groups of the signed-in account (/dashboard/address-book, /dashboard/contact-groups).
 * Every call acts on the caller's own book only: another account's contact or group is not found. Caps:
 * MAX_CONTACTS contacts and MAX_CONTACT_GROUPS groups per account.
 */
export class ContactsService {
  constructor(
    private readonly repo: PgContactsRepository,
    private readonly accounts: Pick<PgAccountRepository, 'user'>,
    private readonly logger: Logger,
  ) {}

  async list(auth: Authenticated | null, input: ContactListQuery): Promise<ContactListResponse> {
    const userId = signedIn(auth);
    const query = ContactListQuery.parse(input);
    // Another account's group is not found, as everywhere else (not an empty list that says it exists).
    if (query.groupId && !(await this.repo.group(userId, query.groupId))) throw noGroup();
    const after = query.cursor ? readCursor(query.cursor, query.sort) : undefined;
    const filter = { q: query.q, groupId: query.groupId };
    const rows = await this.repo.list(userId, filter, query.sort, after, query.limit + 1);
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const count = await this.repo.count(userId);
    return {
      items: page.map(toContact),
      nextCursor: rows.length > query.limit && last ? writeCursor(query.sort, last) : null,
      total: query.q || query.groupId ? await this.repo.count(userId, filter) : count,
      count,
      max: MAX_CONTACTS,
    };
  }

  async get(auth: Authenticated | null, id: string): Promise<Contact> {
    const userId = signedIn(auth);
    const row = ContactId.safeParse(id).success ? await this.repo.get(userId, id) : null;
    if (!row) throw noContact();
    return toContact(row);
  }

  async create(auth: Authenticated | null, input: ContactCreate): Promise<Contact> {
    const userId = signedIn(auth);
    const body = ContactCreate.parse(input);
    const result = await this.repo.create(
      userId,
      {
        id: newContactId(),
        email: body.email,
        name: body.name ?? null,
        company: body.company ?? null,
        notes: body.notes ?? null,
      },
      'manual',
      body.groupIds ?? [],
      MAX_CONTACTS,
    );
    if (isRefusal(result)) throw refusal(result);
    return toContact(result);
  }

  async update(auth: Authenticated | null, id: string, input: ContactUpdate): Promise<Contact> {
    const userId = signedIn(auth);
    const body = ContactUpdate.parse(input);
    if (!ContactId.safeParse(id).success) throw noContact();
    const result = await this.repo.update(
      userId,
      id,
      { email: body.email, name: body.name, company: body.company, notes: body.notes },
      body.groupIds,
    );
    if (isRefusal(result)) throw refusal(result);
    return toContact(result);
  }

  async remove(auth: Authenticated | null, id: string): Promise<void> {
    const userId = signedIn(auth);
    if (!ContactId.safeParse(id).success || !(await this.repo.remove(userId, id))) throw noContact();
  }

  /**
   * Reads a CSV or vCard file into the book (see ContactImportResult): bad lines are skipped and reported, what
   * is stored is never overwritten, and past the cap nothing at all is stored.
   */
  async import(auth: Authenticated | null, input: ContactImportRequest): Promise<ContactImportResult> {
    const userId = signedIn(auth);
    const request = ContactImportRequest.parse(input);
    if (Buffer.byteLength(request.content, 'utf8') > MAX_CONTACT_IMPORT_BYTES)
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The file is too large: ${formatSize(MAX_CONTACT_IMPORT_BYTES)} at most.`,
        { details: { max: MAX_CONTACT_IMPORT_BYTES } },
      );
    const parsed = await parseContactFile(request.content, request.format);
    const result = await this.repo.import(
      userId,
      parsed.contacts.map((c) => ({ ...c, id: newContactId() })),
      request.groupId ?? null,
      MAX_CONTACTS,
    );
    if (isRefusal(result)) {
      if (result.refused === 'full') throw bookFull(result.count, parsed.contacts.length);
      throw noGroup();
    }
    return {
      format: parsed.format,
      ...result,
      skipped: parsed.skipped.length,
      skippedLines: parsed.skipped.slice(0, MAX_IMPORT_SKIPPED_LINES),
      groupId: request.groupId ?? null,
    };
  }

  /** The book (or one group) as a CSV or vCard file. */
  async export(
    auth: Authenticated | null,
    input: ContactExportQuery,
  ): Promise<{ fileName: string; contentType: string; body: string }> {
    const userId = signedIn(auth);
    const query = ContactExportQuery.parse(input);
    if (query.groupId && !(await this.repo.group(userId, query.groupId))) throw noGroup();
    const rows = await this.repo.all(userId, query.groupId);
    return query.format === 'vcard'
      ? { fileName: 'contacts.vcf', contentType: 'text/vcard; charset=utf-8', body: contactsToVCard(rows) }
      : { fileName: 'contacts.csv', contentType: 'text/csv; charset=utf-8', body: contactsToCsv(rows) };
  }

  /**
   * addressBookSettings.autoSave (spec §3): the recipients of a transfer the account sent become contacts (or,
   * when known, are marked used). Never fails the send: a problem is logged.
   */
  async rememberRecipients(userId: string, emails: readonly string[]): Promise<void> {
    if (emails.length === 0) return;
    try {
      const user = await this.accounts.user(userId);
      if (!user || !settingsOf(user).addressBookSettings.autoSave) return;
      const saved = await this.repo.remember(
        userId,
        emails.map((email) => ({ id: newContactId(), email })),
        MAX_CONTACTS,
      );
      if (saved < emails.length)
        this.logger.debug({ userId, saved, recipients: emails.length }, 'recipients remembered');
    } catch (err) {
      this.logger.warn({ err, userId }, 'could not save the recipients to the address book');
    }
  }

  // --- groups ----------------------------------------------------------------------------------------------

  async groups(auth: Authenticated | null, input: ContactGroupListQuery): Promise<ContactGroupListResponse> {
    const userId = signedIn(auth);
    const query = ContactGroupListQuery.parse(input);
    const rows = await this.repo.groups(userId, query.q, query.limit);
    const count = await this.repo.groupCount(userId);
    return {
      items: rows.map(toGroup),
      total: query.q ? await this.repo.groupCount(userId, query.q) : count,
      count,
      max: MAX_CONTACT_GROUPS,
    };
  }

  async group(auth: Authenticated | null, id: string): Promise<ContactGroupDetail> {
    const userId = signedIn(auth);
    const row = ContactGroupId.safeParse(id).success ? await this.repo.group(userId, id) : null;
    if (!row) throw noGroup();
    return toGroupDetail(row);
  }

  async createGroup(auth: Authenticated | null, input: ContactGroupCreate): Promise<ContactGroupDetail> {
    const userId = signedIn(auth);
    const body = ContactGroupCreate.parse(input);
    const result = await this.repo.createGroup(
      userId,
      { id: newGroupId(), name: body.name },
      body.contactIds ?? [],
      MAX_CONTACT_GROUPS,
    );
    if (isRefusal(result)) throw groupRefusal(result);
    return toGroupDetail(result);
  }

  async renameGroup(
    auth: Authenticated | null,
    id: string,
    input: ContactGroupUpdate,
  ): Promise<ContactGroupDetail> {
    const userId = signedIn(auth);
    const body = ContactGroupUpdate.parse(input);
    if (!ContactGroupId.safeParse(id).success) throw noGroup();
    const result = await this.repo.renameGroup(userId, id, body.name);
    if (isRefusal(result)) throw groupRefusal(result);
    return toGroupDetail(result);
  }

  async removeGroup(auth: Authenticated | null, id: string): Promise<void> {
    const userId = signedIn(auth);
    if (!ContactGroupId.safeParse(id).success || !(await this.repo.removeGroup(userId, id))) throw noGroup();
  }

  async addMembers(
    auth: Authenticated | null,
    id: string,
    input: ContactGroupMembersAdd,
  ): Promise<ContactGroupDetail> {
    const userId = signedIn(auth);
    const body = ContactGroupMembersAdd.parse(input);
    if (!ContactGroupId.safeParse(id).success) throw noGroup();
    const emails = (body.emails ?? []).map((email) => ({ id: newContactId(), email }));
    const result = await this.repo.addMembers(userId, id, body.contactIds ?? [], emails, MAX_CONTACTS);
    if (isRefusal(result)) {
      if (result.refused === 'not_found') throw noGroup();
      throw refusal(result, emails.length);
    }
    return toGroupDetail(result);
  }

  async removeMember(auth: Authenticated | null, id: string, contactId: string): Promise<ContactGroupDetail> {
    const userId = signedIn(auth);
    if (!ContactGroupId.safeParse(id).success) throw noGroup();
    const outcome = ContactId.safeParse(contactId).success
      ? await this.repo.removeMember(userId, id, contactId)
      : 'not_member';
    if (outcome === 'no_group') throw noGroup();
    if (outcome === 'not_member') throw new AppError('NOT_FOUND', 'This contact is not in the group.');
    return this.group(auth, id);
  }
}

function groupRefusal(r: Refusal): AppError {
  switch (r.refused) {
    case 'exists':
      return new AppError('CONFLICT', 'You already have a group with this name.', {
        details: { groupId: r.id },
      });
    case 'full':
      return new AppError(
        'LIMIT_EXCEEDED',
        `You can have at most ${MAX_CONTACT_GROUPS} contact groups: delete one before creating another.`,
        { details: { limit: 'contactGroups', max: MAX_CONTACT_GROUPS, actual: r.count + 1 } },
      );
    case 'not_found':
      return noGroup();
    default:
      return refusal(r);
  }
}
