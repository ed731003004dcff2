import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, fetchBytes, sendTransfer, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';

/**
 * Moderation: abuse reports (validated, rate limited, silent about unknown transfers), the operators' queue, a
 * hold that stops every download with 403 TRANSFER_UNDER_REVIEW, release (a never-sent S1 transfer is delivered
 * then), retain (gone for everyone, files kept RETENTION_DAYS, then purged by the expiry sweep), reports that put
 * a transfer under review by themselves, and the automatic hold of anonymous S1 transfers before delivery.
 */
let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let operator: Account;
let n = 0;
const OPERATOR = `mod-${process.pid}@operators.example`;
const HELD_MEANWHILE = 'held while it completed';
/** Clients are told apart by address (TRUST_PROXY=1: the last X-Forwarded-For entry is the client). */
const from = (client: string) => ({ 'x-forwarded-for': client });
const mail = (label: string) => `${label}-${process.pid}-${++n}@moderation.example`;
const asOperator = (method: string, url: string, json?: unknown) =>
  api(ferry.baseUrl, url, { method, headers: operator.bearer, json });
const report = (transferId: string, client: string, extra: Record<string, unknown> = {}) =>
  api(ferry.baseUrl, '/api/transfer/reports', {
    method: 'POST',
    headers: from(client),
    json: { transferId, reason: 'phishing', ...extra },
  });

