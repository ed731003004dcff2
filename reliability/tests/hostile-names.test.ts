import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FerryProcess, Fleet } from '../support/ferry.js';
import { api, codedErrorProblem, fetchBytes, raw, sha256, TusTestClient } from '../support/http.js';
import { type FreshDatabase, freshDatabase } from '../support/infra.js';
import {
  contentDispositionProblem,
  NOTICE_KEYS,
  utf8Bytes,
  zipEntryNames,
  zipEntryProblem,
} from '../support/rules.js';

type Expect = 'refuse' | 'accept' | 'either';
interface Case {
  label: string;
  name: string;
  relativePath?: string;
  expect: Expect;
  /** The spec §5 notice key a refusal must carry. */
  key?: string;
}

const INVALID = 'uploader:notif_invalid_filename';
const TOO_LONG = 'uploader:notif_filename_too_long';
const EXE = 'uploader:notif_file_is_exe';
const ISO = 'uploader:notif_file_is_iso';
const HTM = 'uploader:notif_file_is_htm';

const CASES: Case[] = [
  // Path traversal and absolute paths, in the name and in the folder path.
  { label: 'name ../etc/passwd', name: '../etc/passwd', expect: 'refuse', key: INVALID },
  {
    label: 'name ..\\..\\windows\\win.ini',
    name: '..\\..\\windows\\win.ini',
    expect: 'refuse',
    key: INVALID,
  },
  { label: 'name /etc/passwd', name: '/etc/passwd', expect: 'refuse', key: INVALID },
  { label: 'name C:\\Windows\\x.txt', name: 'C:\\Windows\\x.txt', expect: 'refuse', key: INVALID },
  { label: 'name ..', name: '..', expect: 'refuse', key: INVALID },
  { label: 'name .', name: '.', expect: 'refuse', key: INVALID },
  { label: 'path ../x.txt', name: 'x.txt', relativePath: '../x.txt', expect: 'refuse', key: INVALID },
  {
    label: 'path a/../../x.txt',
    name: 'x.txt',
    relativePath: 'a/../../x.txt',
    expect: 'refuse',
    key: INVALID,
  },
  { label: 'path /abs/x.txt', name: 'x.txt', relativePath: '/abs/x.txt', expect: 'refuse', key: INVALID },
  { label: 'path ./x.txt', name: 'x.txt', relativePath: './x.txt', expect: 'refuse', key: INVALID },
  { label: 'path a//x.txt', name: 'x.txt', relativePath: 'a//x.txt', expect: 'refuse', key: INVALID },
  { label: 'path a\\..\\x.txt', name: 'x.txt', relativePath: 'a\\..\\x.txt', expect: 'refuse', key: INVALID },
  {
    label: 'path not ending with the name',
    name: 'x.txt',
    relativePath: 'a/evil.txt',
    expect: 'refuse',
    key: INVALID,
  },
  // A drive letter is an absolute path to a Windows unzipper (APPNOTE 4.4.17: no drive or device letter).
  { label: 'path C:/Windows/x.txt', name: 'x.txt', relativePath: 'C:/Windows/x.txt', expect: 'either' },
  // NUL and other control characters (C0, DEL, C1: U+0085 NEL, U+009B CSI starts terminal escapes).
  { label: 'name with NUL', name: 'a\u0000.txt', expect: 'refuse', key: INVALID },
  { label: 'name with newline', name: 'a\nb.txt', expect: 'refuse', key: INVALID },
  { label: 'name with CR', name: 'a\rb.txt', expect: 'refuse', key: INVALID },
  { label: 'name with DEL', name: 'a\u007fb.txt', expect: 'refuse', key: INVALID },
  { label: 'name with C1 NEL U+0085', name: 'a\u0085b.txt', expect: 'refuse', key: INVALID },
  { label: 'name with C1 CSI U+009B', name: 'red\u009b31m.txt', expect: 'refuse', key: INVALID },
  { label: 'folder with NUL', name: 'x.txt', relativePath: 'a\u0000/x.txt', expect: 'refuse', key: INVALID },
  // Length, counted in UTF-8 bytes.
  { label: '256 ASCII bytes', name: `${'a'.repeat(252)}.txt`, expect: 'refuse', key: TOO_LONG },
  { label: '258 bytes of €', name: '€'.repeat(86), expect: 'refuse', key: TOO_LONG },
  { label: '256 bytes of é', name: `${'é'.repeat(126)}.txt`, expect: 'refuse', key: TOO_LONG },
  { label: 'exactly 255 ASCII bytes', name: `${'a'.repeat(251)}.txt`, expect: 'accept' },
  { label: 'exactly 255 bytes of € (3-byte UTF-8)', name: '€'.repeat(85), expect: 'accept' },
  { label: 'exactly 255 bytes of é and ASCII', name: `${'é'.repeat(125)}a.txt`, expect: 'accept' },
  { label: 'exactly 255 bytes of emoji (4-byte UTF-8)', name: `${'😀'.repeat(63)}a.b`, expect: 'accept' },
  {
    label: 'folder path of 4095 bytes',
    name: 'x.txt',
    relativePath: `${'d/'.repeat(2045)}x.txt`,
    expect: 'accept',
  },
  {
    label: 'folder path over 4096 bytes',
    name: 'x.txt',
    relativePath: `${'d/'.repeat(2100)}x.txt`,
    expect: 'refuse',
    key: TOO_LONG,
  },
  {
    label: 'folder segment of 256 bytes',
    name: 'x.txt',
    relativePath: `${'f'.repeat(256)}/x.txt`,
    expect: 'refuse',
    key: TOO_LONG,
  },
  // Banned extensions (§5), including the spellings Windows and browsers save as the banned one: they drop
  // trailing dots and spaces ("setup.exe." is saved as "setup.exe").
  { label: 'setup.exe', name: 'setup.exe', expect: 'refuse', key: EXE },
  { label: 'setup.MSI', name: 'setup.MSI', expect: 'refuse', key: EXE },
  { label: 'disk.iso', name: 'disk.iso', expect: 'refuse', key: ISO },
  { label: 'page.HTML', name: 'page.HTML', expect: 'refuse', key: HTM },
  { label: 'page.shtml', name: 'page.shtml', expect: 'refuse', key: HTM },
  { label: 'setup.exe. (trailing dot)', name: 'setup.exe.', expect: 'refuse', key: EXE },
  { label: 'setup.exe  (trailing spaces)', name: 'setup.exe  ', expect: 'refuse', key: EXE },
  { label: 'page.html. . (trailing dots and spaces)', name: 'page.html. .', expect: 'refuse', key: HTM },
  // Bidirectional controls reorder how a name is shown ("photo‮gpj.exe" reads "photoexe.jpg"): refused.
  { label: 'RTL override hiding .exe', name: 'photo\u202Egpj.exe', expect: 'refuse', key: INVALID },
  { label: 'RTL override U+202E', name: 'invoice\u202Efdp.txt', expect: 'refuse', key: INVALID },
  { label: 'isolate U+2066', name: 'report\u2066.txt', expect: 'refuse', key: INVALID },
  // Stored if accepted, but then served safely.
  { label: 'HTML/script in the name', name: '<img src=x onerror=alert(1)>.txt', expect: 'either' },
  { label: 'SVG with a script handler', name: '<svg onload=alert(document.domain)>.svg', expect: 'either' },
  { label: 'quotes and semicolons', name: 'a"b; filename=c.txt', expect: 'either' },
  { label: 'apostrophe, parentheses, asterisk', name: "John's report (final)*.pdf", expect: 'either' },
  { label: 'percent escapes', name: '%2e%2e%2f100%.txt', expect: 'either' },
  { label: 'Windows reserved CON', name: 'CON', expect: 'either' },
  { label: 'Windows reserved nul.txt', name: 'nul.txt', expect: 'either' },
  { label: 'Windows reserved COM1.log', name: 'COM1.log', expect: 'either' },
  { label: 'Windows reserved folder PRN/', name: 'x.txt', relativePath: 'PRN/x.txt', expect: 'either' },
  // "a:b.txt" is drive-relative on Windows, "x.txt:y" an NTFS alternate data stream.
  { label: 'drive-letter colon in the name', name: 'a:b.txt', expect: 'either' },
  { label: 'unicode', name: 'naïve résumé 日本語 🙂.pdf', expect: 'accept' },
  { label: 'deep folders', name: 'x.txt', relativePath: 'a/b/c/d/e/f/g/h/i/j/k/x.txt', expect: 'accept' },
];

