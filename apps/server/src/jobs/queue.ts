import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Logger } from 'pino';

/** A queue and the retry policy of its jobs; created (or updated) when the queue starts. */
export interface QueueDefinition {
  name: string;
  /** 'short' keeps one queued job per singletonKey; see pg-boss queue policies. */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  retryLimit?: number;
  /** Seconds before the first retry. */
  retryDelay?: number;
  /** Doubles the delay at each retry, with jitter. */
  retryBackoff?: boolean;
  /** An attempt that has not ended by then counts as failed (and is retried). */
  expireInSeconds?: number;
}

export interface SendOptions {
  /** At most one queued job per key (with the 'short' policy); a second send returns null. */
  singletonKey?: string;
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  /** A date, or seconds from now. */
  startAfter?: Date | number;
  /** Enqueue inside this transaction: the job exists if and only if the transaction commits. */
  transaction?: pg.ClientBase;
}

export interface Job<T> {
  id: string;
  name: string;
  data: T;
  /** 0 on the first attempt. */
  retryCount: number;
}

export interface JobQueueOptions {
  databaseUrl: string;
  queues: QueueDefinition[];
  logger: Logger;
  /** PostgreSQL schema of pg-boss's tables. */
  schema?: string;
  /** How often an idle worker looks for jobs; a send from this process wakes it at once. */
  pollingIntervalSeconds?: number;
  /** Connections pg-boss may open. */
  poolSize?: number;
  /** How often pg-boss expires timed-out attempts (a dead worker's) so they are retried; its default is 120. */
  maintenanceIntervalSeconds?: number;
}

/**
 * Background jobs on the same PostgreSQL (pg-boss 10, schema `pgboss`): any instance may send, any instance
 * works. Retries with backoff come from each queue's definition.
 */
export class JobQueue {
  private readonly boss: PgBoss;
  private readonly workers = new Map<string, string[]>();
  private started = false;

  constructor(private readonly options: JobQueueOptions) {
    this.boss = new PgBoss({
      connectionString: options.databaseUrl,
      schema: options.schema ?? 'pgboss',
      max: options.poolSize ?? 4,
      application_name: 'ferry-jobs',
      ...(options.maintenanceIntervalSeconds
        ? { maintenanceIntervalSeconds: options.maintenanceIntervalSeconds }
        : {}),
    });
    this.boss.on('error', (err) => options.logger.error({ err }, 'job queue error'));
  }

  /** Installs or migrates pg-boss's schema (under an advisory lock) and creates the queues. */
  async start(): Promise<void> {
    // Instances starting together would deadlock inside pg-boss's schema install and queue creation: one at a time.
    const lock = new pg.Client({ connectionString: this.options.databaseUrl });
    await lock.connect();
    try {
      await lock.query('SELECT pg_advisory_lock(727276)');
      await this.boss.start();
      this.started = true;
      for (const { name, ...policy } of this.options.queues) {
        await this.boss.createQueue(name, { name, ...policy });
        // An existing queue takes the current settings (a changed retry limit, …).
        await this.boss.updateQueue(name, { name, ...policy });
      }
    } finally {
      await lock.query('SELECT pg_advisory_unlock(727276)').catch(() => undefined);
      await lock.end();
    }
  }

  /**
   * Stops working and closes the connections. Graceful: running jobs get up to `timeoutMs` to finish, the rest
   * are failed (and so retried). Not graceful: running jobs are failed at once, as a crash would leave them.
   */
  async stop(options: { graceful?: boolean; timeoutMs?: number } = {}): Promise<void> {
    if (!this.started) return;
    this.started = false;
    await this.boss.stop({
      graceful: options.graceful ?? true,
      timeout: options.timeoutMs ?? 30_000,
      wait: true,
    });
  }

  /** Enqueues a job; null when its singletonKey is already queued. */
  async send<T extends object>(name: string, data: T, options: SendOptions = {}): Promise<string | null> {
    const { transaction, ...rest } = options;
    const id = await this.boss.send(name, data, {
      ...rest,
      ...(transaction
        ? {
            db: {
              executeSql: async (text: string, values: unknown[]) => transaction.query(text, values),
            },
          }
        : {}),
    });
    // Wake a local worker rather than wait for its next poll.
    if (id && !transaction) for (const worker of this.workers.get(name) ?? []) this.boss.notifyWorker(worker);
    return id;
  }

  /** Works jobs of a queue, `concurrency` at a time in this process; a thrown error fails the attempt. */
  async work<T>(
    name: string,
    handler: (job: Job<T>) => Promise<unknown>,
    options: { concurrency?: number } = {},
  ): Promise<void> {
    const ids = this.workers.get(name) ?? [];
    for (let i = 0; i < (options.concurrency ?? 1); i++) {
      const id = await this.boss.work<T>(
        name,
        {
          batchSize: 1,
          includeMetadata: true,
          pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2,
        },
        async ([job]) => {
          if (!job) return;
          return handler({ id: job.id, name: job.name, data: job.data, retryCount: job.retryCount });
        },
      );
      ids.push(id);
    }
    this.workers.set(name, ids);
  }

  /**
   * Runs a queue on a cron schedule (UTC). However many instances run, each tick makes one job, which one
   * instance works: pg-boss keeps the schedule in the database and makes its jobs singletons per tick.
   */
  async schedule(name: string, cron: string, data: object = {}): Promise<void> {
    await this.boss.schedule(name, cron, data, { tz: 'UTC' });
  }

  /** Jobs waiting (queued or waiting for a retry), for the `ferry_job_queue_depth` gauge. */
  async depth(name: string): Promise<number> {
    return this.boss.getQueueSize(name);
  }

  async depths(): Promise<Record<string, number>> {
    const result: Record<string, number> = {};
    for (const { name } of this.options.queues) result[name] = await this.depth(name);
    return result;
  }

  /** One job as pg-boss keeps it (state, retries, output), for tests and diagnostics. */
  async job(name: string, id: string): Promise<PgBoss.JobWithMetadata<unknown> | null> {
    return this.boss.getJobById(name, id, { includeArchive: true });
  }
}
