import type pg from 'pg';

/** A transaction's client: what a handler writes through it commits with the event's processed mark. */
export type EventTransaction = Pick<pg.PoolClient, 'query'>;

/** The outcome of one delivery of a provider's webhook event. */
export type ProviderEventOutcome = 'processed' | 'replay';

/**
 * The provider_events table: each provider event is handled once across instances. The row is taken (inserted, or
 * locked when it exists) in a transaction that stays open while the handler runs and is marked processed in that
 * same transaction: a second delivery of the event, on any instance, waits for the lock and then finds it done.
 * A handler that throws rolls the transaction back, so the event stays unprocessed and the provider's retry
 * handles it again.
 */
export class PgProviderEvents {
  constructor(private readonly pool: pg.Pool) {}

  async processOnce(
    provider: string,
    eventId: string,
    type: string,
    handle: (tx: EventTransaction) => Promise<void>,
  ): Promise<ProviderEventOutcome> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO provider_events (provider, event_id, type) VALUES ($1, $2, $3)
         ON CONFLICT (provider, event_id) DO NOTHING`,
        [provider, eventId, type],
      );
      const { rows } = await client.query<{ processedAt: Date | null }>(
        `SELECT processed_at AS "processedAt" FROM provider_events
          WHERE provider = $1 AND event_id = $2 FOR UPDATE`,
        [provider, eventId],
      );
      if (rows[0]?.processedAt) {
        await client.query('COMMIT');
        return 'replay';
      }
      await handle(client);
      await client.query(
        'UPDATE provider_events SET processed_at = now() WHERE provider = $1 AND event_id = $2',
        [provider, eventId],
      );
      await client.query('COMMIT');
      return 'processed';
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}
