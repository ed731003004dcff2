import { regexes } from 'zod/v4/core';

/** Longest e-mail address taken (RFC 5321 path limits, rounded as the API's `Email` schema has it). */
export const EMAIL_MAX_LENGTH = 320;

/**
 * True for an address the API's `Email` schema (api/transfer.ts) takes: the same pattern (zod's own e-mail
 * pattern, which `z.email()` checks with) on the trimmed text, at most EMAIL_MAX_LENGTH long. For pages that check
 * addresses as they are typed without loading zod's schemas; email.test.ts keeps the two equal.
 */
export function isEmail(value: string): boolean {
  const address = value.trim();
  return address.length <= EMAIL_MAX_LENGTH && regexes.email.test(address);
}
