import {
  CONTACT_COMPANY_MAX,
  CONTACT_NAME_MAX,
  CONTACT_NOTES_MAX,
  type ContactImportFormat,
  type ContactImportSkippedLine,
  Email,
} from '@ferry/core';
import { type Info, parse } from 'csv-parse';

/** One address read from an import file, with what the file says about its owner. */
export interface ImportedContact {
  /** 1-based line of the file it came from (a vCard's BEGIN:VCARD line). */
  line: number;
  email: string;
  name: string | null;
  company: string | null;
  notes: string | null;
}

/** What a file holds: its addresses (first occurrence of each) and the lines that gave none, with why. */
export interface ParsedContacts {
  format: ContactImportFormat;
  contacts: ImportedContact[];
  skipped: ContactImportSkippedLine[];
}

const VALUE_MAX = 200;
const shorten = (value: string) => (value.length > VALUE_MAX ? `${value.slice(0, VALUE_MAX - 1)}…` : value);
const clip = (value: string | null | undefined, max: number): string | null => {
  const v = value?.replaceAll('\u0000', '').trim() ?? '';
  return v ? Array.from(v).slice(0, max).join('') : null;
};

/** A text that starts (after a byte-order mark and blank lines) with BEGIN:VCARD is vCard; any other, CSV. */
export function detectContactFormat(content: string): ContactImportFormat {
  return /^\uFEFF?\s*BEGIN:VCARD/i.test(content) ? 'vcard' : 'csv';
}

/**
 * Reads a CSV or vCard file; `format` absent: detected from the text. The work is done in slices of a few
 * milliseconds with a turn of the event loop between them: a hostile file (2 MB of separators takes seconds to
 * read) delays other requests by a slice, not by the whole parse.
 */
export function parseContactFile(content: string, format?: ContactImportFormat): Promise<ParsedContacts> {
  const chosen = format ?? detectContactFormat(content);
  return chosen === 'vcard' ? parseVCards(content) : parseContactsCsv(content);
}

/** How long one slice of parsing may hold the event loop before it gives other work a turn. */
const SLICE_MS = 8;
/** Bytes given to the CSV parser at a time (a slice is one or more of them). */
const CSV_CHUNK = 4096;

/** Gives the event loop a turn whenever a slice's time is used up; call it between small pieces of work. */
class Slices {
  private started = performance.now();

  async next(): Promise<void> {
    if (performance.now() - this.started < SLICE_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.started = performance.now();
  }
}

/**
 * Turns entries into contacts: one per address (the first line that gives it wins, later ones are `duplicate`),
 * each address checked with the rule the API uses. "Ann Lee <ann@example.com>" gives the address (and the name
 * when the line has none).
 */
class Collector {
  readonly contacts: ImportedContact[] = [];
  readonly skipped: ContactImportSkippedLine[] = [];
  private readonly seen = new Set<string>();

  constructor(readonly format: ContactImportFormat) {}

  add(
    line: number,
    rawEmail: string,
    fields: { name: string | null; company: string | null; notes: string | null },
  ) {
    let address = rawEmail.trim().replace(/^mailto:/i, '');
    let name = fields.name;
    // "Name <address>": found with indexes, not a backtracking pattern (cells can be long).
    const open = address.endsWith('>') ? address.lastIndexOf('<') : -1;
    if (open >= 0) {
      const before = address.slice(0, open).trim();
      address = address.slice(open + 1, -1).trim();
      name ??= clip(before.replace(/^"|"$/g, ''), CONTACT_NAME_MAX);
    }
    const checked = address.length <= 320 ? Email.safeParse(address) : null;
    if (!checked?.success) {
      this.skip(line, 'invalid_email', rawEmail.trim());
      return;
    }
    const key = checked.data.toLowerCase();
    if (this.seen.has(key)) {
      this.skip(line, 'duplicate', checked.data);
      return;
    }
    this.seen.add(key);
    // A name that is only the address again (an exported card's FN) is no name.
    if (name?.toLowerCase() === key) name = null;
    this.contacts.push({ line, email: checked.data, ...fields, name });
  }

  skip(line: number, reason: ContactImportSkippedLine['reason'], value: string | null) {
    this.skipped.push({ line, reason, value: value ? shorten(value) : null });
  }

