import { eq, sql } from 'drizzle-orm';
import type { LinkPreviewFacts, LinkPreviewRepository } from '../services/link-preview.service.js';
import type { Database } from './client.js';
import { transfers, users } from './schema.js';

export class PgLinkPreviewRepository implements LinkPreviewRepository {
  constructor(private readonly db: Database) {}

  /** One query by primary key (the owner joined by theirs): nothing is counted, written or logged. */
  async facts(transferId: string): Promise<LinkPreviewFacts | null> {
    const rows = await this.db
      .select({
        type: transfers.type,
        status: transfers.status,
        name: transfers.name,
        passwordProtected: sql<boolean>`${transfers.passwordHash} IS NOT NULL`,
        expiresAt: transfers.expiresAt,
        expiredAt: transfers.expiredAt,
        fileCount: transfers.fileCount,
        totalSize: transfers.totalSize,
        ownerId: transfers.ownerId,
        ownerSuspended: sql<boolean>`${users.suspendedAt} IS NOT NULL`,
        ogTitle: transfers.ogTitle,
        ogDescription: transfers.ogDescription,
      })
      .from(transfers)
      .leftJoin(users, eq(users.id, transfers.ownerId))
      .where(eq(transfers.id, transferId))
      .limit(1);
    return (rows[0] as LinkPreviewFacts | undefined) ?? null;
  }

  async choose(transferId: string, title: string | null, description: string | null): Promise<void> {
    await this.db
      .update(transfers)
      .set({ ogTitle: title, ogDescription: description, updatedAt: new Date() })
      .where(eq(transfers.id, transferId));
  }
}
