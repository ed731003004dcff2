import {
  capTemplateAvailability,
  Email,
  type NotificationSettings,
  type TransferTemplate,
  type UserProfileUpdate,
} from '@ferry/core';

/** The most a template holds whatever the plan (TransferTemplate in @ferry/core). */
export const TEMPLATE_NAME_MAX = 255;
export const TEMPLATE_PASSWORD_MAX = 256;
export const TEMPLATE_RECIPIENTS_MAX = 50;

/** A template as the form edits it: text as typed. */
export interface TemplateDraft {
  name: string;
  message: string;
  /** Addresses separated by commas, semicolons, spaces or new lines. */
  recipients: string;
  password: string;
  /** Days, as typed; empty means the default rule (spec §4). */
  defaultAvailability: string;
  s2AsDefault: boolean;
}

export interface SettingsDraft {
  notifications: NotificationSettings;
  uploader: TemplateDraft;
  receiver: TemplateDraft;
}

/** The plan's limits a template is held to (spec §5, §9). */
export interface TemplateCaps {
  validityDays: number;
  recipients: number;
  messageLength: number;
}

export type TemplateField = 'name' | 'message' | 'recipients' | 'password' | 'defaultAvailability';

/** What is wrong with one field: an i18n key and its values. */
export interface FieldProblem {
  key: string;
  values?: Record<string, string | number>;
}

export type TemplateProblems = Partial<Record<TemplateField, FieldProblem>>;

export interface TemplateDraftResult {
  draft: TemplateDraft;
  /** The saved default availability was longer than the plan allows and is shown capped (spec §5). */
  capped: boolean;
}

/** A saved template as the form shows it; a default availability beyond the plan's validity is capped. */
export function templateDraftOf(template: TransferTemplate, caps: TemplateCaps): TemplateDraftResult {
  const saved = template.defaultAvailability;
  const days = saved === null ? null : capTemplateAvailability(saved, caps.validityDays);
  return {
    draft: {
      name: template.name ?? '',
      message: template.message ?? '',
      recipients: template.recipients.join(', '),
      password: template.password ?? '',
      defaultAvailability: days === null ? '' : String(days),
      s2AsDefault: template.s2AsDefault,
    },
    capped: saved !== null && days !== saved,
  };
}

/** The addresses of a typed list, without duplicates (whatever their case), and what is not an address. */
export function parseRecipients(text: string): { valid: string[]; invalid: string[] } {
  const valid: string[] = [];
  const invalid: string[] = [];
  const seen = new Set<string>();
  for (const entry of text.split(/[\s,;]+/)) {
    if (entry === '') continue;
    if (!Email.safeParse(entry).success) invalid.push(entry);
    else if (!seen.has(entry.toLowerCase())) {
      seen.add(entry.toLowerCase());
      valid.push(entry);
    }
  }
  return { valid, invalid };
}

/** Whole days from 1, as typed; null for anything else. */
function parseDays(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d+$/.test(trimmed)) return null;
  const days = Number(trimmed);
  return days >= 1 ? days : null;
}

/** What keeps a template draft from being saved: lengths, addresses, and days within the plan. */
export function templateProblems(draft: TemplateDraft, caps: TemplateCaps): TemplateProblems {
  const problems: TemplateProblems = {};
  if (draft.name.trim().length > TEMPLATE_NAME_MAX) {
    problems.name = { key: 'account:settings.error_too_long', values: { max: TEMPLATE_NAME_MAX } };
  }
  if (draft.message.trim().length > caps.messageLength) {
    problems.message = { key: 'account:settings.error_too_long', values: { max: caps.messageLength } };
  }
  const recipients = parseRecipients(draft.recipients);
  const maxRecipients = Math.min(caps.recipients, TEMPLATE_RECIPIENTS_MAX);
  if (recipients.invalid.length > 0) {
    problems.recipients = {
      key: 'account:settings.error_recipients_invalid',
      values: { list: recipients.invalid.join(', ') },
    };
  } else if (recipients.valid.length > maxRecipients) {
    problems.recipients = { key: 'account:settings.error_recipients_limit', values: { max: maxRecipients } };
  }
  if (draft.password.length > TEMPLATE_PASSWORD_MAX) {
    problems.password = { key: 'account:settings.error_too_long', values: { max: TEMPLATE_PASSWORD_MAX } };
  }
  if (draft.defaultAvailability.trim() !== '') {
    const days = parseDays(draft.defaultAvailability);
    if (days === null) problems.defaultAvailability = { key: 'account:settings.error_days_invalid' };
    else if (days > caps.validityDays) {
      problems.defaultAvailability = {
        key: 'account:settings.error_days_cap',
        values: { max: caps.validityDays },
      };
    }
  }
  return problems;
}

export function hasProblems(problems: TemplateProblems): boolean {
  return Object.keys(problems).length > 0;
}

/** The template to save from a valid draft: trimmed, empty text as null. */
export function templateOf(draft: TemplateDraft): TransferTemplate {
  const text = (value: string) => (value.trim() === '' ? null : value.trim());
  return {
    name: text(draft.name),
    message: text(draft.message),
    recipients: parseRecipients(draft.recipients).valid,
    // A password is kept as typed: spaces may be part of it.
    password: draft.password === '' ? null : draft.password,
    defaultAvailability: parseDays(draft.defaultAvailability),
    s2AsDefault: draft.s2AsDefault,
  };
}

/**
 * The PATCH /user/users/{id} body: the notification settings and the templates the user may change (a team
 * member's uploader template is their manager's, so it is not sent).
 */
export function settingsUpdate(draft: SettingsDraft, uploaderEditable: boolean): UserProfileUpdate {
  return {
    notificationSettings: draft.notifications,
    ...(uploaderEditable ? { uploaderTemplate: templateOf(draft.uploader) } : {}),
    receiverTemplate: templateOf(draft.receiver),
  };
}
