import type {
  BillingFrequency,
  Currency,
  PaymentIntentStatus,
  PaymentProviderName,
  PlanCode,
  SubscriptionStatus,
} from '@ferry/core';
import type pg from 'pg';

type Queryable = Pick<pg.Pool, 'query'>;

/** A change waiting: a downgrade for the next period, or an upgrade until its prorated invoice is paid. */
export interface PendingChange {
  kind: 'upgrade' | 'downgrade';
  planCode: PlanCode;
  frequency: BillingFrequency;
  amount: number;
  /** The prorated invoice of an upgrade (MANUAL). */
  invoiceNumber?: string | null;
}

export interface SubscriptionRecord {
  id: string;
  userId: string;
  planCode: PlanCode;
  frequency: BillingFrequency;
  currency: Currency;
  amount: number;
  taxRate: number;
  provider: PaymentProviderName;
  providerRef: string | null;
  status: SubscriptionStatus;
  currentPeriodStart: Date | null;
  currentPeriodEnd: Date | null;
  trialEndsAt: Date | null;
  cancelAtPeriodEnd: boolean;
  pendingChange: PendingChange | null;
  intentStatus: PaymentIntentStatus | null;
  failedIntentClientSecret: string | null;
  renewalInvoiceFor: Date | null;
  pastDueSince: Date | null;
  dunningAttempt: number;
  nextRetryAt: Date | null;
  canceledAt: Date | null;
  createdAt: Date;
}

export interface CustomerRecord {
  userId: string;
  countryCode: string | null;
  vatNumber: string | null;
  vatNumberValid: boolean | null;
  companyName: string | null;
  address: string | null;
  currency: Currency | null;
  provider: PaymentProviderName | null;
  providerRefs: Record<string, string>;
  trialUsedAt: Date | null;
}

const SUB = `id, user_id AS "userId", plan_code AS "planCode", frequency, currency, amount, tax_rate AS "taxRate",
  provider, provider_ref AS "providerRef", status, current_period_start AS "currentPeriodStart",
  current_period_end AS "currentPeriodEnd", trial_ends_at AS "trialEndsAt",
  cancel_at_period_end AS "cancelAtPeriodEnd", pending_change AS "pendingChange", intent_status AS "intentStatus",
  failed_intent_client_secret AS "failedIntentClientSecret", renewal_invoice_for AS "renewalInvoiceFor",
  past_due_since AS "pastDueSince", dunning_attempt AS "dunningAttempt", next_retry_at AS "nextRetryAt",
  canceled_at AS "canceledAt", created_at AS "createdAt"`;
const CUSTOMER = `user_id AS "userId", country_code AS "countryCode", vat_number AS "vatNumber",
  vat_number_valid AS "vatNumberValid", company_name AS "companyName", address, currency, provider,
  provider_refs AS "providerRefs", trial_used_at AS "trialUsedAt"`;

/** Columns a patch may set, by field. */
const COLUMNS: Partial<Record<keyof SubscriptionRecord, string>> = {
  planCode: 'plan_code',
  frequency: 'frequency',
  currency: 'currency',
  amount: 'amount',
  taxRate: 'tax_rate',
  provider: 'provider',
  providerRef: 'provider_ref',
  status: 'status',
  currentPeriodStart: 'current_period_start',
  currentPeriodEnd: 'current_period_end',
  trialEndsAt: 'trial_ends_at',
  cancelAtPeriodEnd: 'cancel_at_period_end',
  pendingChange: 'pending_change',
  intentStatus: 'intent_status',
  failedIntentClientSecret: 'failed_intent_client_secret',
  renewalInvoiceFor: 'renewal_invoice_for',
  pastDueSince: 'past_due_since',
  dunningAttempt: 'dunning_attempt',
  nextRetryAt: 'next_retry_at',
  canceledAt: 'canceled_at',
};

export type SubscriptionPatch = Partial<Omit<SubscriptionRecord, 'id' | 'userId' | 'createdAt'>>;

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** Subscriptions and billing customers. Steps the maintenance runs are claimed with conditional updates. */
export class PgSubscriptionRepository {
  constructor(private readonly db: Queryable) {}

  /** Inserts a subscription; null when the account has a live one already (one per account). */
  async create(
    sub: Omit<
      SubscriptionRecord,
      'createdAt' | 'dunningAttempt' | 'pastDueSince' | 'nextRetryAt' | 'canceledAt'
    >,
  ): Promise<SubscriptionRecord | null> {
    try {
      const { rows } = await this.db.query<SubscriptionRecord>(
        `INSERT INTO subscriptions (id, user_id, plan_code, frequency, currency, amount, tax_rate, provider,
           provider_ref, status, current_period_start, current_period_end, trial_ends_at, cancel_at_period_end,
           pending_change, intent_status, failed_intent_client_secret, renewal_invoice_for)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18) RETURNING ${SUB}`,
        [
          sub.id,
          sub.userId,
          sub.planCode,
          sub.frequency,
          sub.currency,
          sub.amount,
          sub.taxRate,
          sub.provider,
          sub.providerRef,
          sub.status,
          sub.currentPeriodStart,
          sub.currentPeriodEnd,
          sub.trialEndsAt,
          sub.cancelAtPeriodEnd,
          sub.pendingChange ? JSON.stringify(sub.pendingChange) : null,
          sub.intentStatus,
          sub.failedIntentClientSecret,
          sub.renewalInvoiceFor,
        ],
      );
      return rows[0] ?? null;
    } catch (error) {
      if (isUniqueViolation(error)) return null;
      throw error;
    }
  }

