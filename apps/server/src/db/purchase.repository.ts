import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export type PurchaseStatus = 'pending' | 'paid' | 'failed';

export interface PurchaseRecord {
  id: string;
  transferId: string;
  sellerId: string | null;
  email: string;
  countryCode: string;
  vatNumber: string | null;
  locale: string | null;
  currency: string;
  amount: number;
  taxRate: number;
  tax: number;
  total: number;
  reverseCharge: boolean;
  provider: string;
  providerRef: string | null;
  status: PurchaseStatus;
  intentStatus: string | null;
  receiptNumber: string | null;
  createdAt: Date;
  paidAt: Date | null;
}

export type NewPurchase = Omit<
  PurchaseRecord,
  'providerRef' | 'status' | 'intentStatus' | 'receiptNumber' | 'createdAt' | 'paidAt'
>;

const COLUMNS = `id, transfer_id AS "transferId", seller_id AS "sellerId", email, country_code AS "countryCode",
  vat_number AS "vatNumber", locale, currency, amount, tax_rate::float8 AS "taxRate", tax, total,
  reverse_charge AS "reverseCharge", provider, provider_ref AS "providerRef", status, intent_status AS "intentStatus",
  receipt_number AS "receiptNumber", created_at AS "createdAt", paid_at AS "paidAt"`;

/** Purchases of priced transfers; a purchase turns paid once, in one conditional statement. */
export class PgPurchaseRepository {
  constructor(private readonly db: Queryable & Pick<pg.Pool, 'connect'>) {}

  /** Runs `fn` while holding this purchase's lock (across instances): one receipt is issued per purchase. */
  async withLock<T>(purchaseId: string, fn: () => Promise<T>): Promise<T> {
    const client = await this.db.connect();
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`purchase-receipt:${purchaseId}`]);
      const result = await fn();
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The receipt already issued for a purchase (an earlier attempt that stopped before noting it), if any. */
  async issuedReceipt(purchaseId: string): Promise<string | null> {
    const { rows } = await this.db.query<{ number: string }>(
      `SELECT number FROM invoices WHERE purchase_id = $1 AND status <> 'void' ORDER BY issued_at LIMIT 1`,
      [purchaseId],
    );
    return rows[0]?.number ?? null;
  }

  async insert(p: NewPurchase): Promise<void> {
    await this.db.query(
      `INSERT INTO purchases (id, transfer_id, seller_id, email, country_code, vat_number, locale, currency, amount,
         tax_rate, tax, total, reverse_charge, provider)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
      [
        p.id,
        p.transferId,
        p.sellerId,
        p.email,
        p.countryCode,
        p.vatNumber,
        p.locale,
        p.currency,
        p.amount,
        String(p.taxRate),
        p.tax,
        p.total,
        p.reverseCharge,
        p.provider,
      ],
    );
  }

  async attachProvider(id: string, providerRef: string, intentStatus: string): Promise<void> {
    await this.db.query(`UPDATE purchases SET provider_ref = $2, intent_status = $3 WHERE id = $1`, [
      id,
      providerRef,
      intentStatus,
    ]);
  }

  async find(id: string): Promise<PurchaseRecord | null> {
    const { rows } = await this.db.query<PurchaseRecord>(`SELECT ${COLUMNS} FROM purchases WHERE id = $1`, [
      id,
    ]);
    return rows[0] ?? null;
  }

  async byProviderRef(provider: string, providerRef: string): Promise<PurchaseRecord | null> {
    const { rows } = await this.db.query<PurchaseRecord>(
      `SELECT ${COLUMNS} FROM purchases WHERE provider = $1 AND provider_ref = $2`,
      [provider, providerRef],
    );
    return rows[0] ?? null;
  }

  /** Pending → paid; true for the one caller that made the change (a webhook and a poll may race). */
  async markPaid(id: string, at: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE purchases SET status = 'paid', intent_status = 'succeeded', paid_at = $2
        WHERE id = $1 AND status <> 'paid'`,
      [id, at],
    );
    return rowCount === 1;
  }

  async setIntentStatus(id: string, intentStatus: string, failed: boolean): Promise<void> {
    await this.db.query(
      `UPDATE purchases SET intent_status = $2, status = CASE WHEN $3 THEN 'failed' ELSE status END
        WHERE id = $1 AND status <> 'paid'`,
      [id, intentStatus, failed],
    );
  }

  async setReceipt(id: string, receiptNumber: string): Promise<void> {
    await this.db.query(`UPDATE purchases SET receipt_number = $2 WHERE id = $1`, [id, receiptNumber]);
  }

  /** Whether a paid purchase of this transfer has this id. */
  async isPaidFor(id: string, transferId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `SELECT 1 FROM purchases WHERE id = $1 AND transfer_id = $2 AND status = 'paid'`,
      [id, transferId],
    );
    return rowCount === 1;
  }

  /** A transfer's paid sales, newest first (the seller's view). */
  async sales(transferId: string): Promise<PurchaseRecord[]> {
    const { rows } = await this.db.query<PurchaseRecord>(
      `SELECT ${COLUMNS} FROM purchases WHERE transfer_id = $1 AND status = 'paid' ORDER BY paid_at DESC`,
      [transferId],
    );
    return rows;
  }
}
