import { createHash } from 'node:crypto';
import path from 'node:path';
import { JournalStore } from './journal.js';

/** A sender's proof of owning an address, kept to skip the e-mailed code on later sends from it. */
export interface SenderTokenRecord {
  key: string;
  server: string;
  email: string;
  /** Secret: it stands in for the e-mailed code. The file is readable by its owner only. */
  token: string;
  expiresAt: string;
}

/** How an address is compared: `Ann@Example.com ` and `ann@example.com` are one sender. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** The key of an address on a server (a digest: the file name does not show the address). */
export function senderTokenKey(server: string, email: string): string {
  return createHash('sha256')
    .update(JSON.stringify(['sender', server, normalizeEmail(email)]))
    .digest('hex')
    .slice(0, 40);
}

/**
 * The `senderVerificationToken`s `ferry send` received, one file per server and address under
 * `{stateDir}/senders` (mode 0600, folder 0700), dropped once expired.
 */
export class SenderTokenStore {
  private readonly store: JournalStore<SenderTokenRecord>;

  constructor(stateDir: string) {
    this.store = new JournalStore<SenderTokenRecord>(path.join(stateDir, 'senders'));
  }

  get dir(): string {
    return this.store.dir;
  }

  /** The saved token of this address on this server, unless it has expired. */
  async get(server: string, email: string, now = Date.now()): Promise<string | undefined> {
    const record = await this.store.load(senderTokenKey(server, email));
    if (!record || typeof record.token !== 'string') return undefined;
    const expires = Date.parse(record.expiresAt);
    if (Number.isFinite(expires) && expires <= now) return undefined;
    return record.token;
  }

  async put(server: string, email: string, token: string, expiresAt: string): Promise<void> {
    await this.store.prune().catch(() => 0);
    const key = senderTokenKey(server, email);
    await this.store.save({ key, server, email: normalizeEmail(email), token, expiresAt });
  }

  remove(server: string, email: string): Promise<void> {
    return this.store.remove(senderTokenKey(server, email));
  }
}