/** A sent S2 transfer with one small file, by link. */
async function linkTransfer(options: Record<string, unknown> = {}) {
  const created = await sendTransfer(
    ferry.baseUrl,
    [{ name: 'invoice.pdf', data: Buffer.from('%PDF fake') }],
    {
      type: 'S2',
      message: 'Pay here',
      ...options,
    },
  );
  return created.transferId;
}
const info = (transferId: string) =>
  api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${transferId}`);
const link = (transferId: string) =>
  api(ferry.baseUrl, `/api/transfer/downloads/link?transferId=${transferId}`);

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAINTENANCE_CRON: '0 0 1 1 *',
      OPERATOR_EMAILS: OPERATOR,
      TRUST_PROXY: '1',
      ANONYMOUS_SENDER_VERIFICATION: 'false',
      RETENTION_DAYS: '30',
      MODERATION_REPORTS_TO_HOLD: '3',
      MODERATION_HOLD_S1_RECIPIENTS: '3',
      MODERATION_HOLD_WINDOW_MINUTES: '60',
    },
    overrides: {
      // An operator holds the upload named so at the moment its completion has asked the holds and not yet
      // enabled it: the narrowest window of that race, made to happen every time.
      extraHolds: [
        {
          async statusFor(transfer, _files, phase) {
            if (phase === 'uploaded' && transfer.name === HELD_MEANWHILE)
              expect((await asOperator('POST', `/api/operator/moderation/${transfer.id}/hold`)).status).toBe(
                200,
              );
            return null;
          },
        },
      ],
    },
  });
  operator = await signedInAccount(ferry.baseUrl, OPERATOR, (to) => sink.waitFor((m) => m.to.includes(to)));
});
afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

describe('reporting a transfer', () => {
  it('takes a valid report with 202, refuses a malformed one, and says nothing about unknown transfers', async () => {
    const transferId = await linkTransfer();
    const bad = await report(transferId, '198.51.100.1', { reason: 'boring' });
    expect([bad.status, bad.body.codes]).toEqual([400, ['VALIDATION_FAILED']]);
    const badEmail = await report(transferId, '198.51.100.1', { email: 'not an address' });
    expect(badEmail.status).toBe(400);
    const unknown = await report('NoSuchTransfer01', '198.51.100.1');
    const taken = await report(transferId, '198.51.100.1', {
      reason: 'malware',
      details: 'The PDF asks for my bank password',
      email: 'reporter@example.org',
    });
    expect([unknown.status, unknown.body]).toEqual([202, { received: true }]);
    expect([taken.status, taken.body]).toEqual([202, { received: true }]);
    const stored = await query(
      ferry,
      'SELECT transfer_id, reason, details, reporter_email FROM transfer_reports',
    );
    expect(stored).toContainEqual({
      transfer_id: transferId,
      reason: 'malware',
      details: 'The PDF asks for my bank password',
      reporter_email: 'reporter@example.org',
    });
    expect(stored.some((r) => r.transfer_id === 'NoSuchTransfer01')).toBe(false);
  });

  it('limits reports per client address, and per transfer from every address', async () => {
    const transferId = await linkTransfer();
    const other = await linkTransfer();
    const client = '198.51.100.20';
    const answers = [];
    for (let i = 0; i < 11; i++) answers.push((await report(i % 2 ? transferId : other, client)).status);
    expect(answers.slice(0, 10).every((s) => s === 202)).toBe(true);
    const limited = await report(transferId, client);
    expect([answers[10], limited.status, limited.body.codes]).toEqual([429, 429, ['RATE_LIMITED']]);
    // Another client still reports; a flood on one transfer from many addresses stops at the transfer's limit.
    const target = await linkTransfer();
    const statuses = [];
    for (let i = 0; i < 31; i++)
      statuses.push((await report(target, `192.0.2.${i + 1}`, { reason: 'spam' })).status);
    expect(statuses.filter((s) => s === 202)).toHaveLength(30);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('the moderation queue', () => {
  it('lists reported transfers; a hold stops every download with 403 TRANSFER_UNDER_REVIEW; release opens it again', async () => {
    const transferId = await linkTransfer();
    const before = await link(transferId);
    expect(before.status).toBe(200);
    await report(transferId, '198.51.100.30', { details: 'fake invoice' });
    // The operators hear of it, without the reporter's own words.
    const told = await sink.waitFor(
      (m) => m.to.includes(OPERATOR) && m.parsed.text?.toString().includes(transferId),
    );
    expect(told.parsed.subject).toBe('A transfer was reported: phishing or fraud');
    expect(told.parsed.text).toContain(`/operator?tab=moderation&case=${transferId}`);
    expect(told.parsed.text).not.toContain('fake invoice');

    const queue = await asOperator('GET', '/api/operator/moderation');
    expect(queue.status).toBe(200);
    const listed = queue.body.cases.find((c: { transferId: string }) => c.transferId === transferId);
    expect(listed).toMatchObject({
      status: 'ENABLED',
      hold: null,
      reporters: 1,
      message: 'Pay here',
      files: [{ name: 'invoice.pdf', size: 9 }],
      reports: [{ reason: 'phishing', details: 'fake invoice', reporterEmail: null, signedIn: false }],
    });

    const held = await asOperator('POST', `/api/operator/moderation/${transferId}/hold`, {
      note: 'looks bad',
    });
    expect([held.status, held.body.status, held.body.hold?.source, held.body.hold?.by]).toEqual([
      200,
      'MODERATING',
      'operator',
      OPERATOR,
    ]);
    expect((await asOperator('POST', `/api/operator/moderation/${transferId}/hold`)).status).toBe(409);
    // The page shows it as pending, without the files or message; no link, and no byte of a link issued before.
    const page = await info(transferId);
    expect([page.status, page.body.status, page.body.files, page.body.message]).toEqual([
      200,
      'MODERATING',
      [],
      null,
    ]);
    const refused = await link(transferId);
    expect([refused.status, refused.body.codes]).toEqual([403, ['TRANSFER_UNDER_REVIEW']]);
    const bytes = await fetchBytes(before.body.url);
    expect(bytes.status).toBe(403);
    expect(JSON.parse(bytes.data.toString()).codes).toEqual(['TRANSFER_UNDER_REVIEW']);
    // Nor a thumbnail: a rendition shows what is under review.
    const thumbs = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/thumbnail-links?transferId=${transferId}`,
      {
        method: 'POST',
        json: { fileIds: ['AAAAAA'], format: 'web' },
      },
    );
    expect([thumbs.status, thumbs.body.codes]).toEqual([403, ['TRANSFER_UNDER_REVIEW']]);

    const released = await asOperator('POST', `/api/operator/moderation/${transferId}/release`);
    expect([released.status, released.body.status, released.body.hold, released.body.reports]).toEqual([
      200,
      'ENABLED',
      null,
      [],
    ]);
    const again = await fetchBytes(before.body.url);
    expect([again.status, again.data.includes('%PDF fake')]).toEqual([200, true]);
    const after = await asOperator('GET', '/api/operator/moderation');
    expect(after.body.cases.some((c: { transferId: string }) => c.transferId === transferId)).toBe(false);
    const journal = await asOperator('GET', '/api/operator/actions');
    expect(
      journal.body.actions
        .filter((a: { target: string }) => a.target === transferId)
        .map((a: { action: string }) => a.action),
    ).toEqual(['moderation-release', 'moderation-hold']);
  });

  it('puts a transfer under review once distinct reporters reach MODERATION_REPORTS_TO_HOLD; dismissing releases it', async () => {
    const transferId = await linkTransfer();
    await report(transferId, '203.0.113.1');
    await report(transferId, '203.0.113.1'); // the same reporter again
    await report(transferId, '203.0.113.2');
    expect((await info(transferId)).body.status).toBe('ENABLED');
    await report(transferId, '203.0.113.3');
    expect((await info(transferId)).body.status).toBe('MODERATING');
    const held = await asOperator('GET', `/api/operator/moderation/${transferId}`);
    expect([held.body.hold?.source, held.body.reporters, held.body.reports.length]).toEqual([
      'reports',
      3,
      4,
    ]);
    const dismissed = await asOperator('POST', `/api/operator/moderation/${transferId}/dismiss`);
    expect([dismissed.body.status, dismissed.body.reports]).toEqual(['ENABLED', []]);
    expect((await link(transferId)).status).toBe(200);
  });

  it('retains a transfer: gone for downloaders and its owner, files kept RETENTION_DAYS, then purged by the sweep', async () => {
    const owner = await signedInAccount(ferry.baseUrl, mail('owner'), (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const created = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      headers: owner.bearer,
      json: { type: 'S2', files: [{ name: 'evidence.bin', size: 5 }] },
    });
    const { TusTestClient } = await import('../test/tus-client.js');
    await new TusTestClient(ferry.baseUrl, created.body.uploadToken).upload(
      created.body.transferId,
      created.body.files[0].id,
      Buffer.from('proof'),
    );
    const transferId: string = created.body.transferId;
    await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': created.body.uploadToken },
      json: { files: [] },
    });
    const before = await link(transferId);
    expect(before.status).toBe(200);

    // Under review, its owner cannot send a copy around the review.
    await asOperator('POST', `/api/operator/moderation/${transferId}/hold`);
    const clone = await api(ferry.baseUrl, `/api/transfer/transfers/${transferId}/clone`, {
      method: 'POST',
      headers: owner.bearer,
      json: {},
    });
    expect([clone.status, clone.body.codes, clone.body.details]).toEqual([
      409,
      ['CONFLICT'],
      { status: 'MODERATING' },
    ]);
    // Nor delete it or its files, and its date passing keeps its files until the operator decides.
    const fileId: string = created.body.files[0].id;
    for (const url of [
      `/api/transfer/transfers/${transferId}`,
      `/api/transfer/transfers/${transferId}/files/${fileId}`,
    ]) {
      const refused = await api(ferry.baseUrl, url, { method: 'DELETE', headers: owner.bearer });
      expect([refused.status, refused.body.codes]).toEqual([403, ['TRANSFER_UNDER_REVIEW']]);
    }
    await ferry.notifications.expireDue(new Date(Date.now() + 400 * 86_400_000));
    expect(
      await query(ferry, 'SELECT status, expired_at FROM transfers WHERE id = $1', [transferId]),
    ).toEqual([{ status: 'MODERATING', expired_at: null }]);
    const retained = await asOperator('POST', `/api/operator/moderation/${transferId}/retain`);
    expect([retained.status, retained.body.status]).toEqual([200, 'RETAINED']);
    expect((await asOperator('POST', `/api/operator/moderation/${transferId}/retain`)).status).toBe(409);
    // Exactly as a deleted transfer (410 TRANSFER_DISABLED): for the page, the link, the URL issued before.
    for (const answer of [await info(transferId), await link(transferId)])
      expect([answer.status, answer.body.codes]).toEqual([410, ['TRANSFER_DISABLED']]);
    expect((await fetchBytes(before.body.url)).status).toBe(410);
    const list = await api(ferry.baseUrl, '/api/transfer/transfers', { headers: owner.bearer });
    const item = list.body.items.find((t: { id: string }) => t.id === transferId);
    expect(item.statusLabel).toBe('deleted');
    const events = await query(ferry, 'SELECT type FROM transfer_events WHERE transfer_id = $1', [
      transferId,
    ]);
    expect(events.map((e) => e.type)).toContain('RETAINED');

    // Past its own expiry (7 days) but within the 30 retention days: kept. Past them: purged.
    const [file] = await query<{ upload_id: string }>(
      ferry,
      'SELECT upload_id FROM transfer_files WHERE transfer_id = $1',
      [transferId],
    );
    const stored = await findFile(ferry.dataDir, file!.upload_id);
    expect(stored).not.toBeNull();
    const day = 86_400_000;
    await ferry.notifications.expireDue(new Date(Date.now() + 29 * day));
    expect(await exists(stored!)).toBe(true);
    await ferry.notifications.expireDue(new Date(Date.now() + 31 * day));
    expect(await exists(stored!)).toBe(false);
    const [row] = await query(
      ferry,
      'SELECT status, expired_at IS NOT NULL AS purged FROM transfers WHERE id = $1',
      [transferId],
    );
    expect(row).toEqual({ status: 'RETAINED', purged: true });
  });
});

