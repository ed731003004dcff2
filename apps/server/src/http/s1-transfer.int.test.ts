import fs from 'node:fs/promises';
import path from 'node:path';
import type { TransferEventList, TransferSummary } from '@ferry/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  api,
  createTransfer,
  fetchBytes,
  randomFile,
  sendTransfer,
  sha256,
  signedInAccount,
} from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type ReceivedMail, type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/** S1 end to end on a real server, a real database and a real SMTP server that keeps what it receives. */
let sink: SmtpSink;
let ferry: TestFerry;

const SENDER = 'alice@sender.example';
const BOB = 'bob@recipients.example';
const CAROL = 'carol@recipients.example';

async function start(env: Record<string, string> = {}) {
  return startTestFerry({
    env: {
      SMTP_URL: sink.url,
      MAIL_FROM: 'no-reply@ferry.example',
      MAIL_RETRY_DELAY_SECONDS: '1',
      DOWNLOAD_CONFIRMATION_DELAY_SECONDS: '0',
      // The tests run each step themselves.
      MAINTENANCE_CRON: '0 0 1 1 *',
      ...env,
    },
  });
}

beforeAll(async () => {
  sink = await startSmtpSink();
});
afterAll(async () => {
  await sink.close();
});
beforeEach(() => {
  sink.messages.length = 0;
  sink.setVerdict(() => 'accept');
});
afterEach(async () => {
  await ferry?.close();
});

