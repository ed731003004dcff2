import {
  GB,
  type InboxCreate,
  InboxSlug,
  type InboxUpdate,
  type InboxView,
  type ReceiveLinkMode,
  type ReceiveThemeInput,
} from '@ferry/core';
import { normalizeHex, THEME_KEYS, type ThemeKey } from '../widget/theme';
import {
  DEFAULT_FIELDS,
  type FieldsDraft,
  fieldsDraftOf,
  fieldsOfDraft,
  questionProblems,
} from './fields-state';

export const MB = 1e6;
export const TITLE_MAX = 200;
export const DESCRIPTION_MAX = 5000;
export const PASSWORD_MAX = 256;

/**
 * What the owner may set on an inbox: their (team's) uploader settings (spec §3) and their plan's limits
 * (spec §9). The server enforces the same; the form explains instead of failing.
 */
export interface InboxCaps {
  allowInboxS1: boolean;
  allowInboxS2: boolean;
  passwordOpt: boolean;
  requirePassword: boolean;
  allowCustomization: boolean;
  notificationOpt: boolean;
  availabilityOpt: boolean;
  /** The owner's (team's) receiveAllowedExtensions; [] = all. */
  teamExtensions: string[];
  /** The plan's upload size, bytes. */
  maxUploadBytes: number;
  /** The plan's file validity, days. */
  validityDays: number;
  /** A team member: the rules come from their manager. */
  managed: boolean;
}

export type SizeUnit = 'MB' | 'GB';
export type ThemeDraft = Record<ThemeKey, string | null>;

export interface InboxDraft {
  title: string;
  slug: string;
  /** The owner typed the address: it no longer follows the title. */
  slugTouched: boolean;
  description: string;
  linkMode: ReceiveLinkMode;
  /** A new password (empty: unchanged, or none on a new inbox). */
  password: string;
  /** The inbox has a password now (edit). */
  passwordProtected: boolean;
  removePassword: boolean;
  allowedExtensions: string[];
  maxUpload: string;
  maxUploadUnit: SizeUnit;
  validityDays: string;
  fields: FieldsDraft;
  uploadNotification: boolean;
  colors: ThemeDraft;
}

export const NO_COLORS: ThemeDraft = { backgroundColor: null, actionColor: null, startbtnColor: null };

export function newInboxDraft(caps: Pick<InboxCaps, 'allowInboxS1' | 'allowInboxS2'>): InboxDraft {
  return {
    title: '',
    slug: '',
    slugTouched: false,
    description: '',
    linkMode: caps.allowInboxS2 || !caps.allowInboxS1 ? 'S2' : 'S1',
    password: '',
    passwordProtected: false,
    removePassword: false,
    allowedExtensions: [],
    maxUpload: '',
    maxUploadUnit: 'GB',
    validityDays: '',
    fields: DEFAULT_FIELDS,
    uploadNotification: true,
    colors: NO_COLORS,
  };
}

/** A byte count as the form shows it: whole megabytes below 1 GB, gigabytes (up to 3 decimals) above. */
export function sizeDraftOf(bytes: number | null): { value: string; unit: SizeUnit } {
  if (bytes === null) return { value: '', unit: 'GB' };
  if (bytes < GB) return { value: String(Math.round((bytes / MB) * 1000) / 1000), unit: 'MB' };
  return { value: String(Math.round((bytes / GB) * 1000) / 1000), unit: 'GB' };
}

export function inboxDraftOf(inbox: InboxView): InboxDraft {
  const size = sizeDraftOf(inbox.maxUploadBytes);
  return {
    title: inbox.title,
    slug: inbox.slug,
    slugTouched: true,
    description: inbox.description ?? '',
    linkMode: inbox.linkMode,
    password: '',
    passwordProtected: inbox.passwordProtected,
    removePassword: false,
    allowedExtensions: [...inbox.allowedExtensions],
    maxUpload: size.value,
    maxUploadUnit: size.unit,
    validityDays: inbox.fileValidityDays === null ? '' : String(inbox.fileValidityDays),
    fields: fieldsDraftOf(inbox.fields),
    uploadNotification: inbox.uploadNotification,
    colors: { ...inbox.customization },
  };
}

/** An address made from the title: "Client files — 2025" → "client-files-2025" (3–40 characters). */
export function slugFromTitle(title: string): string {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
}

/** The typed size in bytes; null when empty (the plan's), NaN when not a positive number. */
export function sizeInBytes(value: string, unit: SizeUnit): number | null {
  const text = value.trim().replace(',', '.');
  if (text === '') return null;
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) return Number.NaN;
  return Math.round(n * (unit === 'GB' ? GB : MB));
}

/** The typed number of days; null when empty (the default), NaN when not a whole number from 1. */
export function daysOf(value: string): number | null {
  const text = value.trim();
  if (text === '') return null;
  return /^\d+$/.test(text) && Number(text) >= 1 ? Number(text) : Number.NaN;
}

export interface InboxProblems {
  title?: 'required' | 'too_long';
  slug?: 'invalid' | 'taken';
  description?: 'too_long';
  linkMode?: 'not_allowed';
  password?: 'required' | 'too_long';
  /** Extensions outside the team's list. */
  extensions?: string[];
  maxUpload?: 'invalid' | 'too_big';
  validityDays?: 'invalid' | 'too_long';
  questions?: Record<string, 'label_required' | 'label_too_long'>;
}

export function linkModeAllowed(
  mode: ReceiveLinkMode,
  caps: Pick<InboxCaps, 'allowInboxS1' | 'allowInboxS2'>,
) {
  return mode === 'S1' ? caps.allowInboxS1 : caps.allowInboxS2;
}