  async byId(id: string): Promise<SubscriptionRecord | null> {
    const { rows } = await this.db.query<SubscriptionRecord>(
      `SELECT ${SUB} FROM subscriptions WHERE id = $1`,
      [id],
    );
    return rows[0] ?? null;
  }

  /** The account's subscription that is not canceled, if any. */
  async live(userId: string): Promise<SubscriptionRecord | null> {
    const { rows } = await this.db.query<SubscriptionRecord>(
      `SELECT ${SUB} FROM subscriptions WHERE user_id = $1 AND status <> 'canceled'`,
      [userId],
    );
    return rows[0] ?? null;
  }

  async byProviderRef(provider: PaymentProviderName, ref: string): Promise<SubscriptionRecord | null> {
    const { rows } = await this.db.query<SubscriptionRecord>(
      `SELECT ${SUB} FROM subscriptions WHERE provider = $1 AND provider_ref = $2`,
      [provider, ref],
    );
    return rows[0] ?? null;
  }

  /**
   * Sets the fields of `patch`; with `expect`, only while the row still has those values (a step claimed once
   * across instances). Null when nothing matched.
   */
  async update(
    id: string,
    patch: SubscriptionPatch,
    expect: SubscriptionPatch = {},
    db: Queryable = this.db,
  ): Promise<SubscriptionRecord | null> {
    const params: unknown[] = [id];
    const value = (v: unknown) =>
      v !== null && typeof v === 'object' && !(v instanceof Date) ? JSON.stringify(v) : v;
    const sets = Object.entries(patch).map(([key, v]) => {
      params.push(value(v));
      return `${COLUMNS[key as keyof SubscriptionRecord]} = $${params.length}`;
    });
    const wheres = Object.entries(expect).map(([key, v]) => {
      const column = COLUMNS[key as keyof SubscriptionRecord];
      if (v === null) return `${column} IS NULL`;
      params.push(value(v));
      return `${column} = $${params.length}`;
    });
    const { rows } = await db.query<SubscriptionRecord>(
      `UPDATE subscriptions SET ${[...sets, 'updated_at = now()'].join(', ')}
        WHERE id = $1 ${wheres.map((w) => `AND ${w}`).join(' ')} RETURNING ${SUB}`,
      params,
    );
    return rows[0] ?? null;
  }

  /** Claims the renewal invoice of a period: true once per period, across instances. */
  async claimRenewalInvoice(id: string, periodEnd: Date): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE subscriptions SET renewal_invoice_for = $2, updated_at = now()
        WHERE id = $1 AND renewal_invoice_for IS DISTINCT FROM $2`,
      [id, periodEnd],
    );
    return (rowCount ?? 0) > 0;
  }

  /** Subscriptions the maintenance must look at: ends, renewals and dunning steps due before `horizon`. */
  async dueBefore(horizon: Date): Promise<SubscriptionRecord[]> {
    const { rows } = await this.db.query<SubscriptionRecord>(
      `SELECT ${SUB} FROM subscriptions
        WHERE status <> 'canceled'
          AND (coalesce(trial_ends_at, current_period_end) <= $1 OR current_period_end <= $1
               OR next_retry_at <= $1)
        ORDER BY created_at`,
      [horizon],
    );
    return rows;
  }

  /** Every subscription for the operators, newest first, with the account's address. */
  async list(status: SubscriptionStatus | null): Promise<Array<SubscriptionRecord & { email: string }>> {
    const { rows } = await this.db.query<SubscriptionRecord & { email: string }>(
      `SELECT x.*, u.email
         FROM (SELECT ${SUB} FROM subscriptions WHERE ($1::text IS NULL OR status = $1)) x
         JOIN users u ON u.id = x."userId"
        ORDER BY x."createdAt" DESC LIMIT 1000`,
      [status],
    );
    return rows;
  }

  async customer(userId: string): Promise<CustomerRecord | null> {
    const { rows } = await this.db.query<CustomerRecord>(
      `SELECT ${CUSTOMER} FROM billing_customers WHERE user_id = $1`,
      [userId],
    );
    return rows[0] ?? null;
  }

  async saveCustomer(
    c: Omit<CustomerRecord, 'providerRefs' | 'trialUsedAt'> & { providerRefs?: Record<string, string> },
  ): Promise<CustomerRecord> {
    const { rows } = await this.db.query<CustomerRecord>(
      `INSERT INTO billing_customers (user_id, country_code, vat_number, vat_number_valid, company_name, address,
         currency, provider, provider_refs)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
       ON CONFLICT (user_id) DO UPDATE SET country_code = $2, vat_number = $3, vat_number_valid = $4,
         company_name = coalesce($5, billing_customers.company_name), address = coalesce($6, billing_customers.address),
         currency = $7, provider = $8, provider_refs = billing_customers.provider_refs || $9, updated_at = now()
       RETURNING ${CUSTOMER}`,
      [
        c.userId,
        c.countryCode,
        c.vatNumber,
        c.vatNumberValid,
        c.companyName,
        c.address,
        c.currency,
        c.provider,
        JSON.stringify(c.providerRefs ?? {}),
      ],
    );
    return rows[0]!;
  }

  /** One trial per account, ever: true the first time only. */
  async claimTrial(userId: string): Promise<boolean> {
    const { rowCount } = await this.db.query(
      `UPDATE billing_customers SET trial_used_at = now() WHERE user_id = $1 AND trial_used_at IS NULL`,
      [userId],
    );
    return (rowCount ?? 0) > 0;
  }
}