describe('hostile file names and folder paths', () => {
  const fleet = new Fleet();
  let db: FreshDatabase;
  let ferry: FerryProcess;

  beforeAll(async () => {
    db = await freshDatabase();
    ferry = await fleet.start({ env: { DATABASE_URL: db.url } });
  });
  afterAll(async () => {
    await fleet.stopAll();
    await db?.drop();
  });

  for (const c of CASES) {
    const what =
      c.expect === 'refuse'
        ? 'is refused'
        : c.expect === 'accept'
          ? 'is accepted and served safely'
          : 'is refused or served safely';
    it(`${c.label} ${what}`, async () => {
      const file = {
        name: c.name,
        size: 5,
        ...(c.relativePath !== undefined ? { relativePath: c.relativePath } : {}),
      };
      const res = await raw(ferry.url, '/api/transfer/transfers', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ files: [file] }),
      });
      expect(res.status, res.text.slice(0, 300)).toBeLessThan(500);
      if (c.expect === 'refuse')
        expect(res.status, `accepted ${JSON.stringify(c.relativePath ?? c.name)}`).toBe(400);
      if (c.expect === 'accept') expect(res.status, res.text.slice(0, 300)).toBe(201);

      if (res.status === 400) {
        expect(codedErrorProblem(res, 400, 'INVALID_FILENAME')).toBeNull();
        const listed = (res.json as { details: { files: Array<{ name: string; key: string }> } }).details
          .files;
        expect(listed).toHaveLength(1);
        expect(listed[0]!.name).toBe(c.relativePath ?? c.name);
        expect(NOTICE_KEYS.has(listed[0]!.key), listed[0]!.key).toBe(true);
        if (c.key) expect(listed[0]!.key).toBe(c.key);
        return;
      }
      expect(res.status).toBe(201);
      await expectServedSafely(ferry, res.json as Created, c);
    });
  }

  it('a ZIP of every accepted hostile name holds only relative entries, served as an attachment', async () => {
    const accepted = CASES.filter((c) => c.expect !== 'refuse');
    const candidates = accepted.map((c) => ({
      name: c.name,
      size: 5,
      ...(c.relativePath ? { relativePath: c.relativePath } : {}),
    }));
    const res = await raw(ferry.url, '/api/transfer/transfers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '../../<b>"evil"</b>\u202E', files: candidates }),
    });
    // One refused name refuses the request: keep the ones accepted alone.
    const refused = new Set(
      res.status === 400
        ? (res.json as { details: { files: Array<{ name: string }> } }).details.files.map((f) => f.name)
        : [],
    );
    const kept = candidates.filter((f) => !refused.has(f.relativePath ?? f.name));
    const again = await raw(ferry.url, '/api/transfer/transfers', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '../../<b>"evil"</b>\u202E', files: kept }),
    });
    expect(again.status, again.text.slice(0, 300)).toBe(201);
    const created = again.json as Created;
    await uploadAndComplete(ferry, created);
    const link = await api(ferry.url, `/api/transfer/downloads/link?transferId=${created.transferId}`);
    expect(link.status).toBe(200);
    const zip = await fetchBytes(link.body.url);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.headers.get('x-content-type-options')).toBe('nosniff');
    expect(contentDispositionProblem(zip.headers.get('content-disposition'), link.body.fileName)).toBeNull();
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it looks for
    expect(link.body.fileName).not.toMatch(/[/\\"<>\u0000-\u001f]/);
    const names = zipEntryNames(zip.data);
    expect(names).toHaveLength(kept.length);
    expect(names.map((n) => [n, zipEntryProblem(n)]).filter(([, p]) => p !== null)).toEqual([]);
  });
});

