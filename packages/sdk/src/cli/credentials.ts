import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PlanType } from '@ferry/core';
import { normalizeServerUrl } from '../client.js';
import { JournalStore } from './journal.js';

/**
 * What `ferry login` keeps for a server: a session token (signed in with e-mail and password) or a personal
 * API token (`ferry login --token`).
 */
export type CredentialKind = 'session' | 'api-token';

export interface CredentialRecord {
  key: string;
  /** The normalised server address. */
  server: string;
  kind: CredentialKind;
  /** Secret: sent as `Authorization: Bearer …`. The file is readable by its owner only. */
  token: string;
  /** The account, as the server last described it. */
  email: string;
  uid: string;
  planType: PlanType;
  /** ISO time the session ends; empty for an API token (it lasts until revoked). */
  expiresAt: string;
  savedAt: string;
  /** Given for this call only (`--api-key`, $FERRY_API_KEY): never written to the store. */
  transient?: boolean;
}

/** The key of a server's credential (a digest: the file name does not show the server). */
export function credentialKey(server: string): string {
  return createHash('sha256')
    .update(JSON.stringify(['credential', normalizeServerUrl(server)]))
    .digest('hex')
    .slice(0, 40);
}

/** A personal API token (`fry_…`) or, failing that, a session token (a JWT: three dot-separated parts). */
export function credentialKindOf(token: string): CredentialKind | null {
  if (token.startsWith('fry_') && token.length > 4) return 'api-token';
  if (token.split('.').length === 3 && !/\s/.test(token)) return 'session';
  return null;
}

/** True once a stored session has passed its end (an API token never does). */
export function hasExpired(record: CredentialRecord, now = Date.now()): boolean {
  const ends = Date.parse(record.expiresAt);
  return Number.isFinite(ends) && ends <= now;
}

/**
 * The credentials `ferry login` stored, one file per server under `{stateDir}/credentials` (mode 0600, folder
 * 0700). Never pruned behind the user's back: an ended session is reported, then removed.
 */
export class CredentialStore {
  private readonly store: JournalStore<CredentialRecord>;

  constructor(private readonly stateDir: string) {
    this.store = new JournalStore<CredentialRecord>(path.join(stateDir, 'credentials'));
  }

  get dir(): string {
    return this.store.dir;
  }

  /** The file of a server's credential. */
  file(server: string): string {
    return path.join(this.dir, `${credentialKey(server)}.json`);
  }

  async get(server: string): Promise<CredentialRecord | null> {
    const record = await this.store.load(credentialKey(server));
    if (!record || typeof record.token !== 'string' || record.token === '') return null;
    return record;
  }

  async put(
    record: Omit<CredentialRecord, 'key' | 'savedAt' | 'server'> & { server: string },
  ): Promise<void> {
    const server = normalizeServerUrl(record.server);
    await this.store.save({
      ...record,
      server,
      key: credentialKey(server),
      savedAt: new Date().toISOString(),
    });
  }

  remove(server: string): Promise<void> {
    return this.store.remove(credentialKey(server));
  }

  /**
   * The UUID naming this installation to the server (`deviceId` of session-cookie and sign-out), created once
   * and kept in `{stateDir}/device-id`.
   */
  async deviceId(): Promise<string> {
    const file = path.join(this.stateDir, 'device-id');
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    try {
      const saved = (await readFile(file, 'utf8')).trim();
      if (uuid.test(saved)) return saved.toLowerCase();
    } catch {
      // none yet (or unreadable): make one
    }
    const id = randomUUID();
    await mkdir(this.stateDir, { recursive: true, mode: 0o700 });
    const temp = `${file}.${process.pid}.tmp`;
    await writeFile(temp, `${id}\n`, { mode: 0o600 });
    await rename(temp, file);
    return id;
  }
}
