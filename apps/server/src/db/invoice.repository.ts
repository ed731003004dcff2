import type { Currency, InvoiceLine, InvoiceStatus, PaymentProviderName } from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

export interface InvoiceParty {
  [key: string]: unknown;
}

/** An invoice row, as stored. Amounts in minor units. */
export interface InvoiceRecord {
  id: string;
  number: string;
  /** null: a priced transfer's buyer without an account. */
  userId: string | null;
  status: InvoiceStatus;
  currency: Currency;
  lines: InvoiceLine[];
  subtotal: number;
  taxRate: number;
  tax: number;
  total: number;
  amountDue: number;
  reverseCharge: boolean;
  countryCode: string;
  vatNumber: string | null;
  vatNumberValid: boolean | null;
  vatCheck: 'none' | 'format' | 'vies';
  viesUnavailable: string | null;
  buyer: InvoiceParty;
  seller: InvoiceParty;
  locale: string | null;
  provider: PaymentProviderName;
  subscriptionId: string | null;
  purchaseId: string | null;
  paymentRef: string | null;
  issuedAt: Date;
  dueAt: Date | null;
  paidAt: Date | null;
  paidBy: string | null;
  voidedAt: Date | null;
  voidedBy: string | null;
}

export type NewInvoice = Omit<InvoiceRecord, 'number' | 'voidedAt' | 'voidedBy'>;

const COLUMNS = `id, number, user_id AS "userId", status, currency, lines, subtotal::float8 AS subtotal,
  tax_rate AS "taxRate", tax::float8 AS tax, total::float8 AS total, amount_due::float8 AS "amountDue",
  reverse_charge AS "reverseCharge", country_code AS "countryCode", vat_number AS "vatNumber",
  vat_number_valid AS "vatNumberValid", vat_check AS "vatCheck", vies_unavailable AS "viesUnavailable", buyer,
  seller, locale, provider, subscription_id AS "subscriptionId", purchase_id AS "purchaseId",
  payment_ref AS "paymentRef", issued_at AS "issuedAt", due_at AS "dueAt", paid_at AS "paidAt",
  paid_by AS "paidBy", voided_at AS "voidedAt", voided_by AS "voidedBy"`;

function only<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('expected a row');
  return row;
}

/** The invoice number of a prefix, year and sequence: FRY-2026-000001. */
export function invoiceNumber(prefix: string, year: number, sequence: number): string {
  return `${prefix}-${year}-${String(sequence).padStart(6, '0')}`;
}

/** Invoices and their numbering. Numbers come from a counter row locked until the issuing transaction ends. */
export class PgInvoiceRepository {
  constructor(private readonly pool: pg.Pool) {}

