import {
  SenderVerificationResendResponse,
  SenderVerificationResponse,
  TransferSummary,
  UnsubscribeResponse,
} from '@ferry/core';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FerryProcess, Fleet } from '../support/ferry.js';
import {
  api,
  createTransfer,
  errorShapeProblem,
  type RawResponse,
  randomFile,
  raw,
  sendTransfer,
  TusTestClient,
} from '../support/http.js';
import { type FreshDatabase, freshDatabase } from '../support/infra.js';
import { readOutbox, waitForOutbox } from '../support/mail.js';
import { storedAddressProblem, storedNameProblem, storedPathProblem } from '../support/rules.js';

/**
 * Property-based bad input against every public endpoint. Each case must answer below 500, and a 4xx of a JSON
 * route must carry the spec §8 body. Violations are collected (not thrown at the first) so one run reports every
 * distinct failure; FUZZ_SEED replays a run.
 */
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const RUNS = Number(process.env.FUZZ_RUNS_SCALE ?? 1);
const runs = (n: number) => Math.max(10, Math.round(n * RUNS));

// ---------- building blocks ----------

const b64 = (s: string) => Buffer.from(s).toString('base64');
/** The string with lone surrogates replaced by U+FFFD (String.prototype.toWellFormed, not in lib ES2023). */
const wellFormed = (s: string) =>
  s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
/** encodeURIComponent that survives lone surrogates (sent as U+FFFD). */
const enc = (s: string) => {
  try {
    return encodeURIComponent(s);
  } catch {
    return encodeURIComponent(wellFormed(s));
  }
};
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 200, maxLength: 1200 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '\u0000',
      'a\u0000b',
      '\u202Etxt.exe',
      '<script>alert(1)</script>',
      "' OR 1=1 --",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the log4j payload, literally
      '${jndi:ldap://x}',
      '../../etc/passwd',
      '%00',
      '\uFEFF',
      '\uD800',
      '🙂'.repeat(100),
      'x'.repeat(100_000),
    ),
  },
);
const json = fc.jsonValue({ maxDepth: 3 });
const anything = fc.oneof(
  json,
  text,
  fc.constantFrom(null, true, -1, 0, 1.5, 1e308, -1e308, 2 ** 53 + 2, ''),
);
/** A header value fetch will send: Latin-1 without controls (it refuses CR, LF, NUL itself). */
const headerValue = fc.oneof(
  fc.string({
    unit: fc
      .integer({ min: 0x20, max: 0xff })
      .filter((c) => c !== 0x7f)
      .map((c) => String.fromCharCode(c)),
    maxLength: 300,
  }),
  fc.constantFrom('', '1.0.0', '0', '-1', '1e3', '9007199254740993', 'a'.repeat(9000)),
);

// Dictionary names: what a hostile or careless client sends most.
const HOSTILE_NAMES = [
  '../../etc/passwd',
  '..\\..\\boot.ini',
  '/etc/shadow',
  'a\u0000.txt',
  'tab\there.txt',
  'cr\rlf\n.txt',
  'del\u007f.txt',
  'nel\u0085.txt',
  'csi\u009b31m.txt',
  '\u202Egnp.exe',
  'setup.exe',
  'setup.EXE',
  'setup.exe.',
  'setup.exe ',
  'page.html',
  'page.Html..',
  'disk.iso',
  'x.msi',
  '<img src=x onerror=alert(1)>.txt',
  'CON',
  'nul.txt',
  '.',
  '..',
  ' ',
  'a'.repeat(256),
  'é'.repeat(128),
  '€'.repeat(85),
];
const nameArb = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }),
        fc.constantFrom('.txt', '.pdf', '.JPG', '.tar.gz', ''),
      )
      .map(([a, b]) => a + b),
  },
  { weight: 4, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 90 }) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NAMES) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 80, maxLength: 300 }) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(
        fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }),
        fc.constantFrom(
          '.exe',
          '.EXE',
          '.exe.',
          '.exe ',
          '.html',
          '.htm. .',
          '.iso',
          '.udf',
          '.txt',
          '.pdf',
          '',
        ),
      )
      .map(([a, b]) => a + b),
  },
);
const sizeArb = fc.oneof(
  { weight: 6, arbitrary: fc.nat({ max: 10_000_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(-1, 0.5, 5e9, 5e9 + 1, 2 ** 53, 2 ** 53 + 2, 1e308) },
  { weight: 1, arbitrary: anything },
);
const optional = <T>(a: fc.Arbitrary<T>, valid: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 3, arbitrary: valid }, { weight: 1, arbitrary: a as fc.Arbitrary<unknown> });
/** Folder segments: mostly plain, sometimes hostile. */
const segmentArb = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }) },
  { weight: 1, arbitrary: fc.constantFrom('..', '.', '', 'C:', ' ', 'a\\b', 'nel\u0085', '\u202E') },
);
/** A file as a sender declares it: a name, a size, maybe the folder path it was dropped in. */
const validFile = fc
  .record(
    {
      name: nameArb,
      size: fc.oneof(
        { weight: 9, arbitrary: fc.nat({ max: 10_000_000 }) },
        { weight: 1, arbitrary: fc.constantFrom(0, 5e9, 5e9 + 1) },
      ),
      folder: fc.option(fc.array(segmentArb, { minLength: 1, maxLength: 4 }), { freq: 3 }),
    },
    { requiredKeys: ['name', 'size'] },
  )
  .map(({ folder, ...f }) => (folder ? { ...f, relativePath: [...folder, f.name].join('/') } : f));
/** Free text a sender types: mostly ordinary, sometimes anything (NUL, lone surrogates, RTL override …). */
const freeText = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }) },
  { weight: 1, arbitrary: text },
);

// ---------- send by e-mail (S1) ----------

/** The fixtures' addresses: the only ones the fuzz server may ever write to, with the fuzzed transfers' senders. */
const FIXTURE_SENDER = 'fixture-sender@example.com';
const PENDING_SENDER = 'pending-sender@example.com';
const LINK_SENDER = 'link-sender@example.com';
const FIXTURE_RECIPIENTS = ['fixture-bob@example.com', 'fixture-carol@example.com'];
const PENDING_RECIPIENT = 'pending-recipient@example.com';

/** Tokens Ferry issued to the fixtures (set in beforeAll; the arbitraries read them as they generate). */
const issued = {
  /** senderVerificationToken proving FIXTURE_SENDER. */
  senderToken: '',
  /** A download link's token: signed by the same key, for something else. */
  blobToken: '',
  /** From the unsubscribe link of a real download confirmation mail. */
  unsubscribeToken: '',
};
const later = (get: () => string) => fc.constant(null).map(get);
/** A signed token with its payload changed and its signature kept (what a client can try without the key). */
const retargeted = (token: string, change: (payload: Record<string, unknown>) => unknown) => {
  const [body, mac] = token.split('.') as [string, string];
  let payload: Record<string, unknown> = {};
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {}
  return `${Buffer.from(JSON.stringify(change({ ...payload })) ?? 'null').toString('base64url')}.${mac}`;
};
/** Tokens around one Ferry issued: itself, cut, extended, its signature on another payload, others it issued. */
const tokenAround = (get: () => string) =>
  fc.oneof(
    { weight: 3, arbitrary: later(get) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(later(get), fc.nat(), fc.constantFrom('a', '.', '_', '-', '=', '%', ' '))
        .map(([t, i, c]) => {
          const at = i % Math.max(1, t.length);
          return `${t.slice(0, at)}${c}${t.slice(at + 1)}`;
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(later(get), fc.constantFrom('cut', 'end', 'dot', 'mac', 'upper', 'twice'))
        .map(([t, how]) => {
          const [body, mac] = t.split('.') as [string, string];
          return {
            cut: t.slice(0, -1),
            end: `${t}x`,
            dot: `${body}.`,
            mac: `.${mac}`,
            upper: t.toUpperCase(),
            twice: `${t}.${mac}`,
          }[how];
        }),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(later(get), fc.string({ unit: 'grapheme-ascii', maxLength: 8 }), anything)
        .map(([t, key, value]) => retargeted(t, (p) => ({ ...p, [key]: value }))),
    },
    { weight: 1, arbitrary: fc.tuple(later(get), json).map(([t, value]) => retargeted(t, () => value)) },
    // Signed by Ferry, but for something else.
    {
      weight: 1,
      arbitrary: fc
        .constantFrom<keyof typeof issued>('blobToken', 'senderToken', 'unsubscribeToken')
        .map((k) => issued[k]),
    },
    { weight: 2, arbitrary: text },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '.', '..', 'e30.', 'a'.repeat(1000), 'a'.repeat(1001), 'a'.repeat(2001)),
    },
  );

