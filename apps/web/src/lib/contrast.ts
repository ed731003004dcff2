/**
 * WCAG 2 contrast between colours (the arithmetic is core's, shared with the server's theme rule). The app's own
 * tokens (base.css) are held to 4.5:1 for text by styles/contrast.test.ts; an owner's theme colours get whichever
 * text colour reads better (textOn).
 */
import { contrastBetween, relativeLuminance } from '@ferry/core';

/** WCAG relative luminance of a hex colour (anything else counts as black). */
export const luminance = relativeLuminance;

/** The contrast ratio of two colours, from 1 (same) to 21 (black on white). */
export const contrastRatio = contrastBetween;

const LIGHT_TEXT = '#ffffff';
// Black (not the app's dark grey): with white, it gives every colour a contrast of at least 4.5:1.
const DARK_TEXT = '#000000';

/** White or black text, whichever reads better on `background` (any owner colour stays legible). */
export function textOn(background: string): string {
  return contrastRatio(background, LIGHT_TEXT) >= contrastRatio(background, DARK_TEXT)
    ? LIGHT_TEXT
    : DARK_TEXT;
}
