import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Mailer, OutgoingMail, SendHooks } from '../mail/mailer.js';
import { OutboxMailer } from '../mail/outbox.js';
import { SmtpMailer } from '../mail/smtp.js';
import { createTestDatabase } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { MAIL_DELIVERIES_DDL, PgMailDeliveries } from './mail-deliveries.js';
import { MAIL_SEND_QUEUE, MailJob, type MailJobSettings, mailQueueDefinition } from './mail-job.js';
import { JobQueue } from './queue.js';

const logger = pino({ level: 'silent' });
const from = { address: 'no-reply@ferry.example', name: 'Ferry' };
const settings: MailJobSettings = {
  retryLimit: 6,
  retryDelaySeconds: 1,
  expireInSeconds: 60,
  staleAfterSeconds: 2,
};

let databaseUrl: string;
let pool: pg.Pool;
let deliveries: PgMailDeliveries;
let sink: SmtpSink;
const running: Array<{ stop(): Promise<void> }> = [];

beforeAll(async () => {
  databaseUrl = await createTestDatabase();
  pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // The table's migration is the lead's to add; the same SQL, IF NOT EXISTS.
  await pool.query(MAIL_DELIVERIES_DDL);
  deliveries = new PgMailDeliveries(pool);
});
afterAll(async () => {
  await pool.end();
});
beforeEach(async () => {
  sink = await startSmtpSink();
});
afterEach(async () => {
  for (const r of running.splice(0).reverse()) await r.stop();
  await sink.close();
});

let keys = 0;
const mail = (): OutgoingMail => ({
  to: ['bob@example.com'],
  subject: 'Your files',
  text: 'Hello Bob',
  html: '<p>Hello Bob</p>',
  idempotencyKey: `test-${process.pid}-${++keys}`,
});

function smtp(): SmtpMailer {
  const mailer = new SmtpMailer({ url: sink.url, from, dkim: null, socketTimeoutMs: 1000 }, logger);
  running.push({ stop: () => mailer.close() });
  return mailer;
}

/** A "process": a job queue working mail.send with this mailer. */
async function startWorker(mailer: Mailer, options: { work?: boolean; settings?: MailJobSettings } = {}) {
  const { settings: chosen = settings } = options;
  const queue = new JobQueue({
    databaseUrl,
    queues: [mailQueueDefinition(chosen)],
    logger,
    pollingIntervalSeconds: 0.5,
  });
  await queue.start();
  const jobs = new MailJob(queue, mailer, deliveries, logger, chosen);
  if (options.work !== false) await jobs.work(2);
  const handle = { queue, jobs, stop: () => queue.stop({ graceful: true, timeoutMs: 1000 }) };
  running.push(handle);
  return handle;
}

