import type { ContactSort, ContactSource } from '@ferry/core';
import type pg from 'pg';

export interface ContactRow {
  id: string;
  email: string;
  name: string | null;
  company: string | null;
  notes: string | null;
  source: ContactSource;
  groupIds: string[];
  useCount: number;
  lastUsedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface ContactGroupRow {
  id: string;
  name: string;
  memberCount: number;
  createdAt: Date;
  updatedAt: Date;
}

/** Where a page of contacts starts: after this contact in the list's order. */
export interface ContactCursor {
  /** lower(coalesce(name, email)) of the last contact given. */
  key: string;
  id: string;
  /** `recent` only: its last use (null: never used). */
  usedAt?: string | null;
}

export interface ContactFilter {
  q?: string;
  groupId?: string;
}

export interface NewContact {
  id: string;
  email: string;
  name: string | null;
  company: string | null;
  notes: string | null;
}

/** A new contact or group could not be stored: why. */
export type Refusal =
  | { refused: 'exists'; id: string }
  | { refused: 'full'; count: number }
  | { refused: 'no_group' }
  | { refused: 'no_contact' }
  | { refused: 'not_found' };

const CONTACT = `c.id, c.email, c.name, c.company, c.notes, c.source, c.use_count AS "useCount",
  c.last_used_at AS "lastUsedAt", c.created_at AS "createdAt", c.updated_at AS "updatedAt",
  coalesce((SELECT array_agg(m.group_id ORDER BY m.group_id) FROM contact_group_members m
             WHERE m.contact_id = c.id), '{}') AS "groupIds"`;
const GROUP = `g.id, g.name, g.created_at AS "createdAt", g.updated_at AS "updatedAt",
  (SELECT count(*)::int FROM contact_group_members m WHERE m.group_id = g.id) AS "memberCount"`;
const SORT_KEY = 'lower(coalesce(c.name, c.email))';

/** `%`, `_` and `\` typed by a user are plain characters in ILIKE. */
const like = (q: string) => `%${q.replace(/[\\%_]/g, '\\$&')}%`;

/** Serializes an account's address book changes that count (the caps) or add (unique addresses). */
const LOCK = `SELECT pg_advisory_xact_lock(hashtextextended('contacts:' || $1, 0))`;

/**
 * The address book and contact groups of each account. Every statement is scoped by the account's id: another
 * account's contact or group is simply not found. Changes that add rows run in one transaction under a per-account
 * lock, so the caps hold against concurrent calls.
 */
export class PgContactsRepository {
  constructor(private readonly pool: pg.Pool) {}