  result(): ParsedContacts {
    this.skipped.sort((a, b) => a.line - b.line);
    return { format: this.format, contacts: this.contacts, skipped: this.skipped };
  }
}

// ---- CSV ---------------------------------------------------------------------------------------------------

type Role = 'email' | 'name' | 'first' | 'middle' | 'last' | 'company' | 'notes';

/** Column titles as mail programs and spreadsheets write them (English and French), after `headerKey`. */
const HEADER_ROLES: Record<string, Role> = {};
for (const [role, titles] of Object.entries({
  email: [
    'email',
    'e mail',
    'mail',
    'email address',
    'e mail address',
    'mail address',
    'primary email',
    'email 1',
    'e mail 1',
    'e mail 1 value',
    'email 1 value',
    'e mail 2 value',
    'e mail 3 value',
    'email 2',
    'e mail 2',
    'e mail 2 address',
    'e mail 3 address',
    'email2',
    'email3',
    'courriel',
    'adresse e mail',
    'adresse mail',
    'adresse email',
    'adresse electronique',
    'adresse de messagerie',
  ],
  name: ['name', 'full name', 'fullname', 'display name', 'contact name', 'nom complet'],
  first: ['first name', 'firstname', 'given name', 'givenname', 'first', 'prenom'],
  middle: ['middle name', 'additional name', 'deuxieme prenom'],
  last: ['last name', 'lastname', 'family name', 'familyname', 'surname', 'last', 'nom de famille', 'nom'],
  company: [
    'company',
    'company name',
    'organization',
    'organisation',
    'organization name',
    'organization 1 name',
    'org',
    'societe',
    'entreprise',
  ],
  notes: ['notes', 'note', 'comments', 'comment', 'remarques'],
} satisfies Record<Role, string[]>))
  for (const title of titles) HEADER_ROLES[title] = role as Role;

/** "E-mail Address", " e_mail ", "Prénom" → "e mail address", "e mail", "prenom". */
function headerKey(cell: string): string {
  return cell
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The separator the first line uses most, outside quotes: comma, semicolon or tab (comma on a tie). */
function detectDelimiter(content: string): string {
  // A record is at most 64 KiB (max_record_size): a longer first line is not read further.
  const head = content.slice(0, 65_536);
  const firstLine = head.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/, 1)[0] ?? '';
  const counts: Record<string, number> = { ',': 0, ';': 0, '\t': 0 };
  let quoted = false;
  for (const ch of firstLine) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]!++;
  }
  return [';', '\t'].reduce((best, d) => (counts[d]! > counts[best]! ? d : best), ',');
}

/** The 1-based line a record starts on: the line the parser is on after it, less the line breaks inside it. */
function startLine(endLine: number, raw: string): number {
  const inner = raw.replace(/^\n+/, '').replace(/\n$/, '');
  return endLine - (inner.match(/\n/g)?.length ?? 0);
}

/**
 * A CSV file: comma, semicolon or tab separated, quoted fields (with "" inside and line breaks), a byte-order mark.
 * A first line naming an address column (email, e-mail, mail, courriel …) is the header; its name, first/last
 * name, company and notes columns are read too, and every address column counts (a person with two addresses
 * gives two contacts). Without such a header, each line's cells that hold an "@" are its addresses and its first
 * other cell the name.
 */
export async function parseContactsCsv(content: string): Promise<ParsedContacts> {
  const out = new Collector('csv');
  const slices = new Slices();
  const records: Array<{ line: number; cells: string[] }> = [];
  // One kind of line break (a quoted one too), so that line numbers count as an editor does.
  const text = content.replace(/\r\n?/g, '\n');
  const parser = parse({
    delimiter: detectDelimiter(text),
    bom: true,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    info: true,
    raw: true,
    max_record_size: 64 * 1024,
    on_skip: (error, raw) => {
      const line = error && 'lines' in error ? Number(error.lines) : 0;
      const code = error && 'code' in error ? String(error.code) : '';
      out.skip(
        startLine(line, raw ?? ''),
        code === 'CSV_MAX_RECORD_SIZE' ? 'too_long' : 'unreadable',
        (raw ?? '').trim() || null,
      );
      return undefined;
    },
  });
  // Records come out as each chunk is parsed (the 'data' listener keeps the stream flowing).
  parser.on('data', (row: { record: string[]; raw: string; info: Info & { lines: number } }) => {
    const cells = row.record.map((cell) => cell.trim());
    if (cells.every((cell) => cell === '')) return;
    records.push({ line: startLine(row.info.lines, row.raw), cells });
  });
  const ended = new Promise<void>((resolve, reject) => {
    parser.on('end', resolve);
    parser.on('error', reject);
  });
  // Bytes, as a file stream gives them: the parser joins a character split between two chunks.
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += CSV_CHUNK) {
    parser.write(bytes.subarray(i, i + CSV_CHUNK));
    await slices.next();
  }
  parser.end();
  await ended;
  const first = records[0];
  const roles = first?.cells.map((cell) => HEADER_ROLES[headerKey(cell)] ?? null) ?? [];
  const header = first !== undefined && roles.includes('email');
  for (const { line, cells } of header ? records.slice(1) : records) {
    if (header) readHeaderRow(out, line, cells, roles);
    else readBareRow(out, line, cells);
    await slices.next();
  }
  return out.result();
}

