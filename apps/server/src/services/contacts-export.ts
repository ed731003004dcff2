/** What an export writes of each contact. */
export interface ExportedContact {
  email: string;
  name: string | null;
  company: string | null;
  notes: string | null;
}

/**
 * A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first) gets a leading apostrophe: an exported
 * name must never become a command when the file is opened.
 */
function neutralize(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

function csvCell(value: string): string {
  return /[",\r\n;]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/**
 * The contacts as CSV (UTF-8 with a byte-order mark so spreadsheets read accents, CRLF, a header of email, name,
 * company and notes): what the import reads back.
 */
export function contactsToCsv(contacts: readonly ExportedContact[]): string {
  const lines = [['email', 'name', 'company', 'notes'].join(',')];
  for (const c of contacts)
    lines.push(
      [csvCell(c.email), ...[c.name, c.company, c.notes].map((v) => csvCell(neutralize(v ?? '')))].join(','),
    );
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

function escapeText(value: string): string {
  return value
    .replace(/\\/g, '\\\\')
    .replace(/,/g, '\\,')
    .replace(/;/g, '\\;')
    .replace(/\r?\n|\r/g, '\\n');
}

/** RFC 6350 §3.2: lines of at most 75 octets, continued after CRLF and a space, never inside a character. */
function fold(line: string): string {
  const encoder = new TextEncoder();
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  for (const ch of line) {
    const size = encoder.encode(ch).length;
    if (octets + size > (parts.length === 0 ? 75 : 74)) {
      parts.push(current);
      current = '';
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/** "Ann Marie Lee" → N:Lee;Ann Marie;;; (the last word as the family name). */
function structuredName(name: string): string {
  const words = name.trim().split(/\s+/);
  const family = words.length > 1 ? words.pop()! : '';
  return `${escapeText(family)};${escapeText(words.join(' '))};;;`;
}

/** The contacts as vCard 3.0 (the version every address book reads), one card each. */
export function contactsToVCard(contacts: readonly ExportedContact[]): string {
  const lines: string[] = [];
  for (const c of contacts) {
    lines.push('BEGIN:VCARD', 'VERSION:3.0');
    lines.push(fold(`FN:${escapeText(c.name ?? c.email)}`));
    lines.push(fold(`N:${c.name ? structuredName(c.name) : ';;;;'}`));
    lines.push(fold(`EMAIL;TYPE=INTERNET:${c.email}`));
    if (c.company) lines.push(fold(`ORG:${escapeText(c.company)}`));
    if (c.notes) lines.push(fold(`NOTE:${escapeText(c.notes)}`));
    lines.push('END:VCARD');
  }
  return lines.length > 0 ? `${lines.join('\r\n')}\r\n` : '';
}