/** Addresses people type: mostly right, some differing only in case or spaces. */
const goodAddress = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(
        fc.stringMatching(/^[a-z0-9]{1,12}$/),
        fc.constantFrom('', '.x', '+tag', '_y', '-z', "'s"),
        fc.stringMatching(/^[a-z0-9]{1,10}$/),
        fc.constantFrom('com', 'org', 'example', 'co.uk', 'museum'),
        fc.constantFrom('lower', 'lower', 'lower', 'upper', 'spaces'),
      )
      .map(([a, b, c, d, how]) => {
        const address = `${a}${b}@${c}.${d}`;
        return how === 'upper' ? address.toUpperCase() : how === 'spaces' ? `  ${address} ` : address;
      }),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      'bob@example.com',
      'Carol.D@Mail.Example.org',
      ' dave@example.net ',
      'e+tag@sub.example.co',
      "o'neil@example.ie",
      'BOB@EXAMPLE.COM',
    ),
  },
  // RFC 5322 allows more than Ferry takes ('!', '#', '{', …): some refused, none may break anything.
  { weight: 1, arbitrary: fc.emailAddress() },
);
/** Addresses that are not one, or are several, or try to add a header. */
const badAddress = fc.constantFrom(
  '',
  ' ',
  'not-an-address',
  'a@',
  '@example.com',
  'a@b',
  'a@@example.com',
  'a b@example.com',
  'a@example.com\r\nBcc: victim@example.com',
  'a@example.com\nBcc: victim@example.com',
  'a@example.com, b@example.com',
  'a@example.com;b@example.com',
  '<a@example.com>',
  'Bob <bob@example.com>',
  'a\u0000@example.com',
  'a@example.com\u0000',
  'δοκιμή@παράδειγμα.δοκιμή',
  'ünïcode@example.com',
  'bob@exam_ple.com',
  '.a@example.com',
  'a..b@example.com',
  '"quoted"@example.com',
  'a@[127.0.0.1]',
  'a@localhost',
  `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(60)}.com`,
  `${'x'.repeat(400)}@example.com`,
);
const addressArb = fc.oneof(
  { weight: 6, arbitrary: goodAddress },
  { weight: 2, arbitrary: badAddress },
  { weight: 1, arbitrary: anything },
);
const recipientsArb = fc.oneof(
  { weight: 6, arbitrary: fc.array(goodAddress, { minLength: 1, maxLength: 10 }) },
  { weight: 2, arbitrary: fc.array(addressArb, { maxLength: 12 }) },
  // The same addresses again, in capitals and with spaces: duplicates, to be dropped.
  {
    weight: 2,
    arbitrary: fc
      .array(goodAddress, { minLength: 1, maxLength: 6 })
      .map((list) => [...list, ...list.map((a) => a.toUpperCase()), ...list.map((a) => ` ${a.trim()}\t`)]),
  },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom(10, 11, 1000, 1001, 5000)
      .map((n) => Array.from({ length: n }, (_, i) => `r${i}@example.com`)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      [],
      ['bob@example.com', 'BOB@EXAMPLE.COM', ' bob@example.com'],
      Array.from({ length: 12 }, () => 'same@example.com'),
      [FIXTURE_SENDER],
    ),
  },
);
const senderEmailArb = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom('alice@example.com', 'b.o-b+tag@mail.example.org') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(FIXTURE_SENDER, 'Fixture-Sender@Example.com', ` ${FIXTURE_SENDER} `),
  },
  { weight: 1, arbitrary: fc.emailAddress() },
  { weight: 1, arbitrary: badAddress },
);

const validCreateFields = fc.record(
  {
    type: fc.oneof(
      { weight: 2, arbitrary: fc.constant('S2') },
      { weight: 3, arbitrary: fc.constant('S1') },
      { weight: 1, arbitrary: fc.constant('S3') },
    ),
    name: freeText,
    message: fc.oneof(freeText, fc.string({ unit: 'binary', maxLength: 500 })),
    password: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { freq: 10, nil: undefined }),
    expiresInDays: fc.integer({ min: 1, max: 7 }),
    maxDownloads: fc.integer({ min: 1, max: 1_000_000 }),
    allowPreview: fc.boolean(),
    senderEmail: senderEmailArb,
    senderName: freeText,
    locale: fc.constantFrom('en', 'fr', 'zh'),
    files: fc.array(validFile, { minLength: 1, maxLength: 4 }),
    recipients: recipientsArb,
    downloadConfirmation: fc.boolean(),
    expiryReminder: fc.boolean(),
    summary: fc.boolean(),
    forceEmailWhenDownloadS2: fc.boolean(),
    senderVerificationToken: tokenAround(() => issued.senderToken),
  },
  { requiredKeys: ['files'] },
);
/** Mostly coherent (S1 with recipients and a sender, no recipients otherwise), sometimes as drawn. */
const validCreate = fc.tuple(validCreateFields, fc.nat(3)).map(([fields, dice]) => {
  if (dice === 0) return fields;
  const body = { ...fields };
  if (body.type === 'S1') {
    body.recipients ??= ['bob@example.com'];
    body.senderEmail ??= FIXTURE_SENDER;
    // A returning sender, proven by the token Ferry gave them: no code (and so no code rate limit).
    if (dice === 1) {
      body.senderEmail = FIXTURE_SENDER;
      body.senderVerificationToken = issued.senderToken;
    }
  } else {
    delete body.recipients;
    if (body.downloadConfirmation || body.summary) body.senderEmail ??= 'alice@example.com';
  }
  return body;
});
/** The valid request with one field replaced by anything at all. */
const mutatedCreate = fc
  .tuple(
    validCreate,
    fc.constantFrom(
      'type',
      'name',
      'message',
      'password',
      'expiresInDays',
      'maxDownloads',
      'allowPreview',
      'senderEmail',
      'senderName',
      'locale',
      'files',
      'recipients',
      'downloadConfirmation',
      'expiryReminder',
      'summary',
      'forceEmailWhenDownloadS2',
      'senderVerificationToken',
      'extra',
      '__proto__',
      'constructor',
    ),
    anything,
  )
  .map(([body, key, value]) => {
    const copy: Record<string, unknown> = { ...body };
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
    return copy;
  });
const fileArb = fc.record(
  { name: fc.oneof(nameArb, anything), size: sizeArb, relativePath: fc.oneof(text, anything) },
  { requiredKeys: [] },
);
const randomCreate = fc.record(
  {
    type: anything,
    name: anything,
    message: anything,
    password: anything,
    expiresInDays: anything,
    maxDownloads: anything,
    files: fc.oneof(fc.array(fileArb, { maxLength: 300 }), anything),
    senderEmail: anything,
    recipients: fc.oneof(fc.array(anything, { maxLength: 20 }), anything),
    downloadConfirmation: anything,
    expiryReminder: anything,
    summary: anything,
    forceEmailWhenDownloadS2: anything,
    senderVerificationToken: anything,
  },
  { requiredKeys: [] },
);
const createBody = fc.oneof(
  { weight: 7, arbitrary: validCreate },
  { weight: 3, arbitrary: mutatedCreate },
  { weight: 1, arbitrary: randomCreate },
);
/** Whole raw request bodies for JSON routes: JSON values, broken JSON, huge and deeply nested documents. */
const rawJsonBody = (structured: fc.Arbitrary<unknown>) =>
  fc.oneof(
    { weight: 24, arbitrary: structured.map((v) => JSON.stringify(v) ?? '') },
    { weight: 2, arbitrary: json.map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 10, max: 50_000 })
        .map(
          (n) =>
            `{"files":${'['.repeat(n)}${']'.repeat(n)},"x":${'{"a":'.repeat(n % 5000)}1${'}'.repeat(n % 5000)}}`,
        ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(1_000, 300_000, 2_000_000, 9_000_000).map((n) =>
        JSON.stringify({
          message: 'm'.repeat(n),
          files: [{ name: `${'n'.repeat(n % 1000)}.txt`, size: 1 }],
        }),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '',
        'null',
        '[]',
        '{',
        '{"files":[{"name":"a","size":1}]',
        '\u0000',
        '{"__proto__":{"x":1}}',
      ),
    },
  );
