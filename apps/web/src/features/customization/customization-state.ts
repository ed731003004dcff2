import {
  type ContrastProblem,
  readableTextOn,
  type Theme,
  type ThemeColorField,
  type ThemeUpdate,
  themeContrastProblems,
} from '@ferry/core';
import { normalizeHex } from '../widget/theme';

/** What /dashboard/customization edits, before it is saved. */
export interface CustomizationDraft {
  backgroundColor: string;
  actionColor: string;
  startbtnColor: string;
  recipientLabel: string;
  subject: string;
  logoURL: string | null;
  mailHeaderURL: string | null;
  wallpaperURLs: string[];
  backgroundVideoURL: string | null;
}

export const COLOR_FIELDS: readonly ThemeColorField[] = ['backgroundColor', 'actionColor', 'startbtnColor'];

export function draftOf(theme: Theme): CustomizationDraft {
  return {
    backgroundColor: normalizeHex(theme.backgroundColor) ?? theme.backgroundColor,
    actionColor: normalizeHex(theme.actionColor) ?? theme.actionColor,
    startbtnColor: normalizeHex(theme.startbtnColor) ?? theme.startbtnColor,
    recipientLabel: theme.uploader.recipientLabel ?? '',
    subject: theme.uploader.subject ?? '',
    logoURL: theme.logoURL,
    mailHeaderURL: theme.mailHeaderURL,
    wallpaperURLs: [...theme.customization.wallpaperURLs],
    backgroundVideoURL: theme.customization.backgroundVideoURL,
  };
}

/** A colour field's text: a hex colour, or null while it is not one. */
export function colorError(value: string): 'invalid' | null {
  return normalizeHex(value) ? null : 'invalid';
}

/** The contrast problems of the draft's colours (core rule, the one the server enforces), by field. */
export function contrastProblems(
  draft: CustomizationDraft,
): Partial<Record<ThemeColorField, ContrastProblem>> {
  const colors = Object.fromEntries(COLOR_FIELDS.map((f) => [f, normalizeHex(draft[f])]));
  return Object.fromEntries(themeContrastProblems(colors).map((p) => [p.field, p]));
}

/** Whether the draft may be saved: every colour a hex colour that reads. */
export function draftValid(draft: CustomizationDraft): boolean {
  return (
    COLOR_FIELDS.every((f) => colorError(draft[f]) === null) &&
    Object.keys(contrastProblems(draft)).length === 0
  );
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The PUT body: the fields that changed since `saved` (nothing else is sent). */
export function updateOf(draft: CustomizationDraft, saved: CustomizationDraft): ThemeUpdate {
  const body: ThemeUpdate = {};
  for (const f of COLOR_FIELDS) {
    const v = normalizeHex(draft[f]);
    if (v && v !== normalizeHex(saved[f])) body[f] = v;
  }
  if (draft.logoURL !== saved.logoURL) body.logoURL = draft.logoURL;
  if (draft.mailHeaderURL !== saved.mailHeaderURL) body.mailHeaderURL = draft.mailHeaderURL;
  const customization: NonNullable<ThemeUpdate['customization']> = {};
  if (!same(draft.wallpaperURLs, saved.wallpaperURLs)) customization.wallpaperURLs = draft.wallpaperURLs;
  if (draft.backgroundVideoURL !== saved.backgroundVideoURL)
    customization.backgroundVideoURL = draft.backgroundVideoURL;
  if (Object.keys(customization).length > 0) body.customization = customization;
  const uploader: NonNullable<ThemeUpdate['uploader']> = {};
  if (draft.recipientLabel.trim() !== saved.recipientLabel.trim())
    uploader.recipientLabel = draft.recipientLabel.trim() || null;
  if (draft.subject.trim() !== saved.subject.trim()) uploader.subject = draft.subject.trim() || null;
  if (Object.keys(uploader).length > 0) body.uploader = uploader;
  return body;
}

export function isDirty(draft: CustomizationDraft, saved: CustomizationDraft): boolean {
  return Object.keys(updateOf(draft, saved)).length > 0;
}

/** The live preview's colours (CSS custom properties), each valid one as typed, else the saved one. */
export function previewVariables(
  draft: CustomizationDraft,
  saved: CustomizationDraft,
): Record<string, string> {
  const pick = (f: ThemeColorField) => normalizeHex(draft[f]) ?? normalizeHex(saved[f]) ?? saved[f];
  const bg = pick('backgroundColor');
  const action = pick('actionColor');
  const start = pick('startbtnColor');
  return {
    '--preview-bg': bg,
    '--preview-bg-text': readableTextOn(bg),
    '--preview-action': action,
    '--preview-action-text': '#ffffff',
    '--preview-start': start,
    '--preview-start-text': readableTextOn(start),
  };
}