/** What the owner must fix before saving; `original` is the inbox being edited (null for a new one). */
export function inboxProblems(draft: InboxDraft, caps: InboxCaps, original: InboxView | null): InboxProblems {
  const problems: InboxProblems = {};
  const title = draft.title.trim();
  if (title === '') problems.title = 'required';
  else if (title.length > TITLE_MAX) problems.title = 'too_long';
  if (!InboxSlug.safeParse(draft.slug).success) problems.slug = 'invalid';
  if (draft.description.length > DESCRIPTION_MAX) problems.description = 'too_long';
  const modeChanged = original === null || original.linkMode !== draft.linkMode;
  if (modeChanged && !linkModeAllowed(draft.linkMode, caps)) problems.linkMode = 'not_allowed';
  const keepsPassword = draft.passwordProtected && !draft.removePassword;
  if (draft.password.length > PASSWORD_MAX) problems.password = 'too_long';
  else if (caps.requirePassword && draft.password === '' && !keepsPassword) problems.password = 'required';
  if (caps.teamExtensions.length > 0) {
    const outside = draft.allowedExtensions.filter((e) => !caps.teamExtensions.includes(e));
    if (outside.length > 0) problems.extensions = outside;
  }
  const bytes = sizeInBytes(draft.maxUpload, draft.maxUploadUnit);
  if (bytes !== null && Number.isNaN(bytes)) problems.maxUpload = 'invalid';
  else if (bytes !== null && bytes > caps.maxUploadBytes) problems.maxUpload = 'too_big';
  if (caps.availabilityOpt) {
    const days = daysOf(draft.validityDays);
    if (days !== null && Number.isNaN(days)) problems.validityDays = 'invalid';
    else if (days !== null && days > caps.validityDays) problems.validityDays = 'too_long';
  }
  const questions = questionProblems(draft.fields);
  if (Object.keys(questions).length > 0) problems.questions = questions;
  return problems;
}

export function hasInboxProblems(problems: InboxProblems): boolean {
  return Object.keys(problems).length > 0;
}

/** The colours as the API takes them: a hex code each, null for the default. */
export function themeInput(colors: ThemeDraft): ReceiveThemeInput {
  const out: ReceiveThemeInput = {};
  for (const key of THEME_KEYS) out[key] = colors[key] === null ? null : normalizeHex(colors[key] ?? '');
  return out;
}

function hasColors(colors: ThemeDraft): boolean {
  return THEME_KEYS.some((key) => colors[key] !== null);
}

/** POST /receive/inboxes from a checked draft: only what the owner's settings let them set. */
export function inboxCreateOf(draft: InboxDraft, caps: InboxCaps): InboxCreate {
  const bytes = sizeInBytes(draft.maxUpload, draft.maxUploadUnit);
  const days = caps.availabilityOpt ? daysOf(draft.validityDays) : null;
  const body: InboxCreate = {
    slug: draft.slug,
    title: draft.title.trim(),
    linkMode: draft.linkMode,
    allowedExtensions: draft.allowedExtensions,
    fields: fieldsOfDraft(draft.fields, draft.linkMode),
  };
  if (draft.description.trim() !== '') body.description = draft.description.trim();
  if (draft.password !== '' && (caps.passwordOpt || caps.requirePassword)) body.password = draft.password;
  if (bytes !== null) body.maxUploadBytes = bytes;
  if (days !== null) body.fileValidityDays = days;
  if (caps.notificationOpt) body.uploadNotification = draft.uploadNotification;
  if (caps.allowCustomization && hasColors(draft.colors)) body.customization = themeInput(draft.colors);
  return body;
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** PATCH /receive/inboxes/{id} from a checked draft: the fields that changed, nothing else. */
export function inboxUpdateOf(draft: InboxDraft, original: InboxView, caps: InboxCaps): InboxUpdate {
  const patch: InboxUpdate = {};
  const title = draft.title.trim();
  if (title !== original.title) patch.title = title;
  if (draft.slug !== original.slug) patch.slug = draft.slug;
  const description = draft.description.trim() === '' ? null : draft.description.trim();
  if (description !== original.description) patch.description = description;
  if (draft.linkMode !== original.linkMode) patch.linkMode = draft.linkMode;
  if (draft.password !== '') patch.password = draft.password;
  else if (draft.removePassword && original.passwordProtected) patch.password = null;
  if (!same(draft.allowedExtensions, original.allowedExtensions))
    patch.allowedExtensions = draft.allowedExtensions;
  const bytes = sizeInBytes(draft.maxUpload, draft.maxUploadUnit);
  const sameSize =
    bytes === original.maxUploadBytes ||
    same(sizeDraftOf(original.maxUploadBytes), { value: draft.maxUpload.trim(), unit: draft.maxUploadUnit });
  if (!sameSize) patch.maxUploadBytes = bytes;
  if (caps.availabilityOpt) {
    const days = daysOf(draft.validityDays);
    if (days !== original.fileValidityDays) patch.fileValidityDays = days;
  }
  const fields = fieldsOfDraft(draft.fields, draft.linkMode);
  if (!same(fields, original.fields)) patch.fields = fields;
  if (caps.notificationOpt && draft.uploadNotification !== original.uploadNotification)
    patch.uploadNotification = draft.uploadNotification;
  if (caps.allowCustomization && !same(themeInput(draft.colors), themeInput(original.customization)))
    patch.customization = themeInput(draft.colors);
  return patch;
}