const to = (address: string) => (m: ReceivedMail) => m.to.includes(address);
const subject = (m: ReceivedMail) => m.parsed.subject ?? '';
const codeOf = (m: ReceivedMail) => /^(\d{6}) /.exec(subject(m))![1]!;
const personalLink = (m: ReceivedMail) => {
  const match = /(http:\/\/[^\s"<>]+\/dl\/([A-Za-z0-9]{16})\?userSecret=([A-Za-z0-9_-]+))/.exec(
    m.parsed.text ?? '',
  );
  expect(match, 'a personal link in the text part').not.toBeNull();
  return { url: match![1]!, transferId: match![2]!, userSecret: match![3]! };
};

/** The RFC 8058 one-click URL of a mail's List-Unsubscribe header. */
const unsubscribeUrl = (m: ReceivedMail): string =>
  (m.parsed.headers.get('list') as { unsubscribe?: { url?: string } } | undefined)?.unsubscribe?.url ?? '';

async function uploadAndComplete(
  baseUrl: string,
  created: Awaited<ReturnType<typeof createTransfer>>,
  data: Buffer[],
) {
  const tus = new TusTestClient(baseUrl, created.uploadToken);
  for (const [i, d] of data.entries()) await tus.upload(created.transferId, created.files[i]!.id, d);
  const done = await api(baseUrl, `/api/transfer/transfers/${created.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { files: data.map((d, i) => ({ id: created.files[i]!.id, sha256: sha256(d) })) },
  });
  expect(done.status).toBe(200);
  return done.body as TransferSummary;
}

async function state(baseUrl: string, created: { transferId: string; uploadToken: string }) {
  const res = await api(baseUrl, `/api/transfer/transfers/${created.transferId}/upload-state`, {
    headers: { 'x-upload-token': created.uploadToken },
  });
  expect(res.status).toBe(200);
  return res.body as TransferSummary;
}

async function until<T>(what: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value)) return value;
    if (Date.now() > deadline) throw new Error(`still ${JSON.stringify(value)} after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const verify = (baseUrl: string, created: { transferId: string; uploadToken: string }, code: string) =>
  api(baseUrl, `/api/transfer/transfers/${created.transferId}/sender-verification`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { code },
  });

async function link(baseUrl: string, query: Record<string, string>) {
  return api(baseUrl, `/api/transfer/downloads/link?${new URLSearchParams(query)}`);
}

describe('S1: send by e-mail', () => {
  it('verifies the sender, mails each recipient a personal link, and tells the sender who downloaded what', async () => {
    ferry = await start();
    const files = [randomFile(70_000), randomFile(1234)];
    const created = await createTransfer(ferry.baseUrl, {
      type: 'S1',
      name: 'Holiday photos',
      message: 'Here they are!',
      senderEmail: SENDER,
      senderName: 'Alice Martin',
      recipients: [BOB, CAROL, 'BOB@recipients.example'],
      locale: 'fr',
      timeZone: 'Pacific/Kiritimati',
      files: [
        { name: 'beach.jpg', size: files[0]!.length },
        { name: 'notes.txt', size: files[1]!.length },
      ],
    });
    expect(created.senderVerification).toBe('pending');

    // The code goes to the sender, in their language, and nothing to the recipients yet.
    const codeMail = await sink.waitFor(to(SENDER));
    expect(subject(codeMail)).toMatch(/^\d{6} /);
    expect(codeMail.parsed.text).toContain(codeOf(codeMail));
    expect(codeMail.parsed.html).toContain(codeOf(codeMail));
    const uploaded = await uploadAndComplete(ferry.baseUrl, created, files);
    expect(uploaded.status).toBe('ENABLED');
    expect(uploaded.sentAt).toBeNull();
    expect(uploaded.recipients.map((r) => [r.email, r.delivery])).toEqual([
      [BOB, 'waiting'],
      [CAROL, 'waiting'],
    ]);

    const wrongCode = codeOf(codeMail) === '000000' ? '000001' : '000000';
    const wrong = await verify(ferry.baseUrl, created, wrongCode);
    expect(wrong.status).toBe(403);
    expect(wrong.body).toMatchObject({ codes: ['WRONG_VERIFICATION_CODE'], details: { attemptsLeft: 4 } });
    const right = await verify(ferry.baseUrl, created, codeOf(codeMail));
    expect(right.status).toBe(200);
    expect(right.body.transfer.senderVerification).toBe('verified');
    expect(typeof right.body.senderVerificationToken).toBe('string');

    // One mail per recipient, each addressed to them alone, each with its own working link.
    const bobMail = await sink.waitFor(to(BOB));
    const carolMail = await sink.waitFor(to(CAROL));
    for (const m of [bobMail, carolMail]) {
      expect(m.to).toHaveLength(1);
      expect(subject(m)).toContain('Alice Martin');
      expect(subject(m)).toContain('Holiday photos');
      expect(m.parsed.text).toContain('Here they are!');
      expect(m.parsed.text).toContain('beach.jpg');
      expect(m.parsed.html).toContain('notes.txt');
      expect(m.parsed.replyTo?.text).toContain(SENDER);
      expect(m.parsed.html).not.toMatch(/<img[^>]+src="http/);
      // In the sender's language, the expiry in the sender's time zone (UTC+14 there), its zone named.
      expect(subject(m)).toContain('vous a envoyé');
      expect(m.parsed.text).toContain('Disponible jusqu’au');
      const expiry = new Date(uploaded.expiresAt);
      const local = new Date(expiry.getTime() + 14 * 3600_000);
      expect(m.parsed.text).toContain(`${local.getUTCDate()} `);
      expect(m.parsed.text).toMatch(
        new RegExp(`${String(local.getUTCHours()).padStart(2, '0')}:\\d\\d UTC\\+14`),
      );
    }
    const bob = personalLink(bobMail);
    const carol = personalLink(carolMail);
    expect(bob.transferId).toBe(created.transferId);
    expect(bob.userSecret).not.toBe(carol.userSecret);

    const sent = await until(
      () => state(ferry.baseUrl, created),
      (s) => s.recipients.every((r) => r.delivery === 'sent'),
    );
    expect(sent.sentAt).not.toBeNull();
    // The sender's summary, with their own link.
    const summary = await sink.waitFor((m) => to(SENDER)(m) && m !== codeMail);
    expect(summary.parsed.text).toContain(`/dl/${created.transferId}`);
    expect(summary.parsed.text).toContain(BOB);

    // Bob opens his link: the page knows it is him, and his download is counted as his.
    const info = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/info?transferId=${bob.transferId}&userSecret=${bob.userSecret}`,
    );
    expect(info.body).toMatchObject({ recipientEmail: BOB, downloaderEmailRequired: false });
    const fileLink = await link(ferry.baseUrl, {
      transferId: bob.transferId,
      fileId: created.files[0]!.id,
      userSecret: bob.userSecret,
      browserCode: 'visit-1',
    });
    expect(fileLink.status).toBe(200);
    const got = await fetchBytes(fileLink.body.url);
    expect(sha256(got.data)).toBe(sha256(files[0]!));

    const confirmation = await sink.waitFor(
      (m) => to(SENDER)(m) && /bob@recipients\.example/.test(subject(m)),
    );
    expect(confirmation.parsed.text).toContain('beach.jpg');
    expect(confirmation.parsed.text).not.toContain('notes.txt');
    expect(unsubscribeUrl(confirmation)).toContain('/api/transfer/notifications/unsubscribe?token=');
    const after = await state(ferry.baseUrl, created);
    expect(after.recipients.find((r) => r.email === BOB)?.downloadedAt).not.toBeNull();
    expect(after.recipients.find((r) => r.email === CAROL)?.downloadedAt).toBeNull();

    // Exactly one mail per key went out.
    const byRecipient = (address: string) => sink.messages.filter(to(address)).length;
    expect(byRecipient(BOB)).toBe(1);
    expect(byRecipient(CAROL)).toBe(1);

    const events = await query<{ type: string; actor: string; data: Record<string, unknown> }>(
      ferry,
      'SELECT type, actor, data FROM transfer_events WHERE transfer_id = $1 ORDER BY id',
      [created.transferId],
    );
    expect(events.map((e) => e.type)).toEqual([
      'CREATED',
      'RECIPIENT_ADDED',
      'RECIPIENT_ADDED',
      'DOWNLOAD_CONFIRMATION_ENABLED',
      'EXPIRY_REMINDER_ENABLED',
      'UPLOADED',
      'AVAILABLE',
    ]);
    expect(events[1]).toMatchObject({ actor: 'anonymous', data: { email: BOB } });

    // The same history through the API, in the dashboard's shape: for the upload token's holder only.
    const history = await api(ferry.baseUrl, `/api/transfer/transfers/${created.transferId}/events`, {
      headers: { 'x-upload-token': created.uploadToken },
    });
    expect(history.status).toBe(200);
    const seen = history.body as TransferEventList;
    expect(seen.events.map((e) => e.type)).toEqual(events.map((e) => e.type));
    expect(seen.events[0]).toMatchObject({
      type: 'CREATED',
      actor: { kind: 'anonymous', userId: null, email: null },
      data: { type: 'S1', files: 2 },
    });
    expect(seen.events[1]).toMatchObject({ type: 'RECIPIENT_ADDED', data: { email: BOB } });
    expect(seen.events.at(-1)).toMatchObject({ type: 'AVAILABLE', actor: { kind: 'system' } });
    const times = seen.events.map((e) => Date.parse(e.at));
    expect(times.every((t, i) => i === 0 || t >= times[i - 1]!)).toBe(true);
    expect(Math.abs(times[0]! - Date.now())).toBeLessThan(120_000);
    for (const headers of [{}, { 'x-upload-token': 'not-the-token' }]) {
      const refused = await api(ferry.baseUrl, `/api/transfer/transfers/${created.transferId}/events`, {
        headers,
      });
      expect(refused.status).toBe(404);
      expect(JSON.stringify(refused.body)).not.toContain(BOB);
    }
    // Only the hash of a personal link is stored.
    const stored = await query(ferry, 'SELECT * FROM transfer_recipients WHERE transfer_id = $1', [
      created.transferId,
    ]);
    expect(JSON.stringify(stored)).not.toContain(bob.userSecret);
  });

  it('a proven address is not asked again: the token from a verification skips the code', async () => {
    ferry = await start();
    const first = await createTransfer(ferry.baseUrl, {
      type: 'S1',
      senderEmail: SENDER,
      recipients: [BOB],
      files: [{ name: 'a.txt', size: 3 }],
    });
    const code = codeOf(await sink.waitFor(to(SENDER)));
    const proof = (await verify(ferry.baseUrl, first, code)).body.senderVerificationToken as string;
    const mailsBefore = sink.messages.length;

    const second = await createTransfer(ferry.baseUrl, {
      type: 'S1',
      senderEmail: SENDER,
      recipients: [CAROL],
      senderVerificationToken: proof,
      files: [{ name: 'b.txt', size: 3 }],
    });
    expect(second.senderVerification).toBe('verified');
    // Someone else's address with that token is still asked for a code.
    const other = await createTransfer(ferry.baseUrl, {
      type: 'S1',
      senderEmail: 'mallory@evil.example',
      recipients: [CAROL],
      senderVerificationToken: proof,
      files: [{ name: 'c.txt', size: 3 }],
    });
    expect(other.senderVerification).toBe('pending');
    await sink.waitFor(to('mallory@evil.example'));
    expect(sink.messages.slice(mailsBefore).filter(to(SENDER))).toHaveLength(0);
  });

  it('limits codes: wrong ones, resends too soon, and guessing', async () => {
    ferry = await start();
    const created = await createTransfer(ferry.baseUrl, {
      type: 'S1',
      senderEmail: SENDER,
      recipients: [BOB],
      files: [{ name: 'a.txt', size: 3 }],
    });
    const code = codeOf(await sink.waitFor(to(SENDER)));
    const wrongCode = code === '111111' ? '222222' : '111111';

    const resend = await api(
      ferry.baseUrl,
      `/api/transfer/transfers/${created.transferId}/sender-verification/resend`,
      { method: 'POST', headers: { 'x-upload-token': created.uploadToken } },
    );
    expect(resend.status).toBe(429);
    expect(Number(resend.headers.get('retry-after'))).toBeGreaterThan(0);

    for (let i = 4; i >= 1; i--) {
      const res = await verify(ferry.baseUrl, created, wrongCode);
      expect(res.body).toMatchObject({ codes: ['WRONG_VERIFICATION_CODE'], details: { attemptsLeft: i } });
    }
    const fifth = await verify(ferry.baseUrl, created, wrongCode);
    expect(fifth.body.codes).toEqual(['VERIFICATION_CODE_EXPIRED']);
    // Even the right code is refused now: a new one must be asked for.
    expect((await verify(ferry.baseUrl, created, code)).body.codes).toEqual(['VERIFICATION_CODE_EXPIRED']);
    // Beyond that, every check counts against the transfer: guessing ends in 429.
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await verify(ferry.baseUrl, created, wrongCode)).status);
    expect(statuses).toContain(429);
    // No wrong code, and no unauthenticated caller, ever sent the transfer.
    expect((await state(ferry.baseUrl, created)).senderVerification).toBe('pending');
    const stranger = await api(
      ferry.baseUrl,
      `/api/transfer/transfers/${created.transferId}/sender-verification`,
      {
        method: 'POST',
        json: { code },
      },
    );
    expect(stranger.status).toBe(404);
  });

  it('refuses bad S1 requests clearly, and more recipients than the plan allows', async () => {
    ferry = await start();
    const base = { type: 'S1' as const, senderEmail: SENDER, files: [{ name: 'a.txt', size: 3 }] };
    const none = await api(ferry.baseUrl, '/api/transfer/transfers', { method: 'POST', json: base });
    expect(none.body).toMatchObject({
      status: 400,
      codes: ['VALIDATION_FAILED'],
      details: { field: 'recipients' },
    });
    const noSender = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { ...base, senderEmail: undefined, recipients: [BOB] },
    });
    expect(noSender.body).toMatchObject({ codes: ['VALIDATION_FAILED'], details: { field: 'senderEmail' } });
    const eleven = Array.from({ length: 11 }, (_, i) => `r${i}@example.com`);
    const tooMany = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { ...base, recipients: eleven },
    });
    expect(tooMany.body).toMatchObject({
      status: 400,
      codes: ['LIMIT_EXCEEDED'],
      limitErrors: [{ limit: 'recipients', max: 10, actual: 11 }],
    });
    const badAddress = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { ...base, recipients: ['not-an-address'] },
    });
    expect(badAddress.status).toBe(400);
    const s2WithRecipients = await api(ferry.baseUrl, '/api/transfer/transfers', {
      method: 'POST',
      json: { ...base, type: 'S2', recipients: [BOB] },
    });
    expect(s2WithRecipients.body).toMatchObject({ codes: ['VALIDATION_FAILED'] });
    expect(await query(ferry, 'SELECT id FROM transfers')).toHaveLength(0);
    expect(sink.messages).toHaveLength(0);
  });

  it('shows the sender a recipient whose mail the relay refused, on the page and by e-mail', async () => {
    ferry = await start({ ANONYMOUS_SENDER_VERIFICATION: 'false' });
    sink.setVerdict((m) => (m.to.includes(CAROL) ? { code: 550, message: 'No such mailbox' } : 'accept'));
    const created = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      type: 'S1',
      name: 'Quarterly figures',
      senderEmail: SENDER,
      recipients: [BOB, CAROL],
    });
    expect(created.senderVerification).toBe('not_needed');
    const final = await until(
      () => state(ferry.baseUrl, created),
      (s) => s.recipients.every((r) => r.delivery === 'sent' || r.delivery === 'rejected'),
    );
    expect(final.recipients).toEqual([
      expect.objectContaining({ email: BOB, delivery: 'sent', error: null }),
      expect.objectContaining({
        email: CAROL,
        delivery: 'rejected',
        error: expect.stringContaining('No such mailbox'),
      }),
    ]);
    // The sender may have left the page: a mail tells them, once, naming Carol and what her server said.
    const notice = await sink.waitFor((m) => to(SENDER)(m) && subject(m).startsWith('Not delivered'));
    expect(subject(notice)).toBe(`Not delivered: “Quarterly figures” to ${CAROL}`);
    expect(notice.parsed.text).toContain('No such mailbox');
    // The sender's own link (their secret), never Carol's personal one.
    expect(created.link).toMatch(new RegExp(`/dl/${created.transferId}\\?userSecret=`));
    expect(notice.parsed.text).toContain(created.link);
    const senderSecret = new URL(created.link).searchParams.get('userSecret');
    const secrets = [...notice.parsed.text.matchAll(/userSecret=([A-Za-z0-9_-]+)/g)].map((m) => m[1]);
    expect(new Set(secrets)).toEqual(new Set([senderSecret]));
    await until(
      () => query(ferry, "SELECT status FROM mail_deliveries WHERE idempotency_key LIKE 'bounce-%'"),
      (rows) => rows.length === 1 && rows[0]?.status === 'sent',
    );
    expect(sink.messages.filter((m) => to(SENDER)(m) && subject(m).startsWith('Not delivered'))).toHaveLength(
      1,
    );
    expect(sink.messages.filter(to(BOB))).toHaveLength(1);
  });

  it('reminds, before expiry, only the recipients who have not downloaded', async () => {
    ferry = await start({ ANONYMOUS_SENDER_VERIFICATION: 'false' });
    const created = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      type: 'S1',
      senderEmail: SENDER,
      recipients: [BOB, CAROL],
      expiresInDays: 7,
    });
    const bob = personalLink(await sink.waitFor(to(BOB)));
    await sink.waitFor(to(CAROL));
    expect(
      (await link(ferry.baseUrl, { transferId: bob.transferId, userSecret: bob.userSecret })).status,
    ).toBe(200);

    // Not due yet: nothing.
    expect(await ferry.notifications.remindDue()).toBe(0);
    // Two days before expiry (EXPIRY_REMINDER_HOURS=48 by default) it is due.
    await query(
      ferry,
      "UPDATE transfers SET expires_at = now() + interval '47 hours', sent_at = now() - interval '5 days' WHERE id = $1",
      [created.transferId],
    );
    expect(await ferry.notifications.remindDue()).toBe(1);
    const reminder = await sink.waitFor((m) => to(CAROL)(m) && /expire/i.test(subject(m)));
    expect(personalLink(reminder).userSecret).toBe(personalLink(sink.messages.find(to(CAROL))!).userSecret);
    expect(unsubscribeUrl(reminder)).toContain('/api/transfer/notifications/unsubscribe?token=');
    // Once per expiry date, and never to Bob.
    expect(await ferry.notifications.remindDue()).toBe(0);
    const keys = await query<{ idempotency_key: string }>(
      ferry,
      "SELECT idempotency_key FROM mail_deliveries WHERE idempotency_key LIKE 'rem-%'",
    );
    expect(keys).toHaveLength(1);
    await until(
      () => query(ferry, "SELECT status FROM mail_deliveries WHERE idempotency_key LIKE 'rem-%'"),
      (rows) => rows[0]?.status === 'sent',
    );
    expect(sink.messages.filter(to(BOB))).toHaveLength(1);

    // Carol turns reminders off from the mail; a changed expiry date would remind again, but not her.
    const token = new URL(unsubscribeUrl(reminder)).searchParams.get('token')!;
    const off = await api(ferry.baseUrl, `/api/transfer/notifications/unsubscribe?token=${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(off.body).toEqual({ kind: 'expiryReminder', transferName: null });
    const history = await api(ferry.baseUrl, `/api/transfer/transfers/${created.transferId}/events`, {
      headers: { 'x-upload-token': created.uploadToken },
    });
    expect((history.body as TransferEventList).events.at(-1)).toMatchObject({
      type: 'EXPIRY_REMINDER_DISABLED',
      actor: { kind: 'recipient', email: CAROL },
    });
    await query(ferry, "UPDATE transfers SET expires_at = now() + interval '40 hours' WHERE id = $1", [
      created.transferId,
    ]);
    expect(await ferry.notifications.remindDue()).toBe(0);
  });

  it('checks the password of an S1 transfer only with a personal link, as info does: the bare link guesses nothing', async () => {
    ferry = await start({ ANONYMOUS_SENDER_VERIFICATION: 'false' });
    const created = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      type: 'S1',
      senderEmail: SENDER,
      recipients: [BOB],
      password: 'open sesame',
    });
    const bob = personalLink(await sink.waitFor(to(BOB)));
    const check = (body: Record<string, string>) =>
      api(ferry.baseUrl, '/api/transfer/downloads/check-password', {
        method: 'POST',
        json: { transferId: created.transferId, ...body },
      });
    const info = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${created.transferId}`);
    expect([info.status, info.body.codes]).toEqual([404, ['TRANSFER_NOT_FOUND']]);
    // Without a secret, or with one that is nobody's: the same 404 as info, the right password too.
    for (const body of [
      { password: 'open sesame' },
      { password: 'a guess' },
      { password: 'open sesame', userSecret: 'not-a-secret' },
    ]) {
      const refused = await check(body);
      expect([refused.status, refused.body.codes], JSON.stringify(body)).toEqual([
        404,
        ['TRANSFER_NOT_FOUND'],
      ]);
    }
    // With Bob's personal link: a wrong password is wrong, the right one opens.
    const wrong = await check({ password: 'a guess', userSecret: bob.userSecret });
    expect([wrong.status, wrong.body.codes]).toEqual([403, ['WRONG_PASSWORD']]);
    expect((await check({ password: 'open sesame', userSecret: bob.userSecret })).status).toBe(200);
    // With the sender's own link (the create answer's).
    const senderSecret = new URL(created.link).searchParams.get('userSecret')!;
    expect((await check({ password: 'open sesame', userSecret: senderSecret })).status).toBe(200);
  });

  it('S2 with forced e-mail: the downloader gives an address first, and the confirmation names it', async () => {
    ferry = await start();
    const data = randomFile(5000);
    const created = await createTransfer(ferry.baseUrl, {
      type: 'S2',
      senderEmail: SENDER,
      forceEmailWhenDownloadS2: true,
      downloadConfirmation: true,
      files: [{ name: 'plan.pdf', size: data.length }],
    });
    // Mails to an anonymous sender's address wait for the proof.
    expect(created.senderVerification).toBe('pending');
    await uploadAndComplete(ferry.baseUrl, created, [data]);
    expect((await verify(ferry.baseUrl, created, codeOf(await sink.waitFor(to(SENDER))))).status).toBe(200);

    const info = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${created.transferId}`);
    expect(info.body.downloaderEmailRequired).toBe(true);
    const refused = await link(ferry.baseUrl, { transferId: created.transferId });
    expect(refused.status).toBe(401);
    expect(refused.body.codes).toEqual(['DOWNLOADER_EMAIL_REQUIRED']);
    const given = await link(ferry.baseUrl, {
      transferId: created.transferId,
      fileId: created.files[0]!.id,
      downloaderEmail: 'dave@downloads.example',
    });
    expect(given.status).toBe(200);
    const bytes = await fetchBytes(given.body.url);
    expect(bytes.status, bytes.data.toString().slice(0, 200)).toBe(200);
    expect(sha256(bytes.data)).toBe(sha256(data));
    const confirmation = await sink.waitFor(
      (m) => to(SENDER)(m) && /dave@downloads\.example/.test(subject(m)),
    );
    expect(confirmation.parsed.text).toContain('plan.pdf');

    // The sender turns the requirement off: recorded, and downloads need no address any more.
    const patched = await api(ferry.baseUrl, `/api/transfer/transfers/${created.transferId}/notifications`, {
      method: 'PATCH',
      headers: { 'x-upload-token': created.uploadToken },
      json: { forceEmailWhenDownloadS2: false, downloadConfirmation: false },
    });
    expect(patched.status).toBe(200);
    expect(patched.body.notifications).toMatchObject({
      forceEmailWhenDownloadS2: false,
      downloadConfirmation: false,
    });
    expect((await link(ferry.baseUrl, { transferId: created.transferId })).status).toBe(200);
    const events = await query<{ type: string }>(
      ferry,
      'SELECT type FROM transfer_events WHERE transfer_id = $1 ORDER BY id',
      [created.transferId],
    );
    expect(events.map((e) => e.type)).toEqual([
      'CREATED',
      'DOWNLOAD_CONFIRMATION_ENABLED',
      'FORCE_EMAIL_WHEN_DOWNLOAD_S2_ADDED',
      'UPLOADED',
      'AVAILABLE',
      'DOWNLOAD_CONFIRMATION_DISABLED',
      'FORCE_EMAIL_WHEN_DOWNLOAD_S2_REMOVED',
    ]);
  });

  it('S2 download confirmations follow the account setting downloadConfirmationS2', async () => {
    ferry = await start();
    const waitForMail = (address: string) => sink.waitFor(to(address));
    const on = await signedInAccount(ferry.baseUrl, 'olive@accounts.example', waitForMail);
    const off = await signedInAccount(ferry.baseUrl, 'oscar@accounts.example', waitForMail);
    const patched = await api(ferry.baseUrl, `/api/user/users/${on.uid}`, {
      method: 'PATCH',
      headers: on.bearer,
      json: { notificationSettings: { transfer: { downloadConfirmationS2: true } } },
    });
    expect(patched.status).toBe(200);

    const data = randomFile(3000);
    // Created with the session: the transfer is the account's, its defaults the account's.
    const createAs = async (account: typeof on) => {
      const res = await api(ferry.baseUrl, '/api/transfer/transfers', {
        method: 'POST',
        headers: account.bearer,
        json: {
          type: 'S2',
          name: `from ${account.email}`,
          files: [{ name: 'report.pdf', size: data.length }],
        },
      });
      expect(res.status).toBe(201);
      return res.body as Awaited<ReturnType<typeof createTransfer>>;
    };
    const withSetting = await createAs(on);
    const without = await createAs(off);
    for (const created of [withSetting, without]) {
      await uploadAndComplete(ferry.baseUrl, created, [data]);
      expect(created.senderVerification).toBe('not_needed');
    }
    expect((await state(ferry.baseUrl, withSetting)).notifications.downloadConfirmation).toBe(true);
    expect((await state(ferry.baseUrl, without)).notifications.downloadConfirmation).toBe(false);

    for (const created of [without, withSetting]) {
      const got = await link(ferry.baseUrl, { transferId: created.transferId, fileId: created.files[0]!.id });
      expect(got.status).toBe(200);
    }
    const confirmation = await sink.waitFor(
      (m) => to(on.email)(m) && m.parsed.text?.includes('report.pdf') === true,
    );
    expect(subject(confirmation)).toBeTruthy();
    // Nothing for the account that left the setting off, whose transfer recorded no confirmation either.
    expect(sink.messages.filter(to(off.email)).map(subject)).toHaveLength(1); // the verification link only
    const history = await api(ferry.baseUrl, `/api/transfer/transfers/${without.transferId}/events`, {
      headers: off.bearer,
    });
    expect(history.status).toBe(200);
    expect((history.body as TransferEventList).events.map((e) => e.type)).not.toContain(
      'DOWNLOAD_CONFIRMATION_ENABLED',
    );
    expect((history.body as TransferEventList).events[0]!.actor).toMatchObject({
      kind: 'user',
      userId: off.uid,
    });
    // Another account may not read it.
    const foreign = await api(ferry.baseUrl, `/api/transfer/transfers/${without.transferId}/events`, {
      headers: on.bearer,
    });
    expect(foreign.status).toBe(404);
  });

  it('a plain S2 link transfer asks for nothing and mails nobody', async () => {
    ferry = await start();
    const created = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      senderEmail: SENDER,
    });
    expect(created.senderVerification).toBe('not_needed');
    expect((await link(ferry.baseUrl, { transferId: created.transferId })).status).toBe(200);
    await until(
      () => state(ferry.baseUrl, created),
      (s) => s.sentAt !== null,
    );
    expect(sink.messages).toHaveLength(0);
  });
});

