import type { TransferSummary } from '@ferry/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type FerryProcess, Fleet, freePort } from '../support/ferry.js';
import { api, createTransfer, randomFile, sha256, sleep, TusTestClient, tally } from '../support/http.js';
import { type FreshDatabase, freshDatabase } from '../support/infra.js';
import { type RelaySink, startRelaySink } from '../support/mail.js';

/**
 * "A restart never sends twice" (apps/server/src/jobs/mail-job.ts), tried on the real process: S1 transfers
 * to 20 recipients in all, Ferry SIGKILLed while their mails go out through a real SMTP relay, restarted on the
 * same database and data dir. Every recipient's delivery must end final, nobody may get a mail twice, and every
 * recipient gets exactly one mail unless Ferry reports it `in_doubt`.
 *
 * Why `in_doubt` happens, and why it is never a duplicate: SMTP has no transaction with Ferry's database. Ferry
 * marks a mail's key 'transmitting' just before the message's first byte goes to the relay, and 'sent' once the
 * relay answered 250. A kill between the two leaves a key whose mail the relay may or may not have (here: it
 * has it, its "250" still to come, or it has only part of it). Sending again could be a duplicate, so the
 * restarted Ferry never does: once the dead attempt's job expires (pg-boss, MAIL_ATTEMPT_TIMEOUT_SECONDS, at
 * its next maintenance) its retry finds the key 'transmitting' for longer than 3× that timeout and marks it
 * 'in_doubt' for a person to check. So an in_doubt recipient holds one copy or none, never two; every other
 * recipient (not yet started, or only claimed, at the kill) is sent exactly once after the restart.
 *
 * Time: the killed process's running jobs are failed only by pg-boss's maintenance, every
 * JOB_MAINTENANCE_SECONDS (120 by default; 5 here, so that recovery takes seconds, not minutes).
 */

const SENDERS = ['sender-a@senders.example', 'sender-b@senders.example'];
/** Anonymous senders may name 10 recipients per transfer (plan NONE): two transfers make 20. */
const RECIPIENTS = SENDERS.map((_, t) =>
  Array.from({ length: 10 }, (_, i) => `r${t}-${String(i).padStart(2, '0')}@recipients.example`),
);
const EVERYONE = RECIPIENTS.flat();
const FINAL = new Set(['sent', 'rejected', 'in_doubt']);
/** After the restart: pg-boss maintenance + the stale timeout (3 × 5 s) + the retries + the 20 sends, with room. */
const RECOVERY_DEADLINE_MS = 240_000;

interface Created {
  transferId: string;
  uploadToken: string;
}

async function uploadAll(baseUrl: string, created: Created & { files: Array<{ id: string }> }, data: Buffer) {
  const tus = new TusTestClient(baseUrl, created.uploadToken);
  await tus.upload(created.transferId, created.files[0]!.id, data);
}