function readHeaderRow(out: Collector, line: number, cells: string[], roles: Array<Role | null>) {
  const of = (role: Role) => cells.filter((cell, i) => roles[i] === role && cell !== '');
  const name = of('name')[0] ?? ([...of('first'), ...of('middle'), ...of('last')].join(' ').trim() || null);
  const fields = {
    name: clip(name, CONTACT_NAME_MAX),
    company: clip(of('company')[0], CONTACT_COMPANY_MAX),
    notes: clip(of('notes').join('\n'), CONTACT_NOTES_MAX),
  };
  // Google's export puts several addresses in one cell, separated by " ::: ".
  const emails = of('email')
    .flatMap((cell) => cell.split(/\s*:::\s*/))
    .filter((e) => e !== '');
  if (emails.length === 0) {
    out.skip(line, 'missing_email', cells.filter((c) => c !== '').join(', ') || null);
    return;
  }
  for (const email of emails) out.add(line, email, fields);
}

function readBareRow(out: Collector, line: number, cells: string[]) {
  const emails = cells.filter((cell) => cell.includes('@'));
  if (emails.length === 0) {
    out.skip(line, 'missing_email', cells.filter((c) => c !== '').join(', ') || null);
    return;
  }
  const name = cells.find((cell) => cell !== '' && !cell.includes('@')) ?? null;
  for (const email of emails)
    out.add(line, email, { name: clip(name, CONTACT_NAME_MAX), company: null, notes: null });
}

// ---- vCard -------------------------------------------------------------------------------------------------

interface VProperty {
  name: string;
  params: Map<string, string[]>;
  value: string;
}