const contentType = fc.oneof(
  { weight: 10, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-8',
      'application/json; charset=latin1',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/offset+octet-stream',
      'application/xml',
      'foo',
      '',
    ),
  },
);

// ---------- the run ----------

interface Violation {
  endpoint: string;
  problem: string;
  input: string;
}

describe('fuzzing every public endpoint', () => {
  const fleet = new Fleet();
  let db: FreshDatabase;
  let ferry: FerryProcess;
  const fixtures = {
    /** ENABLED, no password, a loose file and one in a folder. */
    open: { transferId: '', fileIds: [] as string[] },
    /** ENABLED, with a password. */
    locked: { transferId: '' },
    /** UPLOADING: its token, file ids and upload ids feed the tus and complete cases. */
    uploading: { transferId: '', uploadToken: '', fileIds: [] as string[], location: '' },
    blobToken: '',
    /** S1, sender proven with the mailed code, uploaded, mailed to FIXTURE_RECIPIENTS; Bob downloaded. */
    s1: { transferId: '', uploadToken: '', userSecret: '' },
    /** S1 whose sender has not given the code: the sender-verification cases' target. */
    pending: { transferId: '', uploadToken: '' },
    /** S2 with the sender's address, downloaders asked for theirs (forceEmailWhenDownloadS2). */
    link: { transferId: '', uploadToken: '' },
  };
  const expectedTransferIds = new Set<string>();
  /** The request and answer of each transfer fuzzing created, for the final checks. */
  const createdBy = new Map<string, { request: Record<string, unknown>; senderVerification: unknown }>();
  const violations: Violation[] = [];
  const totals: Record<string, { cases: number; statuses: Record<string, number> }> = {};

  beforeAll(async () => {
    db = await freshDatabase();
    // No SMTP_URL: mails land in DATA_DIR/outbox. Confirmations at once, for the unsubscribe fixture.
    ferry = await fleet.start({ env: { DATABASE_URL: db.url, DOWNLOAD_CONFIRMATION_DELAY_SECONDS: '0' } });
    const open = await sendTransfer(ferry.url, [
      { name: 'a.txt', data: randomFile(3000) },
      { name: 'b.bin', data: randomFile(70_000), relativePath: 'folder/b.bin' },
    ]);
    fixtures.open = { transferId: open.transferId, fileIds: open.files.map((f) => f.id) };
    const locked = await sendTransfer(ferry.url, [{ name: 'c.txt', data: randomFile(10) }], {
      password: 'secret pw',
    });
    fixtures.locked = { transferId: locked.transferId };
    const uploading = await createTransfer(ferry.url, {
      files: [
        { name: 'u1.bin', size: 1000 },
        { name: 'u2.bin', size: 0 },
      ],
    });
    const started = await new TusTestClient(ferry.url, uploading.uploadToken).create(
      uploading.transferId,
      uploading.files[0]!.id,
      1000,
    );
    fixtures.uploading = {
      transferId: uploading.transferId,
      uploadToken: uploading.uploadToken,
      fileIds: uploading.files.map((f) => f.id),
      location: new URL(started.location!).pathname,
    };
    const link = await api(ferry.url, `/api/transfer/downloads/link?transferId=${open.transferId}`);
    fixtures.blobToken = String(link.body.url).split('/blob/')[1]!;
    issued.blobToken = fixtures.blobToken;

    // S1 the way a sender does it: the code from the mail, the upload, the recipients' mails, a download, and
    // the download confirmation whose unsubscribe link the unsubscribe cases start from.
    const s1Data = randomFile(500);
    const s1 = await createTransfer(ferry.url, {
      type: 'S1',
      name: 'fixture S1',
      senderEmail: FIXTURE_SENDER,
      senderName: 'Fixture Sender',
      locale: 'en',
      recipients: FIXTURE_RECIPIENTS,
      files: [{ name: 's1.txt', size: s1Data.length }],
    });
    expect(s1.senderVerification).toBe('pending');
    const codeMail = await waitForOutbox(
      ferry.dataDir,
      (m) => m.to.includes(FIXTURE_SENDER) && /^\d{6} /.test(m.subject),
    );
    await new TusTestClient(ferry.url, s1.uploadToken).upload(s1.transferId, s1.files[0]!.id, s1Data);
    const completed = await api(ferry.url, `/api/transfer/transfers/${s1.transferId}/complete`, {
      method: 'POST',
      headers: { 'x-upload-token': s1.uploadToken },
      json: { files: [] },
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    const verified = await api(ferry.url, `/api/transfer/transfers/${s1.transferId}/sender-verification`, {
      method: 'POST',
      headers: { 'x-upload-token': s1.uploadToken },
      json: { code: codeMail.subject.slice(0, 6) },
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    issued.senderToken = verified.body.senderVerificationToken;
    const bobMail = await waitForOutbox(ferry.dataDir, (m) => m.to.includes(FIXTURE_RECIPIENTS[0]!));
    const userSecret = /[?&]userSecret=([A-Za-z0-9_-]+)/.exec(bobMail.text)?.[1] ?? '';
    const bobLink = await api(
      ferry.url,
      `/api/transfer/downloads/link?transferId=${s1.transferId}&userSecret=${userSecret}&browserCode=fixture`,
    );
    expect(bobLink.status, JSON.stringify(bobLink.body)).toBe(200);
    const confirmation = await waitForOutbox(
      ferry.dataDir,
      (m) => m.to.includes(FIXTURE_SENDER) && m.unsubscribeUrl !== null,
    );
    issued.unsubscribeToken = new URL(confirmation.unsubscribeUrl!).searchParams.get('token') ?? '';
    fixtures.s1 = { transferId: s1.transferId, uploadToken: s1.uploadToken, userSecret };

    const pending = await createTransfer(ferry.url, {
      type: 'S1',
      senderEmail: PENDING_SENDER,
      recipients: [PENDING_RECIPIENT],
      files: [{ name: 'p.txt', size: 10 }],
    });
    expect(pending.senderVerification).toBe('pending');
    fixtures.pending = { transferId: pending.transferId, uploadToken: pending.uploadToken };
    const linkTransfer = await sendTransfer(ferry.url, [{ name: 'l.txt', data: randomFile(10) }], {
      senderEmail: LINK_SENDER,
      forceEmailWhenDownloadS2: true,
    });
    expect(linkTransfer.senderVerification).toBe('not_needed');
    fixtures.link = { transferId: linkTransfer.transferId, uploadToken: linkTransfer.uploadToken };

    for (const id of [
      open.transferId,
      locked.transferId,
      uploading.transferId,
      s1.transferId,
      pending.transferId,
      linkTransfer.transferId,
    ])
      expectedTransferIds.add(id);
    console.log(`fuzz seed ${SEED} (FUZZ_SEED=${SEED} replays it)`);
  });
  afterAll(async () => {
    const summary = Object.entries(totals).map(
      ([e, t]) => `${e}: ${t.cases} cases ${JSON.stringify(t.statuses)}`,
    );
    console.log(`fuzz totals:\n  ${summary.join('\n  ')}`);
    await fleet.stopAll();
    await db?.drop();
  });

  /** Judges one answer; `jsonRoute` routes must answer every 4xx with the §8 body. */
  function judge(
    endpoint: string,
    input: unknown,
    res: RawResponse & { logFrom?: number; bodyLength?: number },
    method: string,
    jsonRoute: boolean,
  ) {
    totals[endpoint] ??= { cases: 0, statuses: {} };
    const t = totals[endpoint];
    t.cases++;
    t.statuses[res.status] = (t.statuses[res.status] ?? 0) + 1;
    const record = (problem: string) =>
      violations.push({ endpoint, problem, input: JSON.stringify(input)?.slice(0, 400) ?? String(input) });
    // A body over Fastify's 8 MiB limit is refused while it is still being sent: the client may see the socket
    // close (EPIPE/ECONNRESET) instead of the 413 — HTTP/1.1 behaviour, not a server failure.
    if (res.status === 599 && (res.bodyLength ?? 0) > 8 * 1024 * 1024) return;
    if (res.status >= 500) {
      const logged = ferry.output
        .slice(res.logFrom ?? 0)
        .split('\n')
        .filter((l) => /"level":(50|60)/.test(l))
        .at(-1);
      let cause = '';
      try {
        const entry = JSON.parse(logged ?? '{}') as { err?: { message?: string; code?: string } };
        cause = `${entry.err?.code ?? ''} ${entry.err?.message ?? ''}`.trim().slice(0, 160);
      } catch {}
      record(`${res.status} (${cause || res.text.slice(0, 120)})`);
      return;
    }
    if (method === 'HEAD' || res.status < 400) return;
    // A Range outside the body: 416 with Content-Range and, as usual for it, no body.
    if (res.status === 416 && res.text === '' && res.headers.get('content-range')) return;
    if (jsonRoute) {
      const shape = errorShapeProblem(res.json, res.status);
      // Grouped by the framework's own error code when it answered itself (FST_ERR_…), else by the body.
      const code = (res.json as { code?: unknown } | undefined)?.code;
      if (shape)
        record(
          `${res.status} body not §8: ${shape}: ${typeof code === 'string' ? code : res.text.slice(0, 160)}`,
        );
      else if (!res.headers.get('content-type')?.startsWith('application/json'))
        record(`${res.status} §8 body served as ${res.headers.get('content-type')}`);
    } else if (res.json !== undefined) {
      // tus routes: tus's own protocol errors are plain text; a JSON body must be Ferry's §8 one.
      const shape = errorShapeProblem(res.json, res.status);
      const code = (res.json as { code?: unknown } | undefined)?.code;
      if (shape)
        record(`${res.status} JSON body not §8: ${shape}${typeof code === 'string' ? `: ${code}` : ''}`);
    }
  }

  /** Fails the test with every distinct violation (grouped), a few inputs each. */
  function expectNoViolations(endpoint: string) {
    const mine = violations.filter((v) => v.endpoint === endpoint);
    const groups = new Map<string, Violation[]>();
    for (const v of mine) groups.set(v.problem, [...(groups.get(v.problem) ?? []), v]);
    const report = [...groups].map(
      ([problem, list]) =>
        `${list.length}× ${problem}\n      e.g. ${list
          .slice(0, 2)
          .map((v) => v.input)
          .join('\n      e.g. ')}`,
    );
    expect(report, `${endpoint} (seed ${SEED})`).toEqual([]);
  }

  /**
   * A 429 must say when to come back: Retry-After in seconds; for sender-verification the contract
   * (/work/briefs/contract.md) also promises it in the body, as details.retryAfterSeconds.
   */
  function rateLimitProblem(res: RawResponse, { inBody = false } = {}): string | null {
    if (res.status !== 429) return null;
    const header = res.headers.get('retry-after');
    const details = (res.json as { details?: { retryAfterSeconds?: unknown } } | undefined)?.details;
    if (!header || !/^[1-9]\d*$/.test(header)) return `429 without a Retry-After in seconds (${header})`;
    if (inBody && typeof details?.retryAfterSeconds !== 'number')
      return '429 without details.retryAfterSeconds';
    return null;
  }

  /** Why a success body is not the contract's (packages/core zod schema), or null. */
  function contractProblem(
    schema: {
      safeParse(value: unknown): {
        success: boolean;
        error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
      };
    },
    res: RawResponse,
  ): string | null {
    const parsed = schema.safeParse(res.json);
    if (parsed.success) return null;
    const issue = parsed.error?.issues[0];
    return `${res.status} body not per the contract: ${issue?.path.map(String).join('.')} ${issue?.message}`;
  }

  /**
   * One call; a transport failure becomes status 599. A keep-alive socket the server has just closed (after a
   * refused, unread body) can fail the next request on it: a transport failure is retried once, on a new socket.
   * Notes where the server log stood, to find the errors this request logged.
   */
  const send = async (
    path: string,
    init: { method: string; headers?: Record<string, string>; body?: string | Buffer },
  ) => {
    const logFrom = ferry.output.length;
    const bodyLength = init.body === undefined ? 0 : Buffer.byteLength(init.body);
    const once = () =>
      raw(ferry.url, path, init).catch(
        (error: unknown): RawResponse => ({
          status: 599,
          headers: new Headers(),
          text: `transport error: ${String((error as { cause?: unknown }).cause ?? error)}`,
          json: undefined,
        }),
      );
    let res = await once();
    if (res.status === 599 && bodyLength <= 8 * 1024 * 1024) res = await once();
    // The server's log arrives through a pipe, a little after the answer.
    for (let i = 0; i < 20 && res.status >= 500 && !/"level":(50|60)/.test(ferry.output.slice(logFrom)); i++)
      await new Promise((r) => setTimeout(r, 25));
    return { ...res, logFrom, bodyLength };
  };

  /** Checks a creation's answer beyond the judge and remembers what a 201 created; true for a 201. */
  function recordCreation(endpoint: string, body: string, res: RawResponse, reasons: Record<string, number>) {
    const limited = rateLimitProblem(res);
    if (limited) violations.push({ endpoint, problem: limited, input: body.slice(0, 300) });
    if (process.env.FUZZ_DEBUG && res.status === 400) {
      const j = res.json as { codes?: string[]; details?: { issues?: Array<{ path?: string }> } };
      const k = `${j?.codes?.[0]} ${j?.details?.issues?.[0]?.path ?? ''}`;
      reasons[k] = (reasons[k] ?? 0) + 1;
    }
    if (res.status !== 201) return false;
    const id = (res.json as { transferId?: unknown })?.transferId;
    if (typeof id !== 'string' || !/^[A-Za-z0-9]{16}$/.test(id)) {
      violations.push({ endpoint, problem: '201 without a transfer id', input: body.slice(0, 300) });
      return true;
    }
    expectedTransferIds.add(id);
    let request: Record<string, unknown> = {};
    try {
      request = JSON.parse(body) as Record<string, unknown>;
    } catch {}
    createdBy.set(id, {
      request,
      senderVerification: (res.json as { senderVerification?: unknown }).senderVerification,
    });
    return true;
  }

  it('POST /api/transfer/transfers', async () => {
    let created = 0;
    const reasons: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(rawJsonBody(createBody), contentType, async (body, type) => {
        const res = await send('/api/transfer/transfers', {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        });
        judge('create', { body: body.slice(0, 300), type }, res, 'POST', true);
        if (recordCreation('create', body, res, reasons)) created++;
      }),
      {
        seed: SEED,
        numRuns: runs(1000),
        examples: [
          ...HOSTILE_NAMES.map((name): [string, string] => [
            JSON.stringify({ files: [{ name, size: 1 }] }),
            'application/json',
          ]),
          // NUL in the free-text fields that are stored as they come.
          ...['name', 'message', 'senderName', 'locale'].map((field): [string, string] => [
            JSON.stringify({ [field]: 'a\u0000b', files: [{ name: 'a.txt', size: 1 }] }),
            'application/json',
          ]),
          // S1 at the edges: a header smuggled in an address, one recipient too many, a NUL, no sender, S2 with
          // recipients, one address in many spellings, a proof for another address.
          ...[
            { recipients: ['a@example.com\r\nBcc: victim@example.com'] },
            { recipients: Array.from({ length: 11 }, (_, i) => `r${i}@example.com`) },
            { recipients: ['a\u0000@example.com'] },
            { recipients: ['bob@example.com'], senderEmail: undefined },
            { type: 'S2', recipients: ['bob@example.com'] },
            { recipients: ['bob@example.com', 'BOB@example.com', ' bob@example.com ', 'Bob@Example.Com'] },
            {
              senderEmail: 'mallory@example.com',
              recipients: ['bob@example.com'],
              senderVerificationToken: issued.senderToken,
            },
          ].map((fields): [string, string] => [
            JSON.stringify({
              type: 'S1',
              senderEmail: FIXTURE_SENDER,
              files: [{ name: 'a.txt', size: 1 }],
              ...fields,
            }),
            'application/json',
          ]),
        ],
      },
    );
    console.log(`create: ${created} transfers created`);
    if (process.env.FUZZ_DEBUG) console.log(reasons);
    expectNoViolations('create');
  });

  it('POST /api/transfer/transfers, send by e-mail (S1): recipients, sender, switches, proofs', async () => {
    // Everything else ordinary, so that the S1 fields decide; mostly a returning sender with their proof (else
    // each creation costs a code, and the codes per client and hour run out after 30).
    const s1Body = fc
      .tuple(
        fc.record(
          {
            type: fc.constant('S1'),
            name: freeText,
            senderEmail: senderEmailArb,
            senderName: freeText,
            recipients: recipientsArb,
            downloadConfirmation: fc.boolean(),
            expiryReminder: fc.boolean(),
            summary: fc.boolean(),
            forceEmailWhenDownloadS2: fc.boolean(),
            senderVerificationToken: tokenAround(() => issued.senderToken),
            files: fc.constant([{ name: 'report.pdf', size: 1000 }]),
          },
          { requiredKeys: ['type', 'files', 'recipients'] },
        ),
        fc.nat(2),
      )
      .map(([body, dice]) =>
        dice === 0
          ? body
          : {
              ...body,
              senderEmail: dice === 1 ? FIXTURE_SENDER : ' Fixture-Sender@EXAMPLE.com ',
              senderVerificationToken: issued.senderToken,
            },
      );
    let created = 0;
    const reasons: Record<string, number> = {};
    await fc.assert(
      fc.asyncProperty(s1Body, async (fields) => {
        const body = JSON.stringify(fields);
        const res = await send('/api/transfer/transfers', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body,
        });
        judge('create S1', { body: body.slice(0, 300) }, res, 'POST', true);
        if (recordCreation('create S1', body, res, reasons)) created++;
      }),
      { seed: SEED, numRuns: runs(500) },
    );
    console.log(`create S1: ${created} transfers created`);
    if (process.env.FUZZ_DEBUG) console.log(reasons);
    expectNoViolations('create S1');
  });

  const queryArb = () => {
    const ids = fc.oneof(
      fc.constant(fixtures.open.transferId),
      fc.constant(fixtures.locked.transferId),
      fc.constant(fixtures.uploading.transferId),
      // S1 with download confirmations on (userSecret, browserCode), S2 asking downloaders for their address.
      fc.constant(fixtures.s1.transferId),
      fc.constant(fixtures.link.transferId),
      fc.stringMatching(/^[A-Za-z0-9]{16}$/),
      text,
    );
    const key = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.constantFrom(
          'transferId',
          'password',
          'userSecret',
          'fileId',
          'preview',
          'downloaderEmail',
          'browserCode',
          'orderId',
          'admin-dashboard',
        ),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom('__proto__', 'constructor', 'transferId[]', 'transferId[a]', ''),
      },
      { weight: 1, arbitrary: text },
    );
    const value = fc.oneof(
      { weight: 3, arbitrary: ids },
      { weight: 3, arbitrary: text },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'true',
          'false',
          '1',
          '',
          ...fixtures.open.fileIds,
          'secret pw',
          fixtures.s1.userSecret,
          `${fixtures.s1.userSecret}x`,
        ),
      },
      { weight: 1, arbitrary: fc.emailAddress() },
    );
    const pair = fc
      .tuple(key, value, fc.boolean())
      .map(([k, v, rawValue]) =>
        rawValue ? `${enc(k)}=${wellFormed(v.replace(/[#&\s]/g, ''))}` : `${enc(k)}=${enc(v)}`,
      );
    return fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(ids, fc.array(pair, { maxLength: 6 }))
          .map(([id, rest]) => [`transferId=${enc(id)}`, ...rest].join('&')),
      },
      { weight: 2, arbitrary: fc.array(pair, { maxLength: 8 }).map((p) => p.join('&')) },
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: 'binary', maxLength: 300 })
          .map((s) => wellFormed(s.replace(/[#\s]/g, ''))),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '%',
          '%zz',
          '%C3',
          '%ED%A0%80',
          'a=%00',
          '=&=&',
          '&&&',
          `transferId=${'a'.repeat(20_000)}`,
        ),
      },
    );
  };

  for (const route of ['info', 'link'] as const) {
    it(`GET /api/transfer/downloads/${route}`, async () => {
      await fc.assert(
        fc.asyncProperty(queryArb(), async (query) => {
          const res = await send(`/api/transfer/downloads/${route}?${query}`, { method: 'GET' });
          judge(route, query, res, 'GET', true);
        }),
        {
          seed: SEED,
          numRuns: runs(600),
          examples: ['browserCode=a%00b', 'orderId=%00', 'userSecret=%00', 'password=%00'].map(
            (q): [string] => [`transferId=${fixtures.open.transferId}&${q}`],
          ),
        },
      );
      expectNoViolations(route);
    });
  }

  it('POST /api/transfer/downloads/check-password', async () => {
    const id = fc.oneof(
      fc.constant(fixtures.locked.transferId),
      fc.constant(fixtures.open.transferId),
      fc.stringMatching(/^[A-Za-z0-9]{16}$/),
      anything,
    );
    const body = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          { transferId: id, password: optional(anything, fc.string({ maxLength: 300 })) },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: anything },
    );
    await fc.assert(
      fc.asyncProperty(rawJsonBody(body), contentType, async (b, type) => {
        const res = await send('/api/transfer/downloads/check-password', {
          method: 'POST',
          headers: { 'content-type': type },
          body: b,
        });
        judge('check-password', { body: b.slice(0, 300), type }, res, 'POST', true);
      }),
      { seed: SEED, numRuns: runs(400) },
    );
    expectNoViolations('check-password');
  });

  const idArb = () =>
    fc.oneof(
      { weight: 2, arbitrary: fc.constant(fixtures.uploading.transferId) },
      { weight: 1, arbitrary: fc.constant(fixtures.open.transferId) },
      { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9]{16}$/) },
      { weight: 2, arbitrary: text.map(enc) },
      { weight: 1, arbitrary: fc.constantFrom('%zz', '%E0%A4%A', '..%2f..%2f', '%00', 'a'.repeat(3000), '') },
    );
  const tokenArb = () =>
    fc.option(
      fc.oneof(
        { weight: 2, arbitrary: fc.constant(fixtures.uploading.uploadToken) },
        { weight: 1, arbitrary: fc.constant(`${fixtures.uploading.uploadToken}x`) },
        { weight: 2, arbitrary: headerValue },
      ),
    );

  it('POST /api/transfer/transfers/{id}/complete', async () => {
    const files = fc.oneof(
      fc.array(
        fc.record(
          {
            id: fc.oneof(fc.constantFrom(...fixtures.uploading.fileIds), text),
            sha256: fc.oneof(fc.stringMatching(/^[0-9a-f]{64}$/), anything),
          },
          { requiredKeys: [] },
        ),
        { maxLength: 4 },
      ),
      anything,
    );
    const body = fc.oneof(
      { weight: 3, arbitrary: fc.record({ files }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: anything },
    );
    await fc.assert(
      fc.asyncProperty(idArb(), tokenArb(), rawJsonBody(body), contentType, async (id, token, b, type) => {
        const headers: Record<string, string> = { 'content-type': type };
        if (token !== null) headers['x-upload-token'] = token;
        const res = await send(`/api/transfer/transfers/${id}/complete`, {
          method: 'POST',
          headers,
          body: b,
        });
        judge('complete', { id, token, body: b.slice(0, 200), type }, res, 'POST', true);
      }),
      { seed: SEED, numRuns: runs(500) },
    );
    expectNoViolations('complete');
  });

  it('GET /api/transfer/transfers/{id}/upload-state', async () => {
    await fc.assert(
      fc.asyncProperty(
        idArb(),
        tokenArb(),
        fc.dictionary(fc.constantFrom('accept', 'x-request-id', 'if-none-match', 'range'), headerValue),
        async (id, token, extra) => {
          const headers: Record<string, string> = { ...extra };
          if (token !== null) headers['x-upload-token'] = token;
          const res = await send(`/api/transfer/transfers/${id}/upload-state`, { method: 'GET', headers });
          judge('upload-state', { id, token, extra }, res, 'GET', true);
        },
      ),
      { seed: SEED, numRuns: runs(400) },
    );
    expectNoViolations('upload-state');
  });

  it('tus POST/HEAD/PATCH/DELETE /api/transfer/uploads[/id]', async () => {
    const u = fixtures.uploading;
    const metadata = fc.oneof(
      {
        weight: 3,
        arbitrary: fc
          .record(
            {
              transferId: fc.oneof(fc.constant(u.transferId), text),
              fileId: fc.oneof(fc.constantFrom(...u.fileIds), text),
              filename: text,
              filetype: fc.oneof(fc.constantFrom('text/html', 'image/svg+xml', 'application/pdf'), text),
            },
            { requiredKeys: [] },
          )
          .map((m) =>
            Object.entries(m)
              .map(([k, v]) => `${k} ${b64(wellFormed(v))}`)
              .join(','),
          ),
      },
      { weight: 1, arbitrary: headerValue },
      {
        weight: 1,
        arbitrary: fc.constantFrom('transferId', 'transferId !!!,fileId ===', ',', ' ', 'a b c, d e'),
      },
    );
    const tusHeaders = fc.record(
      {
        'Tus-Resumable': fc.oneof(
          { weight: 4, arbitrary: fc.constant('1.0.0') },
          { weight: 1, arbitrary: headerValue },
        ),
        'X-Upload-Token': fc.oneof(
          { weight: 3, arbitrary: fc.constant(u.uploadToken) },
          { weight: 1, arbitrary: headerValue },
        ),
        'Upload-Length': fc.oneof(
          fc.constantFrom('1000', '0', '999', '1001', '-1', '1e3', ' 1000', '00001000'),
          headerValue,
        ),
        'Upload-Offset': fc.oneof(
          fc.constantFrom('0', '1', '1000', '-1', '99999999999999999999'),
          headerValue,
        ),
        'Upload-Metadata': metadata,
        'Upload-Defer-Length': fc.oneof(fc.constant('1'), headerValue),
        'Upload-Concat': fc.oneof(fc.constantFrom('partial', 'final;/a /b'), headerValue),
        'Upload-Checksum': headerValue,
        'Content-Type': fc.oneof(fc.constant('application/offset+octet-stream'), headerValue),
        'X-HTTP-Method-Override': fc.constantFrom('GET', 'PATCH', 'DELETE', 'HEAD'),
        Origin: fc.constantFrom('https://evil.example', 'null'),
        Forwarded: headerValue,
        'X-Forwarded-Host': headerValue,
      },
      { requiredKeys: [] },
    );
    const path = fc.oneof(
      { weight: 2, arbitrary: fc.constant(u.location) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(...u.fileIds).map((f) => `/api/transfer/uploads/${u.transferId}-${f}`),
      },
      {
        weight: 1,
        arbitrary: fc
          .stringMatching(/^[A-Za-z0-9]{6}$/)
          .map((f) => `/api/transfer/uploads/${u.transferId}-${f}`),
      },
      { weight: 1, arbitrary: text.map((t) => `/api/transfer/uploads/${enc(t)}`) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '/api/transfer/uploads',
          '/api/transfer/uploads/',
          '/api/transfer/uploads/%zz',
          '/api/transfer/uploads/..%2f..%2fpasswd',
          '/api/transfer/uploads/a/b',
        ),
      },
    );
    const method = fc.constantFrom('POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS');
    const body = fc.option(fc.uint8Array({ maxLength: 3000 }).map((a) => Buffer.from(a)));
    await fc.assert(
      fc.asyncProperty(method, path, tusHeaders, body, async (m, p, headers, b) => {
        const res = await send(p, {
          method: m,
          headers,
          body: m === 'HEAD' || m === 'OPTIONS' || m === 'DELETE' ? undefined : (b ?? undefined),
        });
        judge(`tus ${m}`, { m, p, headers, bodyLength: b?.length }, res, m, false);
        // Nothing Ferry stores may ever be served back by tus: uploads are read only through the download routes.
        if (res.status === 200 && m !== 'HEAD' && m !== 'OPTIONS' && res.text.length > 0)
          violations.push({
            endpoint: `tus ${m}`,
            problem: `200 with a body (${res.headers.get('content-type')})`,
            input: JSON.stringify({ m, p, headers }),
          });
      }),
      { seed: SEED, numRuns: runs(1500) },
    );
    for (const m of ['POST', 'HEAD', 'PATCH', 'DELETE', 'OPTIONS']) expectNoViolations(`tus ${m}`);
  });

  it('GET /api/transfer/downloads/blob/{token}', async () => {
    const good = fixtures.blobToken;
    const [payload, mac] = good.split('.') as [string, string];
    const forged = (o: unknown) => `${Buffer.from(JSON.stringify(o) ?? 'null').toString('base64url')}.${mac}`;
    const token = fc.oneof(
      { weight: 2, arbitrary: text.map(enc) },
      {
        weight: 2,
        arbitrary: fc
          .tuple(fc.base64String(), fc.base64String())
          .map(([a, b]) => `${a}.${b}`.replace(/[+/=]/g, '_')),
      },
      { weight: 2, arbitrary: json.map(forged) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          `${payload}.`,
          `.${mac}`,
          `${good}.x`,
          `${payload}.${mac.slice(1)}`,
          good.slice(0, -1),
          '.',
          '..',
          'a'.repeat(2001),
          '%zz',
          '%2e%2e',
        ),
      },
      { weight: 2, arbitrary: fc.constant(good) },
    );
    const range = fc.option(
      fc.oneof(
        fc.constantFrom(
          'bytes=0-0',
          'bytes=-1',
          'bytes=0-',
          'bytes=999999999-',
          'bytes=-0',
          'bytes=5-1',
          'bytes=0-1,3-4',
          'bytes=',
          'bytes=-',
          'items=0-1',
          'bytes=00000000000000000001-2',
          'bytes=9007199254740993-',
        ),
        fc
          .tuple(fc.integer({ min: -5, max: 100_000 }), fc.integer({ min: -5, max: 100_000 }))
          .map(([a, b]) => `bytes=${a}-${b}`),
        headerValue,
      ),
    );
    await fc.assert(
      fc.asyncProperty(token, range, fc.option(headerValue), async (t, r, ifRange) => {
        const headers: Record<string, string> = {};
        if (r !== null) headers.range = r;
        if (ifRange !== null) headers['if-range'] = ifRange;
        const res = await send(`/api/transfer/downloads/blob/${t}`, { method: 'GET', headers });
        judge('blob', { t: t.slice(0, 200), r, ifRange }, res, 'GET', true);
        if (res.status === 200 || res.status === 206) {
          const type = res.headers.get('content-type');
          if (type !== 'application/zip' && type !== 'application/octet-stream')
            violations.push({ endpoint: 'blob', problem: `served as ${type}`, input: t });
          if (!res.headers.get('content-disposition')?.startsWith('attachment;'))
            violations.push({ endpoint: 'blob', problem: 'not an attachment', input: t });
        }
      }),
      { seed: SEED, numRuns: runs(600) },
    );
    expectNoViolations('blob');
  });

  // ---------- send by e-mail (S1) ----------

  /** The upload token that rightly goes with a fixture's id; null for any other id. */
  const rightToken = (id: string) =>
    [fixtures.uploading, fixtures.s1, fixtures.pending, fixtures.link].find((f) => f.transferId === id)
      ?.uploadToken ?? null;
  /** A transfer and an upload token: mostly a fixture's own pair, else any id with any token. */
  const targetArb = () =>
    fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .constantFrom(fixtures.pending, fixtures.s1, fixtures.link, fixtures.uploading)
          .map((f) => ({ id: f.transferId, token: f.uploadToken as string | null })),
      },
      { weight: 3, arbitrary: fc.tuple(idArb(), tokenArb()).map(([id, token]) => ({ id, token })) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(
            fc.constantFrom(fixtures.pending.transferId, fixtures.s1.transferId),
            fc.constantFrom(
              fixtures.uploading.uploadToken,
              fixtures.link.uploadToken,
              `${fixtures.pending.uploadToken}x`,
              fixtures.pending.uploadToken.toUpperCase(),
              ` ${fixtures.pending.uploadToken}`,
            ),
          )
          .map(([id, token]) => ({ id, token: token as string | null })),
      },
    );
  /** A success for another transfer's token, or none, would let anyone act on a transfer. */
  function authorized(endpoint: string, id: string, token: string | null, res: RawResponse) {
    // Spaces and tabs around a header value are not part of it (RFC 9110 §5.5).
    if (res.status < 300 && (token === null || rightToken(id) !== token.replace(/^[ \t]+|[ \t]+$/g, '')))
      violations.push({
        endpoint,
        problem: `${res.status} without the transfer's upload token`,
        input: JSON.stringify({ id, token }),
      });
  }

  it('POST /api/transfer/transfers/{id}/sender-verification', async () => {
    const code = fc.oneof(
      { weight: 4, arbitrary: fc.stringMatching(/^\d{6}$/) },
      {
        weight: 2,
        arbitrary: fc.constantFrom(
          ' 123456 ',
          '123456\n',
          '\t000000',
          '12345',
          '1234567',
          '١٢٣٤٥٦',
          '１２３４５６',
          '12 34 56',
          '12345a',
          '-12345',
          '1e+05',
          '',
          '\u0000123456',
          '123456\u0000',
        ),
      },
      { weight: 1, arbitrary: fc.integer({ min: -1, max: 1_000_000 }) },
      { weight: 2, arbitrary: anything },
    );
    const body = fc.oneof(
      { weight: 4, arbitrary: fc.record({ code, extra: anything }, { requiredKeys: [] }) },
      { weight: 1, arbitrary: anything },
    );
    await fc.assert(
      fc.asyncProperty(targetArb(), rawJsonBody(body), contentType, async ({ id, token }, b, type) => {
        const headers: Record<string, string> = { 'content-type': type };
        if (token !== null) headers['x-upload-token'] = token;
        const res = await send(`/api/transfer/transfers/${id}/sender-verification`, {
          method: 'POST',
          headers,
          body: b,
        });
        const input = { id, token, body: b.slice(0, 200), type };
        judge('sender-verification', input, res, 'POST', true);
        authorized('sender-verification', id, token, res);
        const problem =
          rateLimitProblem(res, { inBody: true }) ??
          (res.status === 200 ? contractProblem(SenderVerificationResponse, res) : null);
        if (problem)
          violations.push({ endpoint: 'sender-verification', problem, input: JSON.stringify(input) });
      }),
      { seed: SEED, numRuns: runs(500) },
    );
    expectNoViolations('sender-verification');
  });

  it('POST /api/transfer/transfers/{id}/sender-verification/resend', async () => {
    const body = fc.option(fc.tuple(rawJsonBody(anything), contentType), { freq: 2 });
    await fc.assert(
      fc.asyncProperty(targetArb(), body, async ({ id, token }, b) => {
        const headers: Record<string, string> = {};
        if (token !== null) headers['x-upload-token'] = token;
        if (b) headers['content-type'] = b[1];
        const res = await send(`/api/transfer/transfers/${id}/sender-verification/resend`, {
          method: 'POST',
          headers,
          body: b?.[0],
        });
        const input = { id, token, body: b?.[0].slice(0, 200), type: b?.[1] };
        judge('resend', input, res, 'POST', true);
        authorized('resend', id, token, res);
        const problem =
          rateLimitProblem(res) ??
          (res.status === 202 ? contractProblem(SenderVerificationResendResponse, res) : null);
        if (problem) violations.push({ endpoint: 'resend', problem, input: JSON.stringify(input) });
      }),
      { seed: SEED, numRuns: runs(300) },
    );
    expectNoViolations('resend');
  });

  it('PATCH /api/transfer/transfers/{id}/notifications', async () => {
    const flag = fc.oneof(
      { weight: 4, arbitrary: fc.boolean() },
      { weight: 1, arbitrary: fc.constantFrom('true', 'false', 0, 1, null) },
      { weight: 1, arbitrary: anything },
    );
    const body = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record(
          {
            downloadConfirmation: flag,
            expiryReminder: flag,
            forceEmailWhenDownloadS2: flag,
            summary: flag,
            recipients: fc.array(addressArb, { maxLength: 3 }),
            senderEmail: addressArb,
            extra: anything,
          },
          { requiredKeys: [] },
        ),
      },
      { weight: 1, arbitrary: anything },
    );
    const method = fc.oneof(
      { weight: 9, arbitrary: fc.constant('PATCH') },
      { weight: 1, arbitrary: fc.constantFrom('PUT', 'POST', 'GET', 'DELETE') },
    );
    await fc.assert(
      fc.asyncProperty(
        targetArb(),
        rawJsonBody(body),
        contentType,
        method,
        async ({ id, token }, b, type, m) => {
          const headers: Record<string, string> = { 'content-type': type };
          if (token !== null) headers['x-upload-token'] = token;
          const res = await send(`/api/transfer/transfers/${id}/notifications`, {
            method: m,
            headers,
            body: m === 'GET' ? undefined : b,
          });
          const input = { m, id, token, body: b.slice(0, 200), type };
          judge('notifications', input, res, m, true);
          authorized('notifications', id, token, res);
          const problem =
            rateLimitProblem(res) ??
            (res.status === 200 && m === 'PATCH' ? contractProblem(TransferSummary, res) : null);
          if (problem) violations.push({ endpoint: 'notifications', problem, input: JSON.stringify(input) });
        },
      ),
      { seed: SEED, numRuns: runs(500) },
    );
    expectNoViolations('notifications');
  });

  it('POST /api/transfer/notifications/unsubscribe?token=…', async () => {
    const token = tokenAround(() => issued.unsubscribeToken);
    const query = fc.oneof(
      {
        weight: 6,
        arbitrary: fc
          .tuple(token, fc.boolean())
          .map(([t, rawValue]) => `token=${rawValue ? wellFormed(t.replace(/[#&\s]/g, '')) : enc(t)}`),
      },
      { weight: 1, arbitrary: fc.tuple(token, token).map(([a, b]) => `token=${enc(a)}&token=${enc(b)}`) },
      {
        weight: 1,
        arbitrary: fc.tuple(token, text, text).map(([t, k, v]) => `token=${enc(t)}&${enc(k)}=${enc(v)}`),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          'token',
          'token=',
          'tok=x',
          'token[]=x',
          'token[a]=x',
          '__proto__[token]=x',
          '%',
          'token=%zz',
          'token=%00',
          'token=%ED%A0%80',
        ),
      },
    );
    const body = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.constant({
          type: 'application/x-www-form-urlencoded',
          body: 'List-Unsubscribe=One-Click',
        }),
      },
      { weight: 3, arbitrary: fc.constant({ type: null, body: undefined }) },
      {
        weight: 1,
        arbitrary: fc
          .string({ unit: 'binary', maxLength: 300 })
          .map((b) => ({ type: 'application/x-www-form-urlencoded', body: b })),
      },
      {
        weight: 1,
        arbitrary: fc.constantFrom(1000, 1024, 1025, 100_000).map((n) => ({
          type: 'application/x-www-form-urlencoded; charset=utf-8',
          body: `List-Unsubscribe=${'a'.repeat(n)}`,
        })),
      },
      {
        weight: 1,
        arbitrary: fc.tuple(rawJsonBody(anything), contentType).map(([b, type]) => ({ type, body: b })),
      },
    );
    const method = fc.oneof(
      { weight: 9, arbitrary: fc.constant('POST') },
      { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE') },
    );
    await fc.assert(
      fc.asyncProperty(query, body, method, async (q, b, m) => {
        const headers: Record<string, string> = {};
        if (b.type) headers['content-type'] = b.type;
        const res = await send(`/api/transfer/notifications/unsubscribe?${q}`, {
          method: m,
          headers,
          body: m === 'GET' ? undefined : b.body,
        });
        const input = { m, q: q.slice(0, 300), type: b.type, body: b.body?.slice(0, 100) };
        judge('unsubscribe', input, res, m, true);
        let problem: string | null = null;
        if (res.status === 200) {
          const tokens = new URLSearchParams(q).getAll('token');
          // Ferry's tokens are `payload.mac` and it reads no further than the second dot: the issued token
          // followed by `.anything` is accepted. Not a forgery (the signed part is the issued one): allowed here,
          // noted in the README.
          problem =
            tokens.length === 1 &&
            (tokens[0] === issued.unsubscribeToken || tokens[0]!.startsWith(`${issued.unsubscribeToken}.`))
              ? contractProblem(UnsubscribeResponse, res)
              : '200 for a token Ferry did not issue';
        }
        if (problem) violations.push({ endpoint: 'unsubscribe', problem, input: JSON.stringify(input) });
      }),
      {
        seed: SEED,
        numRuns: runs(600),
        examples: [
          [
            `token=${issued.unsubscribeToken}`,
            { type: 'application/x-www-form-urlencoded', body: 'List-Unsubscribe=One-Click' },
            'POST',
          ],
        ],
      },
    );
    expectNoViolations('unsubscribe');
  });

  it('stores nothing wrongly: only the transfers answered 201, every file name within the rules', async () => {
    const rows = await db.query<{ id: string }>('SELECT id FROM transfers');
    const stored = new Set(rows.map((r) => r.id));
    expect(
      [...stored].filter((id) => !expectedTransferIds.has(id)),
      'stored without a 201',
    ).toEqual([]);
    expect(
      [...expectedTransferIds].filter((id) => !stored.has(id)),
      'answered 201 but not stored',
    ).toEqual([]);
    expect(rows.length).toBe(expectedTransferIds.size);
    console.log(`stored transfers: ${rows.length} (6 fixtures + ${rows.length - 6} created by fuzzing)`);

    const files = await db.query<{ transfer_id: string; name: string; relative_path: string | null }>(
      'SELECT transfer_id, name, relative_path FROM transfer_files',
    );
    const broken = files.flatMap((f) => {
      const problems = [
        storedNameProblem(f.name),
        f.relative_path === null ? null : storedPathProblem(f.relative_path, f.name),
      ]
        .filter((p): p is string => p !== null)
        .map((p) => `${JSON.stringify(f.relative_path ?? f.name)}: ${p}`);
      return problems;
    });
    console.log(`stored files: ${files.length}`);
    expect(broken, 'stored file names that break the rules').toEqual([]);
  });

  it('S1: recipients, sender proofs and notifications stored as asked; mail only to fixtures and proving senders', async () => {
    const transfers = await db.query<{
      id: string;
      type: string;
      sender_email: string | null;
      sender_verification: string;
      download_confirmation: boolean;
      expiry_reminder: boolean;
      notify_summary: boolean;
      force_email_when_download_s2: boolean;
      sent_at: Date | null;
    }>(
      `SELECT id, type, sender_email, sender_verification, download_confirmation, expiry_reminder, notify_summary,
              force_email_when_download_s2, sent_at FROM transfers`,
    );
    const recipients = await db.query<{ transfer_id: string; email: string }>(
      'SELECT transfer_id, email FROM transfer_recipients ORDER BY transfer_id, position',
    );
    const recipientsOf = new Map<string, string[]>();
    for (const r of recipients)
      recipientsOf.set(r.transfer_id, [...(recipientsOf.get(r.transfer_id) ?? []), r.email]);
    const problems: string[] = [];
    const say = (id: string, problem: string) =>
      problems.push(
        `${id}: ${problem} (asked ${JSON.stringify(createdBy.get(id)?.request ?? 'fixture').slice(0, 300)})`,
      );

    for (const r of recipients) {
      const bad = storedAddressProblem(r.email);
      if (bad) say(r.transfer_id, `recipient ${JSON.stringify(r.email)}: ${bad}`);
    }
    for (const [id, list] of recipientsOf)
      if (list.length > 10) say(id, `${list.length} recipients, an anonymous sender may name 10`);

    let s1Created = 0;
    let verifiedByProof = 0;
    for (const t of transfers) {
      const made = createdBy.get(t.id);
      if (!made) continue;
      const req = made.request;
      const isS1 = t.type === 'S1';
      if (t.type !== (req.type ?? 'S2')) say(t.id, `type ${t.type}`);
      // Recipients: exactly the ones asked for, spaces dropped, each address once (the first spelling).
      const asked = isS1 && Array.isArray(req.recipients) ? (req.recipients as string[]) : [];
      const seen = new Set<string>();
      const expected = asked
        .map((a) => a.trim())
        .filter((a) => !seen.has(a.toLowerCase()) && seen.add(a.toLowerCase()));
      const got = recipientsOf.get(t.id) ?? [];
      if (JSON.stringify(got) !== JSON.stringify(expected))
        say(t.id, `recipients ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
      if (isS1) {
        s1Created++;
        if (!t.sender_email) say(t.id, 'S1 without a sender address');
      }
      // Anonymous senders (verification is on by default) prove their address before Ferry writes to it or,
      // for S1, in their name: only the token Ferry gave for that address skips the code.
      const email = typeof req.senderEmail === 'string' ? req.senderEmail.trim().toLowerCase() : null;
      const token = req.senderVerificationToken;
      const needed = isS1 || (email !== null && (req.downloadConfirmation === true || req.summary === true));
      const proof =
        email !== FIXTURE_SENDER || typeof token !== 'string' || !token.startsWith(issued.senderToken)
          ? 'none'
          : token === issued.senderToken
            ? 'exact'
            : 'extended';
      const allowed = !needed
        ? ['not_needed']
        : proof === 'exact'
          ? ['verified']
          : proof === 'extended'
            ? ['verified', 'pending']
            : ['pending'];
      if (!allowed.includes(t.sender_verification))
        say(t.id, `senderVerification ${t.sender_verification}, expected ${allowed.join(' or ')}`);
      if (made.senderVerification !== t.sender_verification)
        say(
          t.id,
          `answered senderVerification ${String(made.senderVerification)}, stored ${t.sender_verification}`,
        );
      if (t.sender_verification === 'verified') verifiedByProof++;
      // Notifications: as asked, else the contract's defaults (on for S1, off otherwise).
      const want = {
        download_confirmation: (req.downloadConfirmation as boolean | undefined) ?? isS1,
        notify_summary: (req.summary as boolean | undefined) ?? isS1,
        expiry_reminder: isS1 && ((req.expiryReminder as boolean | undefined) ?? true),
        force_email_when_download_s2: t.type === 'S2' && req.forceEmailWhenDownloadS2 === true,
      };
      for (const [column, value] of Object.entries(want))
        if (t[column as keyof typeof want] !== value) say(t.id, `${column} ${!value}, expected ${value}`);
      // Nothing fuzzing created was uploaded: nothing went out.
      if (t.sent_at !== null) say(t.id, 'sent, though never uploaded');
    }

    const byId = new Map(transfers.map((t) => [t.id, t]));
    // No wrong code, no other token proved the pending fixture's sender: its recipients were never mailed.
    if (byId.get(fixtures.pending.transferId)?.sender_verification !== 'pending')
      say(
        fixtures.pending.transferId,
        `the pending fixture became ${byId.get(fixtures.pending.transferId)?.sender_verification}`,
      );
    if (byId.get(fixtures.pending.transferId)?.sent_at)
      say(fixtures.pending.transferId, 'the pending fixture went out');

    // Every mail went to one address: a fixture's, or the sender of a transfer waiting for its code.
    const mayReceive = new Set([FIXTURE_SENDER, PENDING_SENDER, LINK_SENDER, ...FIXTURE_RECIPIENTS]);
    for (const t of transfers)
      if (createdBy.has(t.id) && t.sender_verification === 'pending' && t.sender_email)
        mayReceive.add(t.sender_email.toLowerCase());
    const outbox = await readOutbox(ferry.dataDir);
    for (const m of outbox) {
      if (m.to.length !== 1) problems.push(`${m.file}: to ${JSON.stringify(m.to)}`);
      for (const to of m.to) if (!mayReceive.has(to)) problems.push(`${m.file}: mailed ${to}`);
    }
    console.log(
      `S1: ${s1Created} S1 transfers created by fuzzing (${recipients.length} recipients stored in all), ` +
        `${verifiedByProof} proven by a senderVerificationToken; ${outbox.length} mails in the outbox`,
    );
    expect(problems).toEqual([]);
  });
});
