import { isEmail as isAddress } from '@ferry/core';

/** Between the entries of a list: commas, semicolons and new lines (spaces too, unless in "Name <address>"). */
const LIST_SEPARATORS = /[,;\r\n]+/;

/** True for an address the server accepts (the same rule: @ferry/core's `isEmail`, equal to its `Email`). */
export function isEmail(value: string): boolean {
  return isAddress(value);
}

/**
 * The entries of a typed or pasted text, in order. "Ann Lee <ann@example.com>" (as mail programs copy
 * addresses) gives the address; other text is split at spaces as well, so each word shows up as an entry
 * (an invalid one if it is not an address) rather than vanish.
 */
export function splitAddresses(text: string): string[] {
  const entries: string[] = [];
  for (const segment of text.split(LIST_SEPARATORS)) {
    if (/<[^<>]*>/.test(segment)) {
      // Names around bracketed addresses are dropped; a bare address beside them is kept.
      for (const match of segment.matchAll(/<([^<>]*)>|(\S*@\S*)/g)) entries.push(match[1] ?? match[2] ?? '');
    } else entries.push(...segment.split(/\s+/));
  }
  return entries.filter((entry) => entry.trim() !== '');
}

/** The same address whatever its case (the server drops such duplicates too). */
export function addressKey(address: string): string {
  return address.trim().toLowerCase();
}

export interface AddRecipientsResult {
  /** The list with the new valid addresses appended (at most `max`). */
  recipients: string[];
  /** What was not added because it is not an address: left in the input for the sender to fix. */
  invalid: string[];
  /** Addresses already in the list (or repeated in the text): ignored. */
  duplicates: string[];
  /** Valid addresses that did not fit under `max`. */
  overLimit: string[];
}

/** Adds the addresses found in `text` to `current`, validated, without duplicates and up to `max`. */
export function addRecipients(current: readonly string[], text: string, max: number): AddRecipientsResult {
  return addAddresses(current, splitAddresses(text), max);
}

/**
 * Adds `entries` (addresses, e.g. the members of a contact group) to `current` in order, validated, without
 * duplicates and up to `max`: what does not fit is in `overLimit`.
 */
export function addAddresses(
  current: readonly string[],
  entries: readonly string[],
  max: number,
): AddRecipientsResult {
  const recipients = [...current];
  const seen = new Set(current.map(addressKey));
  const result: AddRecipientsResult = { recipients, invalid: [], duplicates: [], overLimit: [] };
  for (const entry of entries) {
    if (!isEmail(entry)) result.invalid.push(entry);
    else if (seen.has(addressKey(entry))) result.duplicates.push(entry);
    else if (recipients.length >= max) result.overLimit.push(entry);
    else {
      seen.add(addressKey(entry));
      recipients.push(entry.trim());
    }
  }
  return result;
}

/** True when typing `text` should turn what was typed into a chip: it ends with a separator. */
export function endsWithSeparator(text: string): boolean {
  return /[\s,;]$/.test(text);
}

/** The text typed after the last separator: what the address book is searched for. */
export function suggestionQuery(draft: string): string {
  return (draft.split(/[,;\s]+/).at(-1) ?? '').trim().slice(0, 200);
}