describe('the automatic hold before delivery', () => {
  it('holds an anonymous S1 transfer past MODERATION_HOLD_S1_RECIPIENTS from one sender or client; release delivers it', async () => {
    const sender = mail('bulk');
    const send = (recipients: string[], client: string, senderEmail = sender) =>
      api(ferry.baseUrl, '/api/transfer/transfers', {
        method: 'POST',
        headers: from(client),
        json: { type: 'S1', senderEmail, recipients, files: [{ name: 'a.txt', size: 1 }] },
      }).then(async (created) => {
        const { TusTestClient } = await import('../test/tus-client.js');
        await new TusTestClient(ferry.baseUrl, created.body.uploadToken).upload(
          created.body.transferId,
          created.body.files[0].id,
          Buffer.from('a'),
        );
        const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.body.transferId}/complete`, {
          method: 'POST',
          headers: { 'x-upload-token': created.body.uploadToken },
          json: { files: [] },
        });
        return { transferId: created.body.transferId as string, status: done.body.status as string };
      });
    const [r1, r2, r3, r4] = [mail('r1'), mail('r2'), mail('r3'), mail('r4')];
    const first = await send([r1, r2], '198.51.100.50');
    expect(first.status).toBe('ENABLED');
    await sink.waitFor((m) => m.to.includes(r1));
    // Same sender from elsewhere: 4 recipients in the window, past 3.
    const second = await send([r3, r4], '198.51.100.51');
    expect(second.status).toBe('MODERATING');
    // Same client, another sender: 4 from that client.
    const third = await send([mail('r5'), mail('r6')], '198.51.100.50', mail('other-sender'));
    expect(third.status).toBe('MODERATING');
    // Another sender from another client: under the threshold.
    expect((await send([mail('r7')], '198.51.100.52', mail('quiet'))).status).toBe('ENABLED');

    const queued = await asOperator('GET', `/api/operator/moderation/${second.transferId}`);
    expect(queued.body.hold).toMatchObject({
      source: 'rule',
      by: 'system',
      details: { bySender: 4, threshold: 3 },
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages.some((m) => m.to.includes(r3))).toBe(false);
    const released = await asOperator('POST', `/api/operator/moderation/${second.transferId}/release`);
    expect(released.body.status).toBe('ENABLED');
    const delivered = await sink.waitFor((m) => m.to.includes(r3));
    expect(delivered.parsed.text).toContain(`/dl/${second.transferId}`);
  });
});

describe('a hold begun while an upload completes', () => {
  it('keeps the transfer from going out: held, not sent, delivered on release', async () => {
    const recipient = mail('race');
    const created = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: Buffer.from('race') }], {
      type: 'S1',
      name: HELD_MEANWHILE,
      senderEmail: mail('race-sender'),
      recipients: [recipient],
    });
    const [row] = await query<{ status: string; sent_at: Date | null }>(
      ferry,
      'SELECT status, sent_at FROM transfers WHERE id = $1',
      [created.transferId],
    );
    expect(row).toEqual({ status: 'MODERATING', sent_at: null });
    const released = await asOperator('POST', `/api/operator/moderation/${created.transferId}/release`);
    expect(released.body.status).toBe('ENABLED');
    const delivered = await sink.waitFor((m) => m.to.includes(recipient));
    expect(delivered.parsed.text).toContain(`/dl/${created.transferId}`);
  });
});

describe('who may moderate', () => {
  it('answers 404 to anyone but an operator', async () => {
    const plain = await signedInAccount(ferry.baseUrl, mail('plain'), (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    const transferId = await linkTransfer();
    for (const headers of [{}, plain.bearer]) {
      expect((await api(ferry.baseUrl, '/api/operator/moderation', { headers })).status).toBe(404);
      const retain = await api(ferry.baseUrl, `/api/operator/moderation/${transferId}/retain`, {
        method: 'POST',
        headers,
      });
      expect(retain.status).toBe(404);
    }
    expect((await info(transferId)).body.status).toBe('ENABLED');
  });
});

async function findFile(dir: string, name: string): Promise<string | null> {
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const found = await findFile(full, name);
      if (found) return found;
    } else if (entry.name === name) return full;
  }
  return null;
}

const exists = (file: string) =>
  fs.stat(file).then(
    () => true,
    () => false,
  );
