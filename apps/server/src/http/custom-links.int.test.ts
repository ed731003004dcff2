import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, fetchBytes, randomFile, sha256, signedInAccount } from '../test/flows.js';
import { query, startTestFerry, type TestFerry } from '../test/harness.js';
import { type SmtpSink, startSmtpSink } from '../test/smtp-sink.js';
import { TusTestClient } from '../test/tus-client.js';

/**
 * Custom links (issue 23 part 3) against a real Ferry and Postgres: a paying sender's transfer answers at
 * /dl/{customLink}; info, link and thumbnail-links take the link (any case) as `transferId` and behave as with the
 * id; a link is unique across the instance even when two creations race; hostile links are refused with a reason.
 */
let sink: SmtpSink;
let ferry: TestFerry;
type Account = Awaited<ReturnType<typeof signedInAccount>>;
let paying: Account;
let free: Account;
let n = 0;

const as = (who: Account | null, path: string, init: Parameters<typeof api>[2] = {}) =>
  api(ferry.baseUrl, path, { ...init, headers: { ...(who?.bearer ?? {}), ...(init.headers ?? {}) } });
const create = (who: Account | null, extra: Record<string, unknown>, size = 1000) =>
  as(who, '/api/transfer/transfers', {
    method: 'POST',
    json: { type: 'S2', name: 'Quarterly report', files: [{ name: 'report.bin', size }], ...extra },
  });
const unique = (base: string) => `${base}-${process.pid}-${++n}`;