interface Created {
  transferId: string;
  uploadToken: string;
  files: Array<{ id: string; name: string; relativePath: string | null }>;
}

const CONTENT = Buffer.from('hello');

async function uploadAndComplete(ferry: FerryProcess, created: Created) {
  const tus = new TusTestClient(ferry.url, created.uploadToken);
  for (const f of created.files)
    expect(await tus.upload(created.transferId, f.id, CONTENT)).toBe(sha256(CONTENT));
  const done = await api(ferry.url, `/api/transfer/transfers/${created.transferId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': created.uploadToken },
    json: { files: created.files.map((f) => ({ id: f.id, sha256: sha256(CONTENT) })) },
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
}

/** Uploads, completes and downloads a transfer of one accepted name: nothing may come back unsafe. */
async function expectServedSafely(ferry: FerryProcess, created: Created, c: Case) {
  await uploadAndComplete(ferry, created);
  const info = await raw(ferry.url, `/api/transfer/downloads/info?transferId=${created.transferId}`);
  expect(info.status).toBe(200);
  expect(info.headers.get('content-type')).toMatch(/^application\/json/);
  const stored = (info.json as { files: Array<{ id: string; name: string; relativePath: string | null }> })
    .files[0]!;
  expect(utf8Bytes(stored.name)).toBeLessThanOrEqual(255);

  // The single file: an attachment, never HTML, its name in an RFC 6266/5987 header.
  const link = await api(
    ferry.url,
    `/api/transfer/downloads/link?transferId=${created.transferId}&fileId=${stored.id}`,
  );
  expect(link.status).toBe(200);
  const one = await fetchBytes(link.body.url);
  expect(one.status).toBe(200);
  expect(one.data.equals(CONTENT)).toBe(true);
  expect(one.headers.get('content-type')).toBe('application/octet-stream');
  expect(one.headers.get('x-content-type-options')).toBe('nosniff');
  expect(one.headers.get('content-security-policy')).toContain('sandbox');
  expect(contentDispositionProblem(one.headers.get('content-disposition'), stored.name)).toBeNull();

  // The ZIP: entries stay inside the folder they are extracted to.
  const zipLink = await api(ferry.url, `/api/transfer/downloads/link?transferId=${created.transferId}`);
  const zip = await fetchBytes(zipLink.body.url);
  expect(zip.status).toBe(200);
  expect(zip.headers.get('content-type')).toBe('application/zip');
  expect(contentDispositionProblem(zip.headers.get('content-disposition'), zipLink.body.fileName)).toBeNull();
  const names = zipEntryNames(zip.data);
  expect(names).toEqual([stored.relativePath ?? stored.name]);
  expect(zipEntryProblem(names[0]!), `ZIP entry ${JSON.stringify(names[0])} of ${c.label}`).toBeNull();
}