  private async transaction<T>(userId: string, work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(LOCK, [userId]);
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private where(userId: string, filter: ContactFilter, params: unknown[]): string {
    params.push(userId);
    const clauses = [`c.user_id = $${params.length}`];
    if (filter.q) {
      params.push(like(filter.q));
      const p = `$${params.length}`;
      clauses.push(`(c.email ILIKE ${p} OR c.name ILIKE ${p} OR c.company ILIKE ${p})`);
    }
    if (filter.groupId) {
      params.push(filter.groupId);
      clauses.push(
        `EXISTS (SELECT 1 FROM contact_group_members m WHERE m.contact_id = c.id AND m.group_id = $${params.length})`,
      );
    }
    return clauses.join(' AND ');
  }

  /** One page: by name (else address), or by last use (never used last), then by name; keyset after `after`. */
  async list(
    userId: string,
    filter: ContactFilter,
    sort: ContactSort,
    after: ContactCursor | undefined,
    limit: number,
  ): Promise<Array<ContactRow & { sortKey: string }>> {
    const params: unknown[] = [];
    const clauses = [this.where(userId, filter, params)];
    if (after) {
      params.push(after.key, after.id);
      const [k, id] = [`$${params.length - 1}`, `$${params.length}`];
      if (sort === 'name') clauses.push(`(${SORT_KEY}, c.id) > (${k}, ${id})`);
      else if (after.usedAt) {
        params.push(after.usedAt);
        const t = `$${params.length}::timestamptz`;
        clauses.push(
          `(c.last_used_at IS NULL OR c.last_used_at < ${t} OR (c.last_used_at = ${t} AND (${SORT_KEY}, c.id) > (${k}, ${id})))`,
        );
      } else clauses.push(`(c.last_used_at IS NULL AND (${SORT_KEY}, c.id) > (${k}, ${id}))`);
    }
    params.push(limit);
    const order =
      sort === 'name'
        ? `${SORT_KEY}, c.id`
        : `coalesce(c.last_used_at, '-infinity'::timestamptz) DESC, ${SORT_KEY}, c.id`;
    const { rows } = await this.pool.query<ContactRow & { sortKey: string }>(
      `SELECT ${CONTACT}, ${SORT_KEY} AS "sortKey" FROM contacts c
        WHERE ${clauses.join(' AND ')} ORDER BY ${order} LIMIT $${params.length}`,
      params,
    );
    return rows;
  }

  async count(userId: string, filter: ContactFilter = {}): Promise<number> {
    const params: unknown[] = [];
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contacts c WHERE ${this.where(userId, filter, params)}`,
      params,
    );
    return rows[0]!.n;
  }

  async get(userId: string, id: string, db: pg.ClientBase | pg.Pool = this.pool): Promise<ContactRow | null> {
    const { rows } = await db.query<ContactRow>(
      `SELECT ${CONTACT} FROM contacts c WHERE c.user_id = $1 AND c.id = $2`,
      [userId, id],
    );
    return rows[0] ?? null;
  }

  /** Every contact (of a group), by name: for an export. */
  async all(userId: string, groupId?: string): Promise<ContactRow[]> {
    const params: unknown[] = [];
    const { rows } = await this.pool.query<ContactRow>(
      `SELECT ${CONTACT} FROM contacts c WHERE ${this.where(userId, { groupId }, params)}
        ORDER BY ${SORT_KEY}, c.id`,
      params,
    );
    return rows;
  }

  /** Null when every id is one of the account's groups; else the refusal. */
  private async checkGroups(db: pg.ClientBase, userId: string, groupIds: readonly string[]) {
    const unique = [...new Set(groupIds)];
    if (unique.length === 0) return null;
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM contact_groups WHERE user_id = $1 AND id = ANY($2::text[])',
      [userId, unique],
    );
    return rows[0]!.n === unique.length ? null : ({ refused: 'no_group' } as const);
  }

  private async total(db: pg.ClientBase, userId: string): Promise<number> {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM contacts WHERE user_id = $1',
      [userId],
    );
    return rows[0]!.n;
  }

  private async idByEmail(db: pg.ClientBase, userId: string, email: string): Promise<string | null> {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM contacts WHERE user_id = $1 AND lower(email) = lower($2)',
      [userId, email],
    );
    return rows[0]?.id ?? null;
  }

  async create(
    userId: string,
    contact: NewContact,
    source: ContactSource,
    groupIds: readonly string[],
    max: number,
  ): Promise<ContactRow | Refusal> {
    return this.transaction(userId, async (db) => {
      const existing = await this.idByEmail(db, userId, contact.email);
      if (existing) return { refused: 'exists', id: existing };
      const badGroup = await this.checkGroups(db, userId, groupIds);
      if (badGroup) return badGroup;
      const count = await this.total(db, userId);
      if (count >= max) return { refused: 'full', count };
      await db.query(
        `INSERT INTO contacts (id, user_id, email, name, company, notes, source)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [contact.id, userId, contact.email, contact.name, contact.company, contact.notes, source],
      );
      await this.join(db, userId, [contact.id], groupIds);
      return (await this.get(userId, contact.id, db))!;
    });
  }

  /** Puts contacts in groups (both already checked to be the account's); members already there stay. */
  private async join(
    db: pg.ClientBase,
    userId: string,
    contactIds: readonly string[],
    groupIds: readonly string[],
  ) {
    if (contactIds.length === 0 || groupIds.length === 0) return;
    await db.query(
      `INSERT INTO contact_group_members (user_id, group_id, contact_id)
       SELECT $1, g, c FROM unnest($2::text[]) g CROSS JOIN unnest($3::text[]) c
       ON CONFLICT DO NOTHING`,
      [userId, [...new Set(groupIds)], [...new Set(contactIds)]],
    );
    await db.query(
      'UPDATE contact_groups SET updated_at = now() WHERE user_id = $1 AND id = ANY($2::text[])',
      [userId, [...new Set(groupIds)]],
    );
  }

  async update(
    userId: string,
    id: string,
    patch: { email?: string; name?: string | null; company?: string | null; notes?: string | null },
    groupIds: readonly string[] | undefined,
  ): Promise<ContactRow | Refusal> {
    return this.transaction(userId, async (db) => {
      if (!(await this.get(userId, id, db))) return { refused: 'not_found' };
      if (patch.email !== undefined) {
        const other = await this.idByEmail(db, userId, patch.email);
        if (other && other !== id) return { refused: 'exists', id: other };
      }
      if (groupIds) {
        const badGroup = await this.checkGroups(db, userId, groupIds);
        if (badGroup) return badGroup;
      }
      const sets: string[] = [];
      const params: unknown[] = [userId, id];
      for (const [column, value] of Object.entries(patch)) {
        if (value === undefined) continue;
        params.push(value);
        sets.push(`${column} = $${params.length}`);
      }
      if (sets.length > 0)
        await db.query(
          `UPDATE contacts SET ${sets.join(', ')}, updated_at = now() WHERE user_id = $1 AND id = $2`,
          params,
        );
      if (groupIds) {
        await db.query(
          `DELETE FROM contact_group_members WHERE user_id = $1 AND contact_id = $2
             AND NOT (group_id = ANY($3::text[]))`,
          [userId, id, [...new Set(groupIds)]],
        );
        await this.join(db, userId, [id], groupIds);
      }
      return (await this.get(userId, id, db))!;
    });
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM contacts WHERE user_id = $1 AND id = $2', [
      userId,
      id,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Adds what a file holds: new addresses as `import` contacts; addresses already there only get the name,
   * company or notes they lacked. All or nothing: past the cap, nothing is stored.
   */
  async import(
    userId: string,
    entries: ReadonlyArray<NewContact>,
    groupId: string | null,
    max: number,
  ): Promise<{ added: number; updated: number; unchanged: number } | Refusal> {
    return this.transaction(userId, async (db) => {
      if (groupId) {
        const badGroup = await this.checkGroups(db, userId, [groupId]);
        if (badGroup) return badGroup;
      }
      const { rows: found } = await db.query<{
        id: string;
        key: string;
        name: string | null;
        company: string | null;
        notes: string | null;
      }>(
        `SELECT id, lower(email) AS key, name, company, notes FROM contacts
          WHERE user_id = $1 AND lower(email) = ANY($2::text[])`,
        [userId, entries.map((e) => e.email.toLowerCase())],
      );
      const existing = new Map(found.map((row) => [row.key, row]));
      const fresh = entries.filter((e) => !existing.has(e.email.toLowerCase()));
      const count = await this.total(db, userId);
      if (count + fresh.length > max) return { refused: 'full', count };
      const fills: NewContact[] = [];
      for (const e of entries) {
        const row = existing.get(e.email.toLowerCase());
        if (!row) continue;
        const fill = {
          id: row.id,
          email: e.email,
          name: row.name ? null : e.name,
          company: row.company ? null : e.company,
          notes: row.notes ? null : e.notes,
        };
        if (fill.name || fill.company || fill.notes) fills.push(fill);
      }
      const columns = (list: readonly NewContact[]) => [
        list.map((e) => e.id),
        list.map((e) => e.email),
        list.map((e) => e.name),
        list.map((e) => e.company),
        list.map((e) => e.notes),
      ];
      if (fresh.length > 0)
        await db.query(
          `INSERT INTO contacts (id, user_id, email, name, company, notes, source)
           SELECT id, $1, email, name, company, notes, 'import'
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
               AS e(id, email, name, company, notes)`,
          [userId, ...columns(fresh)],
        );
      if (fills.length > 0)
        await db.query(
          `UPDATE contacts c SET name = coalesce(c.name, e.name), company = coalesce(c.company, e.company),
                  notes = coalesce(c.notes, e.notes), updated_at = now()
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[])
               AS e(id, email, name, company, notes)
            WHERE c.user_id = $1 AND c.id = e.id`,
          [userId, ...columns(fills)],
        );
      if (groupId)
        await this.join(db, userId, [...fresh.map((e) => e.id), ...found.map((row) => row.id)], [groupId]);
      return {
        added: fresh.length,
        updated: fills.length,
        unchanged: entries.length - fresh.length - fills.length,
      };
    });
  }

  /**
   * Recipients of a transfer the account sent: known addresses are marked used (count and time); new ones are
   * saved as `auto` contacts while the book has room. Returns how many were new and saved.
   */
  async remember(
    userId: string,
    entries: ReadonlyArray<{ id: string; email: string }>,
    max: number,
  ): Promise<number> {
    return this.transaction(userId, async (db) => {
      const { rows } = await db.query<{ key: string }>(
        `UPDATE contacts SET use_count = use_count + 1, last_used_at = date_trunc('milliseconds', now())
          WHERE user_id = $1 AND lower(email) = ANY($2::text[]) RETURNING lower(email) AS key`,
        [userId, entries.map((e) => e.email.toLowerCase())],
      );
      const known = new Set(rows.map((r) => r.key));
      const room = Math.max(0, max - (await this.total(db, userId)));
      const fresh = entries.filter((e) => !known.has(e.email.toLowerCase())).slice(0, room);
      if (fresh.length > 0)
        await db.query(
          `INSERT INTO contacts (id, user_id, email, source, use_count, last_used_at)
           SELECT id, $1, email, 'auto', 1, date_trunc('milliseconds', now())
             FROM unnest($2::text[], $3::text[]) AS e(id, email)
           ON CONFLICT DO NOTHING`,
          [userId, fresh.map((e) => e.id), fresh.map((e) => e.email)],
        );
      return fresh.length;
    });
  }

  // --- groups ----------------------------------------------------------------------------------------------

  async groups(userId: string, q: string | undefined, limit: number): Promise<ContactGroupRow[]> {
    const { rows } = await this.pool.query<ContactGroupRow>(
      `SELECT ${GROUP} FROM contact_groups g
        WHERE g.user_id = $1 AND ($2::text IS NULL OR g.name ILIKE $2)
        ORDER BY lower(g.name), g.id LIMIT $3`,
      [userId, q ? like(q) : null, limit],
    );
    return rows;
  }

  async groupCount(userId: string, q?: string): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM contact_groups WHERE user_id = $1 AND ($2::text IS NULL OR name ILIKE $2)`,
      [userId, q ? like(q) : null],
    );
    return rows[0]!.n;
  }

  async group(
    userId: string,
    id: string,
    db: pg.ClientBase | pg.Pool = this.pool,
  ): Promise<(ContactGroupRow & { members: ContactRow[] }) | null> {
    const { rows } = await db.query<ContactGroupRow>(
      `SELECT ${GROUP} FROM contact_groups g WHERE g.user_id = $1 AND g.id = $2`,
      [userId, id],
    );
    if (!rows[0]) return null;
    const { rows: members } = await db.query<ContactRow>(
      `SELECT ${CONTACT} FROM contacts c JOIN contact_group_members m ON m.contact_id = c.id
        WHERE m.user_id = $1 AND m.group_id = $2 ORDER BY ${SORT_KEY}, c.id`,
      [userId, id],
    );
    return { ...rows[0], members };
  }

  private async groupIdByName(db: pg.ClientBase, userId: string, name: string): Promise<string | null> {
    const { rows } = await db.query<{ id: string }>(
      'SELECT id FROM contact_groups WHERE user_id = $1 AND lower(name) = lower($2)',
      [userId, name],
    );
    return rows[0]?.id ?? null;
  }

  /** Null when every id is one of the account's contacts; else the refusal. */
  private async checkContacts(db: pg.ClientBase, userId: string, contactIds: readonly string[]) {
    const unique = [...new Set(contactIds)];
    if (unique.length === 0) return null;
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM contacts WHERE user_id = $1 AND id = ANY($2::text[])',
      [userId, unique],
    );
    return rows[0]!.n === unique.length ? null : ({ refused: 'no_contact' } as const);
  }

  async createGroup(
    userId: string,
    group: { id: string; name: string },
    contactIds: readonly string[],
    max: number,
  ): Promise<(ContactGroupRow & { members: ContactRow[] }) | Refusal> {
    return this.transaction(userId, async (db) => {
      const existing = await this.groupIdByName(db, userId, group.name);
      if (existing) return { refused: 'exists', id: existing };
      const badContact = await this.checkContacts(db, userId, contactIds);
      if (badContact) return badContact;
      const { rows } = await db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM contact_groups WHERE user_id = $1',
        [userId],
      );
      if (rows[0]!.n >= max) return { refused: 'full', count: rows[0]!.n };
      await db.query('INSERT INTO contact_groups (id, user_id, name) VALUES ($1, $2, $3)', [
        group.id,
        userId,
        group.name,
      ]);
      await this.join(db, userId, contactIds, [group.id]);
      return (await this.group(userId, group.id, db))!;
    });
  }

  async renameGroup(
    userId: string,
    id: string,
    name: string,
  ): Promise<(ContactGroupRow & { members: ContactRow[] }) | Refusal> {
    return this.transaction(userId, async (db) => {
      const existing = await this.groupIdByName(db, userId, name);
      if (existing && existing !== id) return { refused: 'exists', id: existing };
      const { rowCount } = await db.query(
        'UPDATE contact_groups SET name = $3, updated_at = now() WHERE user_id = $1 AND id = $2',
        [userId, id, name],
      );
      if (!rowCount) return { refused: 'not_found' };
      return (await this.group(userId, id, db))!;
    });
  }

  async removeGroup(userId: string, id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM contact_groups WHERE user_id = $1 AND id = $2', [
      userId,
      id,
    ]);
    return (rowCount ?? 0) > 0;
  }

  /**
   * Adds contacts (by id) and addresses to a group; an address not in the book is saved first (`manual`), one
   * already there is used as it is.
   */
  async addMembers(
    userId: string,
    groupId: string,
    contactIds: readonly string[],
    emails: ReadonlyArray<{ id: string; email: string }>,
    max: number,
  ): Promise<(ContactGroupRow & { members: ContactRow[] }) | Refusal> {
    return this.transaction(userId, async (db) => {
      if (await this.checkGroups(db, userId, [groupId])) return { refused: 'not_found' };
      const badContact = await this.checkContacts(db, userId, contactIds);
      if (badContact) return badContact;
      const ids = [...contactIds];
      const fresh: Array<{ id: string; email: string }> = [];
      for (const e of emails) {
        const known = await this.idByEmail(db, userId, e.email);
        if (known) ids.push(known);
        else if (!fresh.some((f) => f.email.toLowerCase() === e.email.toLowerCase())) fresh.push(e);
      }
      const count = await this.total(db, userId);
      if (count + fresh.length > max) return { refused: 'full', count };
      if (fresh.length > 0)
        await db.query(
          `INSERT INTO contacts (id, user_id, email, source)
           SELECT id, $1, email, 'manual' FROM unnest($2::text[], $3::text[]) AS e(id, email)`,
          [userId, fresh.map((e) => e.id), fresh.map((e) => e.email)],
        );
      await this.join(db, userId, [...ids, ...fresh.map((e) => e.id)], [groupId]);
      return (await this.group(userId, groupId, db))!;
    });
  }

  /** 'no_group' when the group is not the account's, 'not_member' when the contact is not in it. */
  async removeMember(
    userId: string,
    groupId: string,
    contactId: string,
  ): Promise<'ok' | 'no_group' | 'not_member'> {
    return this.transaction(userId, async (db) => {
      if (await this.checkGroups(db, userId, [groupId])) return 'no_group';
      const { rowCount } = await db.query(
        'DELETE FROM contact_group_members WHERE user_id = $1 AND group_id = $2 AND contact_id = $3',
        [userId, groupId, contactId],
      );
      if (!rowCount) return 'not_member';
      await db.query('UPDATE contact_groups SET updated_at = now() WHERE user_id = $1 AND id = $2', [
        userId,
        groupId,
      ]);
      return 'ok';
    });
  }
}