async function uploaded(who: Account | null, extra: Record<string, unknown>) {
  const data = randomFile(2000);
  const created = await create(who, extra, data.length);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const tus = new TusTestClient(ferry.baseUrl, created.body.uploadToken);
  await tus.upload(created.body.transferId, created.body.files[0].id, data);
  const done = await api(ferry.baseUrl, `/api/transfer/transfers/${created.body.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.body.uploadToken },
    json: { files: [{ id: created.body.files[0].id, sha256: sha256(data) }] },
  });
  expect(done.status).toBe(200);
  return { ...created.body, data };
}

const info = (ref: string) =>
  api(ferry.baseUrl, `/api/transfer/downloads/info?${new URLSearchParams({ transferId: ref })}`);
const link = (ref: string, extra: Record<string, string> = {}) =>
  api(ferry.baseUrl, `/api/transfer/downloads/link?${new URLSearchParams({ transferId: ref, ...extra })}`);

beforeAll(async () => {
  sink = await startSmtpSink();
  ferry = await startTestFerry({
    env: { SMTP_URL: sink.url, PUBLIC_URL: 'https://ferry.example', MAIL_RETRY_DELAY_SECONDS: '1' },
  });
  const waitFor = (to: string) => sink.waitFor((m) => m.to.includes(to));
  paying = await signedInAccount(ferry.baseUrl, `paying-${process.pid}@links.example`, waitFor);
  free = await signedInAccount(ferry.baseUrl, `free-${process.pid}@links.example`, waitFor);
  await query(ferry, `UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE id = $1`, [
    paying.uid,
  ]);
});

afterAll(async () => {
  await ferry?.close();
  await sink?.close();
});

describe('custom links', () => {
  it('make a paying sender’s transfer answer at /dl/{customLink}, in the create answer and the detail', async () => {
    const slug = unique('q3-report');
    const t = await uploaded(paying, { customLink: slug });
    expect(t.customLink).toBe(slug);
    expect(t.link).toBe(`https://ferry.example/dl/${slug}`);
    const stored = await query<{ custom_link: string }>(
      ferry,
      'SELECT custom_link FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(stored[0]!.custom_link).toBe(slug);
    const detail = await as(paying, `/api/transfer/transfers/${t.transferId}/detail`);
    expect(detail.body).toMatchObject({ customLink: slug, link: `https://ferry.example/dl/${slug}` });
    // The dashboard's list links it the same way.
    const list = await as(paying, '/api/transfer/transfers?limit=50');
    const item = list.body.items.find((i: { id: string }) => i.id === t.transferId);
    expect(item?.link).toBe(`https://ferry.example/dl/${slug}`);
  });

  it('are accepted as transferId by info, link and thumbnail-links, in any case, with the same counting', async () => {
    const slug = unique('launch-kit');
    const t = await uploaded(paying, { customLink: slug, maxDownloads: 2 });
    for (const ref of [slug, slug.toUpperCase(), `Launch-KIT${slug.slice('launch-kit'.length)}`]) {
      const res = await info(ref);
      expect(res.status, ref).toBe(200);
      expect(res.body).toMatchObject({ transferId: t.transferId, fileCount: 1, downloadsLeft: 2 });
    }
    const first = await link(slug.toUpperCase(), { fileId: t.files[0].id });
    expect(first.status).toBe(200);
    // Links start at PUBLIC_URL; the bytes are fetched from this test's own listener.
    const bytes = await fetchBytes(first.body.url.replace('https://ferry.example', ferry.baseUrl));
    expect(sha256(bytes.data)).toBe(sha256(t.data));
    // The same transfer, the same limit: one download by the link, one by the id, then none by either.
    expect((await link(t.transferId, { fileId: t.files[0].id })).status).toBe(200);
    const third = await link(slug, { fileId: t.files[0].id });
    expect([third.status, third.body.codes]).toEqual([403, ['TOO_MANY_DOWNLOADS']]);
    const counted = await query<{ download_count: number }>(
      ferry,
      'SELECT download_count FROM transfers WHERE id = $1',
      [t.transferId],
    );
    expect(counted[0]!.download_count).toBe(2);

    const thumbs = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/thumbnail-links?transferId=${slug.toUpperCase()}`,
      { method: 'POST', json: { fileIds: [t.files[0].id], format: 'web' } },
    );
    expect(thumbs.status).toBe(200);
    expect(thumbs.body.thumbnails[0].fileId).toBe(t.files[0].id);
  });

  it('are what the mails link to: each recipient’s personal link opens at the custom link', async () => {
    const slug = unique('board-pack');
    const bob = `bob-${process.pid}@links.example`;
    const t = await uploaded(paying, { type: 'S1', recipients: [bob], customLink: slug });
    const mail = await sink.waitFor((m) => m.to.includes(bob));
    const personal = new RegExp(`https://ferry\\.example/dl/${slug}\\?userSecret=([A-Za-z0-9_-]+)`).exec(
      mail.parsed.text ?? '',
    );
    expect(personal, mail.parsed.text || '').not.toBeNull();
    const opened = await api(
      ferry.baseUrl,
      `/api/transfer/downloads/info?transferId=${slug}&userSecret=${personal![1]}`,
    );
    expect(opened.body).toMatchObject({ transferId: t.transferId, recipientEmail: bob });
  });

  it('keep a password: the slug opens nothing more than the id does', async () => {
    const slug = unique('locked');
    const t = await uploaded(paying, { customLink: slug, password: 'correct horse' });
    const shown = await info(slug);
    expect(shown.body).toMatchObject({ locked: true, files: [] });
    expect((await link(slug)).body.codes).toEqual(['PASSWORD_REQUIRED']);
    const right = await link(slug, { password: 'correct horse', fileId: t.files[0].id });
    expect(right.status).toBe(200);
    const check = await api(ferry.baseUrl, '/api/transfer/downloads/check-password', {
      method: 'POST',
      json: { transferId: slug.toUpperCase(), password: 'correct horse' },
    });
    expect(check.status).toBe(200);
  });

  it('refuse a link another transfer has (409), whatever its case, and let only one of two racing creations in', async () => {
    const slug = unique('taken');
    expect((await create(paying, { customLink: slug })).status).toBe(201);
    const again = await create(paying, { customLink: slug });
    expect([again.status, again.body.codes]).toEqual([409, ['CUSTOM_LINK_TAKEN']]);
    expect(again.body.details).toMatchObject({ field: 'customLink' });

    const raced = unique('race');
    const answers = await Promise.all(Array.from({ length: 4 }, () => create(paying, { customLink: raced })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    for (const a of answers.filter((x) => x.status === 409))
      expect(a.body.codes).toEqual(['CUSTOM_LINK_TAKEN']);
    const rows = await query(ferry, 'SELECT id FROM transfers WHERE lower(custom_link) = $1', [raced]);
    expect(rows).toHaveLength(1);
  });

  it.each([
    ['uppercase', 'Q3-Report', 'characters'],
    ['Cyrillic look-alike', 'q3-r\u0435port', 'characters'],
    ['full-width letters', '\uff51\uff13-report', 'characters'],
    ['dots', '..', 'length'],
    ['a path', '../etc', 'characters'],
    ['an escaped slash', 'q3%2freport', 'characters'],
    ['a slash', 'q3/report', 'characters'],
    ['spaces', 'q3 report', 'characters'],
    ['too short', 'ab', 'length'],
    ['too long', 'a'.repeat(65), 'length'],
    ['a leading hyphen', '-report', 'hyphens'],
    ['a trailing hyphen', 'report-', 'hyphens'],
    ['a double hyphen', 'q3--report', 'hyphens'],
    ['a reserved word', 'admin', 'reserved'],
    ['a transfer id’s shape', 'abcdefgh12345678', 'looks_like_id'],
  ])('refuse %s with VALIDATION_FAILED and a reason', async (_what, slug, problem) => {
    const res = await create(paying, { customLink: slug });
    expect([res.status, res.body.codes]).toEqual([400, ['VALIDATION_FAILED']]);
    expect(res.body.details).toEqual({ field: 'customLink', problem });
    expect(res.body.message).toMatch(/custom link|reserved/i);
  });

  it('are for paying plans: a free account and an anonymous sender hear why (403)', async () => {
    for (const who of [free, null]) {
      const res = await create(who, {
        customLink: unique('free'),
        ...(who ? {} : { senderEmail: 'anon@links.example' }),
      });
      expect([res.status, res.body.codes]).toEqual([403, ['FORBIDDEN']]);
      expect(res.body.message).toMatch(/paid plan/);
    }
  });

  it('keep working after the plan lapses, until their transfer expires; a new one needs the plan again', async () => {
    const lapsing = await signedInAccount(ferry.baseUrl, `lapsing-${process.pid}@links.example`, (to) =>
      sink.waitFor((m) => m.to.includes(to)),
    );
    await query(ferry, `UPDATE users SET plan_type = 'PREMIUM', plan_code = 'PREMIUM' WHERE id = $1`, [
      lapsing.uid,
    ]);
    const slug = unique('kept');
    const sent = await uploaded(lapsing, { customLink: slug });
    await query(ferry, `UPDATE users SET plan_type = 'NONE', plan_code = NULL WHERE id = $1`, [lapsing.uid]);
    expect((await info(slug)).body.transferId).toBe(sent.transferId);
    const got = await link(slug, { fileId: sent.files[0].id });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(
      sha256((await fetchBytes(got.body.url.replace('https://ferry.example', ferry.baseUrl))).data),
    ).toBe(sha256(sent.data));
    expect((await create(lapsing, { customLink: unique('again') })).status).toBe(403);
  });

  it('answer a link that leads nowhere like an unknown transfer, and stop an address that guesses many', async () => {
    const miss = await info('no-such-link-here');
    expect([miss.status, miss.body.codes]).toEqual([404, ['TRANSFER_NOT_FOUND']]);
    let last = miss;
    for (let i = 0; i < 40 && last.status !== 429; i++) last = await info(`guess-${i}-nothing`);
    expect([last.status, last.body.codes]).toEqual([429, ['RATE_LIMITED']]);
  });
});
