import { hasLayoutControlChars } from './text.js';

// The link-preview text rule without zod, so that a page checking it (the uploader) does not load zod to draw.

/** The longest custom link-preview title and description (spec §3 open-graph customization). */
export const OPEN_GRAPH_TITLE_MAX = 120;
export const OPEN_GRAPH_DESCRIPTION_MAX = 300;

/** Why a link-preview text would be refused: longer than its field allows, or holding a control character. */
export type OpenGraphTextProblem = 'too_long' | 'control_chars';

/**
 * The rule of TransferOpenGraph's fields, said before a request is made (the uploader's fields, `ferry send
 * --og-title`): the text is counted as it is sent, without surrounding spaces, in UTF-16 code units as the
 * server counts it. Null when it would be accepted (an empty text too: it is no choice).
 */
export function openGraphTextProblem(text: string, max: number): OpenGraphTextProblem | null {
  const sent = text.trim();
  if (hasLayoutControlChars(sent)) return 'control_chars';
  return sent.length > max ? 'too_long' : null;
}