/** Splits at `separator` outside double quotes. */
function splitOutsideQuotes(text: string, separator: string, limit = Number.POSITIVE_INFINITY): string[] {
  const parts: string[] = [];
  let quoted = false;
  let start = 0;
  for (let i = 0; i < text.length && parts.length < limit - 1; i++) {
    const ch = text[i];
    if (ch === '"') quoted = !quoted;
    else if (ch === separator && !quoted) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `NAME;PARAM=a,b;TYPE:value` (a `group.` prefix dropped; vCard 2.1 bare params are TYPE values). */
function parseProperty(line: string): VProperty | null {
  const [head, value] = splitOutsideQuotes(line, ':', 2);
  if (value === undefined || !head) return null;
  const [rawName, ...rawParams] = splitOutsideQuotes(head, ';');
  const name = (rawName ?? '')
    .replace(/^[^.]*\./, '')
    .trim()
    .toUpperCase();
  const params = new Map<string, string[]>();
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    const key = (eq < 0 ? 'TYPE' : param.slice(0, eq)).trim().toUpperCase();
    const values = (eq < 0 ? param : param.slice(eq + 1))
      .split(',')
      .map((v) => v.trim().replace(/^"|"$/g, ''));
    params.set(key, [...(params.get(key) ?? []), ...values]);
  }
  return { name, params, value };
}

function isQuotedPrintable(params: Map<string, string[]>): boolean {
  return [...(params.get('ENCODING') ?? []), ...(params.get('TYPE') ?? [])].some(
    (v) => v.toUpperCase() === 'QUOTED-PRINTABLE',
  );
}

/** vCard 2.1 QUOTED-PRINTABLE text, in its CHARSET (UTF-8 when absent or unknown). */
function decodeQuotedPrintable(value: string, charset: string | undefined): string {
  const bytes: number[] = [];
  const text = value.replace(/=(?:\r\n|\r|\n)/g, '');
  for (let i = 0; i < text.length; i++) {
    const hex = text.slice(i + 1, i + 3);
    if (text[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(Number.parseInt(hex, 16));
      i += 2;
    } else bytes.push(...new TextEncoder().encode(text[i]));
  }
  const data = new Uint8Array(bytes);
  try {
    return new TextDecoder(charset ?? 'utf-8').decode(data);
  } catch {
    return new TextDecoder('utf-8').decode(data);
  }
}

/** vCard text escapes: \n (or \N) a line break, \, \; \\ themselves. */
function unescapeText(value: string): string {
  return value.replace(/\\([nN,;:\\])/g, (_, ch: string) => (ch === 'n' || ch === 'N' ? '\n' : ch));
}

/** The components of a structured value (N, ORG), split at unescaped semicolons. */
function components(value: string): string[] {
  return value.split(/(?<!\\);/).map((part) => unescapeText(part).trim());
}

/** Physical lines joined back into logical ones (RFC 6350 §3.2 folding; vCard 2.1 quoted-printable soft breaks). */
async function logicalLines(content: string, slices: Slices): Promise<Array<{ line: number; text: string }>> {
  const physical = content.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  // Pieces are joined once at the end: growing one string and reading its end each time is quadratic.
  const out: Array<{ line: number; parts: string[]; quotedPrintable: boolean; tail: string }> = [];
  for (let i = 0; i < physical.length; i++) {
    await slices.next();
    const text = physical[i]!;
    const last = out.at(-1);
    if (last && (text.startsWith(' ') || text.startsWith('\t'))) {
      last.parts.push(text.slice(1));
      last.tail = text.slice(1) || last.tail;
    } else if (last?.quotedPrintable && last.tail.endsWith('=')) {
      last.parts.push('\n', text);
      last.tail = text;
    } else {
      // Whether the property is quoted-printable is read once, from its name and parameters.
      const colon = text.indexOf(':');
      out.push({
        line: i + 1,
        parts: [text],
        quotedPrintable: colon > 0 && /QUOTED-PRINTABLE/i.test(text.slice(0, colon)),
        tail: text,
      });
    }
  }
  return out.map(({ line, parts }) => ({ line, text: parts.join('') }));
}

interface Card {
  line: number;
  properties: VProperty[];
}

/**
 * A vCard file (versions 2.1, 3.0 and 4.0): each card's EMAIL properties (all of them: a person with two
 * addresses gives two contacts), its FN (else the given and family names of N), ORG and NOTE. Folded lines are
 * unfolded and text escapes read. A card without EMAIL is skipped as `missing_email`, at its BEGIN:VCARD line.
 */
export async function parseVCards(content: string): Promise<ParsedContacts> {
  const out = new Collector('vcard');
  const slices = new Slices();
  const cards: Card[] = [];
  let card: Card | null = null;
  for (const { line, text } of await logicalLines(content, slices)) {
    await slices.next();
    if (/^BEGIN:VCARD\s*$/i.test(text)) {
      card = { line, properties: [] };
      cards.push(card);
    } else if (/^END:VCARD\s*$/i.test(text)) card = null;
    else if (card && text.trim() !== '') {
      const property = parseProperty(text);
      if (property) card.properties.push(property);
    }
  }
  if (cards.length === 0 && content.trim() !== '') {
    out.skip(1, 'unreadable', content.trim().split(/\r\n|\r|\n/, 1)[0] ?? null);
    return out.result();
  }
  for (const { line, properties } of cards) {
    await slices.next();
    const read = (p: VProperty) =>
      isQuotedPrintable(p.params) ? decodeQuotedPrintable(p.value, p.params.get('CHARSET')?.[0]) : p.value;
    const first = (name: string) => properties.find((p) => p.name === name);
    const fn = first('FN');
    const n = first('N');
    const nameParts = n ? components(read(n)) : [];
    // N: family; given; additional; prefixes; suffixes.
    const fromN = [nameParts[3], nameParts[1], nameParts[2], nameParts[0], nameParts[4]]
      .filter((part) => part)
      .join(' ');
    const org = first('ORG');
    const notes = properties.filter((p) => p.name === 'NOTE').map((p) => unescapeText(read(p)));
    const fields = {
      name: clip((fn ? unescapeText(read(fn)) : '') || fromN, CONTACT_NAME_MAX),
      company: clip(org ? components(read(org))[0] : null, CONTACT_COMPANY_MAX),
      notes: clip(notes.join('\n'), CONTACT_NOTES_MAX),
    };
    const emails = properties
      .filter((p) => p.name === 'EMAIL')
      .map((p) => unescapeText(read(p)).trim())
      .filter((e) => e !== '');
    if (emails.length === 0) out.skip(line, 'missing_email', fields.name);
    for (const email of emails) out.add(line, email, fields);
  }
  return out.result();
}