  async transaction<T>(work: (db: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
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

  /**
   * Takes the next number of prefix+year and stores the invoice, in one transaction: the counter row stays locked
   * until it commits, so concurrent issues wait in turn, and a failed insert gives its number back.
   */
  async issue(invoice: NewInvoice, prefix: string): Promise<InvoiceRecord> {
    return this.transaction(async (db) => {
      const year = invoice.issuedAt.getUTCFullYear();
      const { rows } = await db.query<{ last: number }>(
        `INSERT INTO invoice_counters (prefix, year, last) VALUES ($1, $2, 1)
         ON CONFLICT (prefix, year) DO UPDATE SET last = invoice_counters.last + 1
         RETURNING last`,
        [prefix, year],
      );
      const number = invoiceNumber(prefix, year, only(rows).last);
      const inserted = await db.query<InvoiceRecord>(
        `INSERT INTO invoices (id, number, user_id, status, currency, lines, subtotal, tax_rate, tax, total,
           amount_due, reverse_charge, country_code, vat_number, vat_number_valid, vat_check, vies_unavailable,
           buyer, seller, locale, provider, subscription_id, purchase_id, payment_ref, issued_at, due_at, paid_at,
           paid_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21,
           $22, $23, $24, $25, $26, $27, $28)
         RETURNING ${COLUMNS}`,
        [
          invoice.id,
          number,
          invoice.userId,
          invoice.status,
          invoice.currency,
          JSON.stringify(invoice.lines),
          invoice.subtotal,
          invoice.taxRate,
          invoice.tax,
          invoice.total,
          invoice.amountDue,
          invoice.reverseCharge,
          invoice.countryCode,
          invoice.vatNumber,
          invoice.vatNumberValid,
          invoice.vatCheck,
          invoice.viesUnavailable,
          JSON.stringify(invoice.buyer),
          JSON.stringify(invoice.seller),
          invoice.locale,
          invoice.provider,
          invoice.subscriptionId,
          invoice.purchaseId,
          invoice.paymentRef,
          invoice.issuedAt,
          invoice.dueAt,
          invoice.paidAt,
          invoice.paidBy,
        ],
      );
      return only(inserted.rows);
    });
  }

  async byNumber(
    number: string,
    db: Queryable = this.pool,
    forUpdate = false,
  ): Promise<InvoiceRecord | null> {
    const { rows } = await db.query<InvoiceRecord>(
      `SELECT ${COLUMNS} FROM invoices WHERE number = $1${forUpdate ? ' FOR UPDATE' : ''}`,
      [number],
    );
    return rows[0] ?? null;
  }

  async markPaid(
    db: Queryable,
    id: string,
    at: Date,
    by: string | null,
    paymentRef: string | null,
  ): Promise<InvoiceRecord> {
    const { rows } = await db.query<InvoiceRecord>(
      `UPDATE invoices SET status = 'paid', amount_due = 0, paid_at = $2, paid_by = $3,
              payment_ref = coalesce($4, payment_ref)
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, at, by, paymentRef],
    );
    return only(rows);
  }

  async markVoid(db: Queryable, id: string, at: Date, by: string | null): Promise<InvoiceRecord> {
    const { rows } = await db.query<InvoiceRecord>(
      `UPDATE invoices SET status = 'void', amount_due = 0, voided_at = $2, voided_by = $3
        WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, at, by],
    );
    return only(rows);
  }

  /** An account's invoices, newest first. */
  async listForUser(userId: string, limit = 500): Promise<InvoiceRecord[]> {
    const { rows } = await this.pool.query<InvoiceRecord>(
      `SELECT ${COLUMNS} FROM invoices WHERE user_id = $1 ORDER BY issued_at DESC, number DESC LIMIT $2`,
      [userId, limit],
    );
    return rows;
  }

  /** Every invoice (or only the open ones), newest first, with the account's current address. */
  async listAll(options: { open: boolean; limit: number }): Promise<(InvoiceRecord & { email: string })[]> {
    const { rows } = await this.pool.query<InvoiceRecord & { email: string }>(
      `SELECT x.*, coalesce(u.email, x.buyer->>'email') AS email
         FROM (SELECT ${COLUMNS} FROM invoices
                WHERE ($1::boolean IS NOT TRUE OR status = 'open')
                ORDER BY issued_at DESC, number DESC
                LIMIT $2) x
         LEFT JOIN users u ON u.id = x."userId"
        ORDER BY x."issuedAt" DESC, x.number DESC`,
      [options.open, options.limit],
    );
    return rows;
  }

  /** Sum of the account's open invoices (minor units; currencies are not mixed by one account). */
  async openAmount(userId: string): Promise<number> {
    const { rows } = await this.pool.query<{ sum: number }>(
      `SELECT coalesce(sum(amount_due), 0)::float8 AS sum FROM invoices WHERE user_id = $1 AND status = 'open'`,
      [userId],
    );
    return only(rows).sum;
  }

  /** The e-mail of an account (an operator's, for the journal). */
  async emailOf(db: Queryable | undefined, userId: string): Promise<string | null> {
    db ??= this.pool;
    const { rows } = await db.query<{ email: string }>('SELECT email FROM users WHERE id = $1', [userId]);
    return rows[0]?.email ?? null;
  }
}
