/**
 * Independent oracles (not the product's own code) for what may be stored and served: the file-name rules of
 * spec §5 as a downloader's machine sees them, the Content-Disposition grammar of RFC 6266/5987, and the entry
 * names of a ZIP read straight from its central directory.
 */

const BANNED_EXTENSION = /\.(exe|msi|iso|udf|htm|html|shtml|sshtml)$/i;
// Unicode general category Cc: C0 (NUL included), DEL and C1.
const CONTROL = /\p{Cc}/u;

export const NOTICE_KEYS = new Set([
  'uploader:notif_filename_too_long',
  'uploader:notif_invalid_filename',
  'uploader:notif_file_is_exe',
  'uploader:notif_file_is_iso',
  'uploader:notif_file_is_htm',
  'uploader:notif_extension_authorized',
]);

export const utf8Bytes = (s: string) => Buffer.byteLength(s, 'utf8');

/**
 * Why a stored file name breaks the rules, or null. Banned extensions are judged on the name Windows and
 * browsers actually save: they drop trailing dots and spaces ("setup.exe." is saved as "setup.exe").
 */
export function storedNameProblem(name: string, { bans = true } = {}): string | null {
  if (name.trim() === '') return 'empty';
  if (name === '.' || name === '..') return 'dot segment';
  if (name.includes('/') || name.includes('\\')) return 'path separator';
  if (CONTROL.test(name)) return 'control character';
  if (utf8Bytes(name) > 255) return `${utf8Bytes(name)} bytes`;
  if (bans && BANNED_EXTENSION.test(name.replace(/[. ]+$/, ''))) return 'banned extension';
  return null;
}

/** Why a stored relative path breaks the rules, or null: relative, no dot segments, ends with the name. */
export function storedPathProblem(path: string, name: string): string | null {
  if (path.startsWith('/')) return 'absolute';
  if (utf8Bytes(path) > 4096) return `${utf8Bytes(path)} bytes`;
  const segments = path.split('/');
  for (const s of segments) {
    const problem = storedNameProblem(s, { bans: false });
    if (problem) return `segment ${JSON.stringify(s)}: ${problem}`;
  }
  if (segments.at(-1) !== name) return 'does not end with the file name';
  return null;
}

/**
 * Why a stored e-mail address could not be one mailbox in a To header, or null: no surrounding or inner spaces, no
 * control characters or header/list separators, one `@` between a local part and a dotted domain, 320 bytes at most.
 */
export function storedAddressProblem(email: string): string | null {
  if (email !== email.trim()) return 'surrounding spaces';
  if (/[\s\p{Cc},;<>()[\]\\"]/u.test(email)) return 'space, control character or separator';
  if (utf8Bytes(email) > 320) return `${utf8Bytes(email)} bytes`;
  const parts = email.split('@');
  if (parts.length !== 2 || parts[0] === '' || !/^[^.]+(\.[^.]+)+$/.test(parts[1]!))
    return 'not local@domain.tld';
  return null;
}

/** RFC 5987 attr-char: what may stand unencoded in an ext-value. */
const EXT_VALUE = /^UTF-8''(?:[A-Za-z0-9!#$&+\-.^_`|~]|%[0-9A-F]{2})*$/;

/**
 * Why a Content-Disposition header is not a safe attachment header for `expectedName`, or null: `attachment`,
 * printable ASCII only (no CR/LF), a quoted `filename` fallback without raw quotes or backslashes, and an RFC
 * 5987 `filename*` that decodes to exactly the stored name.
 */
export function contentDispositionProblem(header: string | null, expectedName: string): string | null {
  if (!header) return 'missing';
  if (!/^[\x20-\x7e]*$/.test(header)) return 'non-printable or non-ASCII characters';
  const match = /^attachment; filename="([^"\\]*)"; filename\*=(\S+)$/.exec(header);
  if (!match) return `not of the form attachment; filename="…"; filename*=…: ${header}`;
  const ext = match[2]!;
  if (!EXT_VALUE.test(ext)) return `filename* is not an RFC 5987 ext-value: ${ext}`;
  const decoded = decodeURIComponent(ext.slice("UTF-8''".length));
  if (decoded !== expectedName) return `filename* decodes to ${JSON.stringify(decoded)}`;
  return null;
}

/** The entry names of a ZIP (ZIP64 aware), from its central directory, decoded as UTF-8. */
export function zipEntryNames(zip: Buffer): string[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 65_535); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error('no end of central directory record');
  let count = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || offset === 0xffffffff) {
    const locator = eocd - 20;
    if (zip.readUInt32LE(locator) !== 0x07064b50) throw new Error('no ZIP64 locator');
    const record = Number(zip.readBigUInt64LE(locator + 8));
    if (zip.readUInt32LE(record) !== 0x06064b50) throw new Error('no ZIP64 end record');
    count = Number(zip.readBigUInt64LE(record + 32));
    offset = Number(zip.readBigUInt64LE(record + 48));
  }
  const names: string[] = [];
  for (let i = 0, p = offset; i < count; i++) {
    if (zip.readUInt32LE(p) !== 0x02014b50) throw new Error(`bad central directory header at ${p}`);
    const nameLength = zip.readUInt16LE(p + 28);
    const extraLength = zip.readUInt16LE(p + 30);
    const commentLength = zip.readUInt16LE(p + 32);
    names.push(zip.subarray(p + 46, p + 46 + nameLength).toString('utf8'));
    p += 46 + nameLength + extraLength + commentLength;
  }
  return names;
}

/** Why a ZIP entry name could land outside the folder it is extracted into, or null. */
export function zipEntryProblem(name: string): string | null {
  if (name.startsWith('/') || name.startsWith('\\')) return 'absolute';
  if (/^[A-Za-z]:/.test(name)) return 'drive letter';
  if (name.split(/[/\\]/).some((s) => s === '..')) return 'dot-dot segment';
  if (name.includes('\0')) return 'NUL';
  return null;
}
