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
import { storedNameProblem, storedPathProblem } from '../support/rules.js';

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
const validCreate = fc.record(
  {
    type: fc.constantFrom('S2', 'S1', 'S3'),
    name: freeText,
    message: fc.oneof(freeText, fc.string({ unit: 'binary', maxLength: 500 })),
    password: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { freq: 10, nil: undefined }),
    expiresInDays: fc.integer({ min: 1, max: 7 }),
    maxDownloads: fc.integer({ min: 1, max: 1_000_000 }),
    allowPreview: fc.boolean(),
    senderEmail: fc.oneof(
      { weight: 5, arbitrary: fc.constantFrom('alice@example.com', 'b.o-b+tag@mail.example.org') },
      { weight: 1, arbitrary: fc.emailAddress() },
    ),
    senderName: freeText,
    locale: fc.constantFrom('en', 'fr', 'zh'),
    files: fc.array(validFile, { minLength: 1, maxLength: 4 }),
  },
  { requiredKeys: ['files'] },
);
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
  };
  const expectedTransferIds = new Set<string>();
  const violations: Violation[] = [];
  const totals: Record<string, { cases: number; statuses: Record<string, number> }> = {};

  beforeAll(async () => {
    db = await freshDatabase();
    ferry = await fleet.start({ env: { DATABASE_URL: db.url } });
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
    for (const id of [open.transferId, locked.transferId, uploading.transferId]) expectedTransferIds.add(id);
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
        if (process.env.FUZZ_DEBUG && res.status === 400) {
          const j = res.json as { codes?: string[]; details?: { issues?: Array<{ path?: string }> } };
          const k = `${j?.codes?.[0]} ${j?.details?.issues?.[0]?.path ?? ''}`;
          reasons[k] = (reasons[k] ?? 0) + 1;
        }
        if (res.status === 201) {
          const id = (res.json as { transferId?: unknown })?.transferId;
          if (typeof id !== 'string' || !/^[A-Za-z0-9]{16}$/.test(id))
            violations.push({
              endpoint: 'create',
              problem: '201 without a transfer id',
              input: body.slice(0, 300),
            });
          else expectedTransferIds.add(id);
          created++;
        }
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
        ],
      },
    );
    console.log(`create: ${created} transfers created`);
    if (process.env.FUZZ_DEBUG) console.log(reasons);
    expectNoViolations('create');
  });

  const queryArb = () => {
    const ids = fc.oneof(
      fc.constant(fixtures.open.transferId),
      fc.constant(fixtures.locked.transferId),
      fc.constant(fixtures.uploading.transferId),
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
        arbitrary: fc.constantFrom('true', 'false', '1', '', ...fixtures.open.fileIds, 'secret pw'),
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
    console.log(`stored transfers: ${rows.length} (3 fixtures + ${rows.length - 3} created by fuzzing)`);

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
});
