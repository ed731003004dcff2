import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AVAILABILITY_SWEEP } from '../jobs/availability-job.js';
import { api, randomFile, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Availability windows (spec §3 "from" date, issue 23 part 4) against a real Ferry, Postgres, pg-boss and SMTP: a
 * transfer uploads as usual and waits PENDING until `availableFrom`; downloads answer 403 NOT_YET_AVAILABLE with the
 * date; its S1 mails go out when it opens — by its job, by the owner clearing the date, or by the sweep.
 */
let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let sender: Account;
let n = 0;

const HOUR = 3_600_000;
const as = (path: string, init: Parameters<typeof api>[2] = {}) =>
  api(ferry.baseUrl, path, { ...init, headers: { ...sender.bearer, ...(init.headers ?? {}) } });
const recipient = () => `bob-${process.pid}-${++n}@window.example`;

/** An S1 transfer from the signed-in sender to `to`, opening at `availableFrom`, uploaded and completed. */
async function sendS1(to: string, availableFrom: Date, extra: Record<string, unknown> = {}) {
  const data = randomFile(1500);
  const created = await as('/api/transfer/transfers', {
    method: 'POST',
    json: {
      type: 'S1',
      recipients: [to],
      files: [{ name: 'plan.bin', size: data.length }],
      availableFrom: availableFrom.toISOString(),
      ...extra,
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const tus = new TusTestClient(ferry.baseUrl, created.body.uploadToken);
  await tus.upload(created.body.transferId, created.body.files[0].id, data);
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.body.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.body.uploadToken },
    json: { files: [{ id: created.body.files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  const userSecret = new URL(created.body.link).searchParams.get('userSecret')!;
  return { ...created.body, completed: done.body, userSecret };
}

const detail = (transferId: string) => as(`/api/transfer/transfers/${transferId}/detail`);
const patch = (transferId: string, json: Record<string, unknown>) =>
  as(`/api/transfer/transfers/${transferId}`, { method: 'PATCH', json });

/** Asks until the transfer's status is `status` (a job or the sweep moves it in the background). */
async function untilStatus(transferId: string, status: string) {
  for (let i = 0; i < 300; i++) {
    const rows = await query<{ status: string }>(ferry, 'SELECT status FROM transfers WHERE id = $1', [
      transferId,
    ]);
    if (rows[0]?.status === status) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${transferId} never became ${status}`);
}

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, MAIL_RETRY_DELAY_SECONDS: '1', MAINTENANCE_CRON: '0 0 1 1 *' },
  });
  sender = await signedInAccount(ferry.baseUrl, `sender-${process.pid}@window.example`, (to) =>
    sink.waitFor((m) => m.to.includes(to)),
  );
});
beforeEach(() => {
  sink.setVerdict(() => 'accept');
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

describe('availability windows', () => {
  it('keep an uploaded transfer PENDING, mail nothing and answer 403 NOT_YET_AVAILABLE with the date', async () => {
    const opens = new Date(Date.now() + 2 * HOUR);
    const bob = recipient();
    const t = await sendS1(bob, opens);
    expect(t.availableFrom).toBe(opens.toISOString());
    // The validity counts from the opening: 7 days (a free plan's) after it.
    expect(new Date(t.expiresAt).getTime() - opens.getTime()).toBe(7 * 24 * HOUR);
    expect(t.completed).toMatchObject({
      status: 'PENDING',
      sentAt: null,
      availableFrom: opens.toISOString(),
    });
    expect(t.completed.recipients).toEqual([expect.objectContaining({ email: bob, delivery: 'waiting' })]);
    const stored = await query<{ sent_at: Date | null }>(
      ferry,
      'SELECT sent_at FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(stored[0]!.sent_at).toBeNull();

    const secret = `&userSecret=${t.userSecret}`;
    for (const path of [
      `/api/transfer/downloads/info?transferId=${t.transferId}${secret}`,
      `/api/transfer/downloads/link?transferId=${t.transferId}${secret}`,
    ]) {
      const res = await api(ferry.baseUrl, path);
      expect([res.status, res.body.codes], path).toEqual([403, ['NOT_YET_AVAILABLE']]);
      expect(res.body.details).toEqual({ availableFrom: opens.toISOString() });
    }
    const thumbs = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/thumbnail-links?transferId=${t.transferId}${secret}`,
      { method: 'POST', json: { fileIds: [t.files[0].id], format: 'web' } },
    );
    expect([thumbs.status, thumbs.body.codes]).toEqual([403, ['NOT_YET_AVAILABLE']]);
    // Without the personal link nothing is told, not even the date.
    const bare = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${t.transferId}`);
    expect([bare.status, bare.body.codes]).toEqual([404, ['TRANSFER_NOT_FOUND']]);
    expect((await detail(t.transferId)).body).toMatchObject({ status: 'PENDING', statusLabel: 'pending' });
  });

  it('open by their job at the moment, and only then mail the recipients', async () => {
    const bob = recipient();
    const t = await sendS1(bob, new Date(Date.now() + 6000));
    expect(t.completed.status).toBe('PENDING');
    const mail = await sink.waitFor((m) => m.to.includes(bob), 60_000);
    const rows = await query<{ status: string; sent_at: Date }>(
      ferry,
      'SELECT status, sent_at FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(rows[0]!.status).toBe('ENABLED');
    // The mail went out at the opening, not before it.
    expect(rows[0]!.sent_at.getTime()).toBeGreaterThanOrEqual(new Date(t.availableFrom).getTime());
    expect(mail.parsed.text).toContain(`/dl/${t.transferId}?userSecret=`);
    const events = (await detail(t.transferId)).body.events.map((e: { type: string }) => e.type);
    expect(events).toContain('AVAILABLE');
    const open = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/info?transferId=${t.transferId}&userSecret=${t.userSecret}`,
    );
    expect(open.status).toBe(200);
  });

  it('can be moved or cleared by the owner while ahead; clearing opens the transfer and sends it', async () => {
    const bob = recipient();
    const t = await sendS1(bob, new Date(Date.now() + 2 * HOUR));
    const later = new Date(Date.now() + 3 * HOUR);
    const moved = await patch(t.transferId, { availableFrom: later.toISOString() });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body).toMatchObject({ status: 'PENDING', availableFrom: later.toISOString() });
    expect(moved.body.events.at(-1)).toMatchObject({
      type: 'AVAILABILITY_CHANGED',
      data: { from: t.availableFrom, to: later.toISOString() },
    });

    const past = await patch(t.transferId, { availableFrom: new Date(Date.now() - HOUR).toISOString() });
    expect([past.status, past.body.codes]).toEqual([400, ['VALIDATION_FAILED']]);
    const afterExpiry = await patch(t.transferId, {
      availableFrom: new Date(new Date(t.expiresAt).getTime() + HOUR).toISOString(),
    });
    expect([afterExpiry.status, afterExpiry.body.codes]).toEqual([400, ['VALIDATION_FAILED']]);
    const expiryFirst = await patch(t.transferId, {
      expiresAt: new Date(later.getTime() - HOUR).toISOString(),
    });
    expect([expiryFirst.status, expiryFirst.body.codes]).toEqual([400, ['VALIDATION_FAILED']]);

    const cleared = await patch(t.transferId, { availableFrom: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ status: 'ENABLED', availableFrom: null });
    await sink.waitFor((m) => m.to.includes(bob));
    // Once open, the date is history: it cannot be set again.
    const reopen = await patch(t.transferId, { availableFrom: later.toISOString() });
    expect([reopen.status, reopen.body.codes]).toEqual([409, ['CONFLICT']]);
  });

  it('are released by the sweep when their job was lost, and by a downloader who comes first', async () => {
    const swept = await sendS1(recipient(), new Date(Date.now() + 2 * HOUR));
    const lazy = await sendS1(recipient(), new Date(Date.now() + 2 * HOUR));
    // Both moments pass while their jobs still wait for the old ones (as a lost job would leave them).
    await query(
      ferry,
      `UPDATE transfers SET available_from = now() - interval '1 second' WHERE id = ANY($1)`,
      [[swept.transferId, lazy.transferId]],
    );
    const opened = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/info?transferId=${lazy.transferId}&userSecret=${lazy.userSecret}`,
    );
    expect(opened.status).toBe(200);
    expect(opened.body.status).toBe('ENABLED');
    await ferry.jobs.send(AVAILABILITY_SWEEP, {});
    await untilStatus(swept.transferId, 'ENABLED');
  });

  it('refuse a window further ahead than the plan keeps files', async () => {
    const res = await as('/api/transfer/transfers', {
      method: 'POST',
      json: {
        type: 'S2',
        files: [{ name: 'a.bin', size: 1 }],
        availableFrom: new Date(Date.now() + 30 * 24 * HOUR).toISOString(),
      },
    });
    expect([res.status, res.body.codes]).toEqual([400, ['VALIDATION_FAILED']]);
    expect(res.body.details).toMatchObject({ field: 'availableFrom' });
  });
});