describe('expiry', () => {
  it('the sweep deletes the bytes, keeps the metadata, records EXPIRED, and downloads answer 410', async () => {
    ferry = await start();
    const data = randomFile(20_000);
    const created = await sendTransfer(ferry.baseUrl, [{ name: 'a.bin', data }]);
    const signed = await link(ferry.baseUrl, { transferId: created.transferId });
    const stored = await query<{ upload_id: string }>(
      ferry,
      'SELECT upload_id FROM transfer_files WHERE transfer_id = $1',
      [created.transferId],
    );
    const blobPath = path.join(ferry.dataDir, 'files', 'uploads', stored[0]!.upload_id);
    await expect(fs.stat(blobPath)).resolves.toBeTruthy();

    await query(ferry, "UPDATE transfers SET expires_at = now() - interval '1 minute' WHERE id = $1", [
      created.transferId,
    ]);
    const done = await ferry.notifications.tick();
    expect(done.expired).toBe(1);
    await expect(fs.stat(blobPath)).rejects.toThrow();
    const [file] = await query<{ name: string; size: string; sha256: string; blob_key: string | null }>(
      ferry,
      'SELECT name, size, sha256, blob_key FROM transfer_files WHERE transfer_id = $1',
      [created.transferId],
    );
    expect(file).toMatchObject({ name: 'a.bin', sha256: sha256(data), blob_key: null });
    const events = await query<{ type: string; actor: string }>(
      ferry,
      "SELECT type, actor FROM transfer_events WHERE transfer_id = $1 AND type = 'EXPIRED'",
      [created.transferId],
    );
    expect(events).toEqual([{ type: 'EXPIRED', actor: 'system' }]);
    // The page's info call says expired (the web app shows /d/expired), and links signed before stop working.
    const info = await api(ferry.baseUrl, `/api/transfer/downloads/info?transferId=${created.transferId}`);
    expect(info.body).toMatchObject({ status: 410, codes: ['TRANSFER_EXPIRED'] });
    expect((await fetchBytes(signed.body.url)).status).toBe(410);
    // Once only.
    expect((await ferry.notifications.tick()).expired).toBe(0);
  });
});

describe('without SMTP_URL', () => {
  it('the same messages land in DATA_DIR/outbox as .eml files', async () => {
    ferry = await startTestFerry({
      env: { ANONYMOUS_SENDER_VERIFICATION: 'false', MAINTENANCE_CRON: '0 0 1 1 *' },
    });
    const created = await sendTransfer(ferry.baseUrl, [{ name: 'a.txt', data: randomFile(10) }], {
      type: 'S1',
      senderEmail: SENDER,
      recipients: [BOB, CAROL],
    });
    const outbox = path.join(ferry.dataDir, 'outbox');
    const files = await until(
      async () => (await fs.readdir(outbox).catch(() => [])).filter((f) => f.endsWith('.eml')),
      (list) => list.length >= 3,
    );
    const contents = await Promise.all(files.map((f) => fs.readFile(path.join(outbox, f), 'utf8')));
    expect(contents.filter((c) => /^To: bob@recipients\.example/m.test(c))).toHaveLength(1);
    expect(contents.filter((c) => /^To: carol@recipients\.example/m.test(c))).toHaveLength(1);
    expect(contents.join('\n')).toContain(`/dl/${created.transferId}?userSecret=`);
    expect(sink.messages).toHaveLength(0);
  });
});
