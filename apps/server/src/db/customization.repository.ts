import type { ThemeAssetKind } from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** One stored theme asset (theme_assets). */
export interface ThemeAssetRecord {
  id: string;
  ownerId: string;
  kind: ThemeAssetKind;
  blobKey: string;
  contentType: string;
  size: number;
  width: number | null;
  height: number | null;
  createdAt: Date;
}

const ASSET_COLUMNS = `id, owner_id AS "ownerId", kind, blob_key AS "blobKey", content_type AS "contentType",
  size::float8 AS size, width, height, created_at AS "createdAt"`;

/** Themes (keyed by the owner's uid), their assets, and the per-transfer customization of transfers. */
export class PgCustomizationRepository {
  constructor(private readonly db: Queryable) {}

  /** The saved theme fields of an owner; null when they never saved one. */
  async settingsOf(ownerId: string): Promise<Record<string, unknown> | null> {
    const { rows } = await this.db.query<{ settings: Record<string, unknown> }>(
      'SELECT settings FROM themes WHERE owner_id = $1',
      [ownerId],
    );
    return rows[0]?.settings ?? null;
  }

  async saveSettings(ownerId: string, settings: Record<string, unknown>): Promise<void> {
    await this.db.query(
      `INSERT INTO themes (owner_id, settings, updated_at) VALUES ($1, $2, now())
       ON CONFLICT (owner_id) DO UPDATE SET settings = excluded.settings, updated_at = now()`,
      [ownerId, JSON.stringify(settings)],
    );
  }

  async assets(ownerId: string): Promise<ThemeAssetRecord[]> {
    const { rows } = await this.db.query<ThemeAssetRecord>(
      `SELECT ${ASSET_COLUMNS} FROM theme_assets WHERE owner_id = $1 ORDER BY created_at, id`,
      [ownerId],
    );
    return rows;
  }

  async asset(id: string): Promise<ThemeAssetRecord | null> {
    const { rows } = await this.db.query<ThemeAssetRecord>(
      `SELECT ${ASSET_COLUMNS} FROM theme_assets WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  async countAssets(ownerId: string, kind: ThemeAssetKind): Promise<number> {
    const { rows } = await this.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM theme_assets WHERE owner_id = $1 AND kind = $2',
      [ownerId, kind],
    );
    return rows[0]?.n ?? 0;
  }

  async addAsset(asset: Omit<ThemeAssetRecord, 'createdAt'>): Promise<ThemeAssetRecord> {
    const { rows } = await this.db.query<ThemeAssetRecord>(
      `INSERT INTO theme_assets (id, owner_id, kind, blob_key, content_type, size, width, height)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING ${ASSET_COLUMNS}`,
      [
        asset.id,
        asset.ownerId,
        asset.kind,
        asset.blobKey,
        asset.contentType,
        asset.size,
        asset.width,
        asset.height,
      ],
    );
    return rows[0]!;
  }

  /** Deletes an asset row; the blob is the caller's to remove. False when it was gone. */
  async deleteAsset(id: string): Promise<boolean> {
    const { rowCount } = await this.db.query('DELETE FROM theme_assets WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}
