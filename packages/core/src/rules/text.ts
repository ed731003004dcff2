/**
 * Characters that change how the text around them is laid out rather than being text: control characters
 * (C0 with NUL, DEL, C1 — among them line feed, carriage return and tab), the Unicode line and paragraph
 * separators (U+2028, U+2029) and the bidirectional embedding, override and isolate controls (U+202A–202E,
 * U+2066–2069), which make a name read in another order than it is written ("invoice\u202Efdp.exe" shown as
 * "invoiceexe.pdf"). None belongs in a name shown to someone else.
 */
export const LAYOUT_CONTROL_CHARS = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;

/** True when a name (of a person, or a file) holds a character of LAYOUT_CONTROL_CHARS. */
export function hasLayoutControlChars(name: string): boolean {
  return LAYOUT_CONTROL_CHARS.test(name);
}