async function settled(queue: JobQueue, id: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await queue.job(MAIL_SEND_QUEUE, id);
    if (job && (job.state === 'completed' || job.state === 'failed')) return job;
    if (Date.now() > deadline) throw new Error(`job ${id} still ${job?.state} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** Stands for a process that stops dead at one point of a send: its promise never settles. */
function dyingMailer(inner: Mailer, at: 'before-relay' | 'after-accepted') {
  const reached = deferred();
  const mailer: Mailer = {
    kind: inner.kind,
    dedupesByKey: inner.dedupesByKey,
    verify: () => inner.verify(),
    close: () => inner.close(),
    async send(message: OutgoingMail, hooks?: SendHooks) {
      if (at === 'after-accepted') await inner.send(message, hooks);
      reached.resolve();
      return new Promise<never>(() => {});
    },
  };
  return { mailer, reached: reached.promise };
}

describe('mail.send job', () => {
  it('sends a key once however often it is enqueued', async () => {
    const { queue, jobs } = await startWorker(smtp(), { work: false });
    const m = mail();
    // While one job for the key waits, pg-boss drops the copy (singletonKey)…
    const first = await jobs.enqueue(m);
    expect(first).toBeTruthy();
    expect(await jobs.enqueue(m)).toBeNull();
    expect(await queue.depth(MAIL_SEND_QUEUE)).toBe(1);
    await jobs.work(2);
    expect((await settled(queue, first!)).output).toMatchObject({ status: 'sent', attempts: 1 });
    await sink.waitFor();

    // …and once a job runs or ran, further jobs for the key (racing ones too) find it sent and send nothing.
    const again = await Promise.all([jobs.enqueue(m), jobs.enqueue(m), jobs.enqueue(m)]);
    for (const id of again.filter((x): x is string => x !== null))
      expect((await settled(queue, id)).output).toEqual({ status: 'already', final: 'sent' });
    expect(sink.dataCount()).toBe(1);
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'sent', attempts: 1 });
  });

  it('sends once when two workers race for two jobs of the same key', async () => {
    const a = await startWorker(smtp(), { work: false });
    const b = await startWorker(smtp(), { work: false });
    const m = mail();
    const first = await a.jobs.enqueue(m);
    // A second job of the key, as a duplicate that got past the queue (the first is no longer "created").
    await pool.query(`UPDATE pgboss.job SET state = 'retry' WHERE id = $1`, [first]);
    const second = await b.jobs.enqueue(m);
    expect(second).toBeTruthy();
    await Promise.all([a.jobs.work(2), b.jobs.work(2)]);
    const outputs = [(await settled(a.queue, first!)).output, (await settled(b.queue, second!)).output];
    expect(outputs.filter((o) => (o as { status: string }).status === 'sent')).toHaveLength(1);
    expect(sink.dataCount()).toBe(1);
  });

  it('retries a mail the relay could not take and delivers it once', async () => {
    sink.setVerdict((_m, i) => (i === 0 ? { code: 451, message: 'Greylisted, try again' } : 'accept'));
    const { queue, jobs } = await startWorker(smtp());
    const m = mail();
    const id = await jobs.enqueue(m);
    const done = await settled(queue, id!);
    expect(done.state).toBe('completed');
    expect(done.retryCount).toBe(1);
    expect(sink.dataCount()).toBe(2);
    expect(sink.messages).toHaveLength(1);
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('does not retry a final refusal', async () => {
    sink.setVerdict(() => ({ code: 550, message: 'No such user' }));
    const { queue, jobs } = await startWorker(smtp());
    const m = mail();
    const done = await settled(queue, (await jobs.enqueue(m))!);
    expect(done).toMatchObject({ state: 'completed', retryCount: 0, output: { status: 'rejected' } });
    expect(sink.dataCount()).toBe(1);
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'rejected' });
  });

  it('tells its listeners once of a mail that will not arrive: refused, or out of retries', async () => {
    const told: Array<{ key: string; reason: string }> = [];
    const listen = (jobs: MailJob) =>
      jobs.onUndeliverable(async (m, reason) => {
        told.push({ key: m.idempotencyKey, reason });
      });
    sink.setVerdict((m) =>
      m.parsed.subject === 'refused'
        ? { code: 550, message: 'No such user' }
        : { code: 451, message: 'Busy' },
    );
    const quick = { ...settings, retryLimit: 1 };
    const { queue, jobs } = await startWorker(smtp(), { settings: quick });
    listen(jobs);
    const refused = { ...mail(), subject: 'refused' };
    const busy = { ...mail(), subject: 'busy' };
    await settled(queue, (await jobs.enqueue(refused))!);
    const outOfRetries = await settled(queue, (await jobs.enqueue(busy))!);
    expect(outOfRetries).toMatchObject({ state: 'failed', retryCount: 1 });
    expect(told).toEqual([
      { key: refused.idempotencyKey, reason: expect.stringContaining('No such user') },
      { key: busy.idempotencyKey, reason: expect.stringContaining('Busy') },
    ]);
    expect(await deliveries.get(busy.idempotencyKey)).toMatchObject({ status: 'failed', attempts: 2 });
  });

  it('never resends a mail whose answer was lost: it is marked in doubt', async () => {
    sink.setVerdict(() => 'hang');
    const { queue, jobs } = await startWorker(smtp());
    const told: string[] = [];
    jobs.onUndeliverable(async (m) => {
      told.push(m.idempotencyKey);
    });
    const m = mail();
    const done = await settled(queue, (await jobs.enqueue(m))!);
    expect(done).toMatchObject({ state: 'completed', output: { status: 'in_doubt' } });
    // It may well have arrived: nobody is told it did not.
    expect(told).toEqual([]);
    expect(sink.dataCount()).toBe(1);
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'in_doubt' });
  });

  it('killed after the relay accepted and before recording it: after a restart the mail is not sent again', async () => {
    const dying = dyingMailer(smtp(), 'after-accepted');
    const first = await startWorker(dying.mailer);
    const m = mail();
    const id = (await first.jobs.enqueue(m))!;
    await dying.reached;
    await sink.waitFor();
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'transmitting' });
    // The crash: pg-boss stops without waiting for the running attempt, which fails the job (it is retried).
    await first.queue.stop({ graceful: false });

    const restarted = await startWorker(smtp());
    const done = await settled(restarted.queue, id);
    expect(done.state).toBe('completed');
    expect(done.retryCount).toBeGreaterThanOrEqual(1);
    expect(done.output).toEqual({ status: 'already', final: 'in_doubt' });
    expect(sink.dataCount()).toBe(1);
    expect(sink.messages).toHaveLength(1);
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'in_doubt' });
  });

  it('killed before anything went out: after a restart the mail is sent, once', async () => {
    const dying = dyingMailer(smtp(), 'before-relay');
    const first = await startWorker(dying.mailer);
    const m = mail();
    const id = (await first.jobs.enqueue(m))!;
    await dying.reached;
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'sending' });
    await first.queue.stop({ graceful: false });

    const restarted = await startWorker(smtp());
    const done = await settled(restarted.queue, id);
    expect(done).toMatchObject({ state: 'completed', output: { status: 'sent', attempts: 2 } });
    expect(sink.messages).toHaveLength(1);
  });

  it('a slow attempt whose claim was taken over sends nothing', async () => {
    const inner = smtp();
    const release = deferred();
    const connecting = deferred();
    const slow: Mailer = {
      kind: 'smtp',
      dedupesByKey: false,
      verify: () => inner.verify(),
      close: () => inner.close(),
      async send(message, hooks) {
        connecting.resolve();
        await release.promise;
        return inner.send(message, hooks);
      },
    };
    const queue = new JobQueue({ databaseUrl, queues: [], logger });
    const m = mail();
    const stale = new MailJob(queue, slow, deliveries, logger, settings).deliver(m);
    await connecting.promise;
    const retry = await new MailJob(queue, inner, deliveries, logger, settings).deliver(m);
    expect(retry).toMatchObject({ status: 'sent' });
    release.resolve();
    expect(await stale).toEqual({ status: 'superseded' });
    expect(sink.dataCount()).toBe(1);
    expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'sent', attempts: 2 });
  });

  it('with the outbox, a restart after a crash finishes the mail: exactly one file', async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ferry-outbox-job-'));
    try {
      const outbox = () => new OutboxMailer({ dir, from, dkim: null }, logger);
      const dying = dyingMailer(outbox(), 'after-accepted');
      const first = await startWorker(dying.mailer);
      const m = mail();
      const id = (await first.jobs.enqueue(m))!;
      await dying.reached;
      await first.queue.stop({ graceful: false });

      const restarted = await startWorker(outbox());
      const done = await settled(restarted.queue, id);
      expect(done).toMatchObject({ state: 'completed', output: { status: 'sent' } });
      expect((await fs.readdir(dir)).filter((f) => f.endsWith('.eml'))).toHaveLength(1);
      expect(await deliveries.get(m.idempotencyKey)).toMatchObject({ status: 'sent' });
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('JobQueue', () => {
  it('counts waiting jobs and enqueues inside a transaction only if it commits', async () => {
    const queue = new JobQueue({ databaseUrl, queues: [{ name: 'test.depth' }], logger });
    await queue.start();
    running.push({ stop: () => queue.stop() });
    expect(await queue.depth('test.depth')).toBe(0);

    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await queue.send('test.depth', { n: 1 }, { transaction: client });
      await client.query('ROLLBACK');
      expect(await queue.depth('test.depth')).toBe(0);
      await client.query('BEGIN');
      await queue.send('test.depth', { n: 2 }, { transaction: client });
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await queue.send('test.depth', { n: 3 });
    expect(await queue.depths()).toEqual({ 'test.depth': 2 });
  });
});