async function complete(baseUrl: string, created: Created & { files: Array<{ id: string }> }, data: Buffer) {
  const done = await api(baseUrl, `/api/transfer/transfers/${created.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { files: [{ id: created.files[0]!.id, sha256: sha256(data) }] },
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
}

async function uploadState(baseUrl: string, t: Created): Promise<TransferSummary> {
  const res = await api(baseUrl, `/api/transfer/transfers/${t.transferId}/upload-state`, {
    headers: { 'x-upload-token': t.uploadToken },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as TransferSummary;
}

/** Every mail key's status as the mail job keeps it, with the recipient each recipient key is for. */
async function deliveryRows(db: FreshDatabase) {
  return db.query<{ key: string; status: string; email: string | null }>(
    `SELECT d.idempotency_key AS key, d.status, r.email
       FROM mail_deliveries d
       LEFT JOIN transfer_recipients r ON d.idempotency_key = 'rcpt-' || r.transfer_id || '-' || r.id
      ORDER BY d.idempotency_key`,
  );
}

describe.concurrent('mail delivery across a SIGKILL', () => {
  const fleet = new Fleet();
  const sinks: RelaySink[] = [];
  const dbs: FreshDatabase[] = [];
  afterAll(async () => {
    await fleet.stopAll();
    for (const sink of sinks) await sink.close();
    for (const db of dbs) await db.drop();
  });

  /**
   * Starts Ferry on `sink`, sends the two transfers, SIGKILLs Ferry once `killWhen` holds for the relay's
   * messages, restarts it, waits until every recipient's delivery is final; returns what to judge.
   */
  async function scenario(label: string, sink: RelaySink, killWhen: () => boolean) {
    const db = await freshDatabase();
    dbs.push(db);
    const env = {
      DATABASE_URL: db.url,
      SMTP_URL: sink.url,
      MAIL_FROM: 'no-reply@ferry.example',
      ANONYMOUS_SENDER_VERIFICATION: 'false',
      MAIL_ATTEMPT_TIMEOUT_SECONDS: '5',
      MAIL_RETRY_DELAY_SECONDS: '1',
      JOB_MAINTENANCE_SECONDS: '5',
    };
    const first = await fleet.start({ env });
    const data = randomFile(2000);
    const transfers = await Promise.all(
      SENDERS.map((senderEmail, t) =>
        createTransfer(first.url, {
          type: 'S1',
          name: `crash ${label} ${t}`,
          senderEmail,
          recipients: RECIPIENTS[t]!,
          files: [{ name: 'report.pdf', size: data.length }],
        }),
      ),
    );
    for (const t of transfers) expect(t.senderVerification).toBe('not_needed');
    for (const t of transfers) await uploadAll(first.url, t, data);
    // Both go out together: 22 mails (20 recipients, 2 summaries) through MAIL_WORKERS=2.
    await Promise.all(transfers.map((t) => complete(first.url, t, data)));

    await sink.until(killWhen, 60_000);
    await first.kill('SIGKILL');
    const killedAt = Date.now();
    // What the relay has at the kill, and what Ferry had written down.
    const atKill = sink.received.map((m) => ({ to: m.to, state: m.state }));
    const rowsAtKill = await deliveryRows(db);
    console.log(
      `${label}: killed with ${atKill.length} mails at the relay ${JSON.stringify(tally(atKill.map((m) => m.state)))}, ` +
        `keys ${JSON.stringify(tally(rowsAtKill.map((r) => r.status)))}`,
    );

    const second: FerryProcess = await fleet.restart(first, env, await freePort());
    const restartedAt = Date.now();
    let states: TransferSummary[] = [];
    let rows: Awaited<ReturnType<typeof deliveryRows>> = [];
    for (;;) {
      states = await Promise.all(transfers.map((t) => uploadState(second.url, t)));
      rows = await deliveryRows(db);
      const recipientsFinal = states.every(
        (s) => s.sentAt !== null && s.recipients.every((r) => FINAL.has(r.delivery)),
      );
      // The senders' summaries too: every key the mail job knows is final.
      const keysFinal =
        rows.length === EVERYONE.length + SENDERS.length && rows.every((r) => FINAL.has(r.status));
      if (recipientsFinal && keysFinal) break;
      if (Date.now() - restartedAt > RECOVERY_DEADLINE_MS)
        throw new Error(
          `${label}: not final ${Math.round((Date.now() - restartedAt) / 1000)} s after the restart: ` +
            JSON.stringify({
              recipients: tally(states.flatMap((s) => s.recipients.map((r) => r.delivery))),
              keys: tally(rows.map((r) => r.status)),
            }),
        );
      await sleep(1000);
    }
    const finalAfter = Date.now() - restartedAt;
    // A straggler (a second attempt still under way) would show up here.
    await sleep(3000);
    const deliveries = new Map(states.flatMap((s) => s.recipients.map((r) => [r.email, r] as const)));
    console.log(
      `${label}: every delivery final ${Math.round(finalAfter / 1000)} s after the restart ` +
        `(${Math.round((restartedAt - killedAt) / 1000)} s to restart): ` +
        `${JSON.stringify(tally([...deliveries.values()].map((r) => r.delivery)))}, ` +
        `${sink.received.length} mails at the relay`,
    );
    return { atKill, rowsAtKill, deliveries, rows };
  }

  /** Never twice, and exactly once unless in doubt; the keys that were transmitting at the kill end in doubt. */
  function judge(
    sink: RelaySink,
    result: Awaited<ReturnType<typeof scenario>>,
  ): { inDoubt: string[]; copies: Map<string, number> } {
    const { deliveries, rowsAtKill, atKill } = result;
    expect([...deliveries.keys()].sort()).toEqual([...EVERYONE].sort());
    const copies = new Map(EVERYONE.map((e) => [e, sink.delivered(e).length]));
    const problems: string[] = [];
    for (const [email, r] of deliveries) {
      const n = copies.get(email)!;
      if (n > 1) problems.push(`${email}: ${n} copies (${r.delivery})`);
      if (r.delivery === 'sent' && n !== 1) problems.push(`${email}: sent, but ${n} copies`);
      if (r.delivery === 'rejected')
        problems.push(`${email}: rejected (${r.error}) by a relay that refuses nothing`);
    }
    // No mail at all went out twice, the senders' summaries included (one Message-ID per key).
    const byMessageId = tally(sink.received.filter((m) => m.state !== 'refused').map((m) => m.messageId));
    for (const [id, n] of Object.entries(byMessageId))
      if (n > 1) problems.push(`Message-ID ${id} ${n} times`);
    for (const sender of SENDERS)
      if (sink.delivered(sender).length > 1)
        problems.push(`${sender}: ${sink.delivered(sender).length} summaries`);

    // The kill landed in the middle of a send: at least one key was on its way to the relay.
    const transmitting = rowsAtKill.filter((r) => r.status === 'transmitting');
    expect(transmitting.length, JSON.stringify(rowsAtKill)).toBeGreaterThan(0);
    for (const row of rowsAtKill) {
      const after = result.rows.find((r) => r.key === row.key)?.status;
      // Ferry cannot know whether the relay took these: in doubt, never sent again.
      if (row.status === 'transmitting' && after !== 'in_doubt')
        problems.push(`${row.email ?? row.key}: transmitting at the kill, ${after} after`);
      if (row.status === 'sent' && after !== 'sent')
        problems.push(`${row.email ?? row.key}: sent, then ${after}`);
    }
    // A message the relay had, unanswered, at the kill cannot be known as sent (that would take a resend).
    for (const m of atKill)
      if (m.state === 'pending' || m.state === 'hung')
        for (const email of m.to)
          if (deliveries.get(email) && deliveries.get(email)!.delivery !== 'in_doubt')
            problems.push(
              `${email}: the relay held it unanswered at the kill, yet ${deliveries.get(email)!.delivery}`,
            );
    expect(problems).toEqual([]);
    const inDoubt = [...deliveries.values()].filter((r) => r.delivery === 'in_doubt').map((r) => r.email);
    console.log(
      `in doubt, with the copies the relay has: ${JSON.stringify(Object.fromEntries(inDoubt.map((e) => [e, copies.get(e)])))}`,
    );
    return { inDoubt, copies };
  }

  it('SIGKILL while 20 recipients are mailed (the relay answers slowly): nobody gets two, each one unless in doubt', async () => {
    // 300 ms before each "250": at any moment a mail is likely on its way.
    const sink = await startRelaySink({ delayMs: 300 });
    sinks.push(sink);
    const isRecipient = (to: string[]) => to.some((e) => e.endsWith('@recipients.example'));
    const result = await scenario(
      'slow relay',
      sink,
      () => sink.received.filter((m) => isRecipient(m.to)).length >= 5,
    );
    const { inDoubt, copies } = judge(sink, result);
    for (const email of inDoubt) expect(copies.get(email)).toBeLessThanOrEqual(1);
    // Only the mails under way at the kill can be in doubt: MAIL_WORKERS=2.
    expect(inDoubt.length).toBeLessThanOrEqual(2);
  });

  it('SIGKILL while the relay holds one message unanswered: that recipient ends in_doubt with exactly one copy', async () => {
    const sink = await startRelaySink({ delayMs: 100 });
    sinks.push(sink);
    let hung = null as string | null;
    let recipientMails = 0;
    sink.answer((m) => {
      if (!m.to.some((e) => e.endsWith('@recipients.example'))) return { accept: true };
      // The fifth recipient's mail: kept, never answered, as a relay whose "250" is lost.
      if (++recipientMails === 5) {
        hung = m.to[0]!;
        return 'hang';
      }
      return { accept: true };
    });
    const result = await scenario('hung relay', sink, () => hung !== null);
    const { copies } = judge(sink, result);
    expect(hung).not.toBeNull();
    expect(result.deliveries.get(hung!)).toMatchObject({ delivery: 'in_doubt' });
    expect(copies.get(hung!)).toBe(1);
  });
});
