import {
  type CustomLinkProblem,
  capTemplateAvailability,
  customLinkProblem,
  defaultTransferValidityDays,
  OPEN_GRAPH_DESCRIPTION_MAX,
  OPEN_GRAPH_TITLE_MAX,
  type OpenGraphTextProblem,
  openGraphTextProblem,
  type PlanLimits,
  type UploaderSettings,
} from '@ferry/core';
import { fromLocalInput } from '../../lib/local-datetime';
import { isEmail } from './recipients';
import type { SelectedFile } from './selection';

/** The types this uploader sends: S1 by e-mail, S2 by link. */
export type UploadType = 'S1' | 'S2';

/** Wizard steps, numbered from 1 (spec §4): files, options, upload, done. */
export type UploaderStep = 1 | 2 | 3 | 4;

/** The sender's choices (spec §3 "Transfer form state", the part the S1 and S2 uploader uses). */
export interface TransferForm {
  /** S1: who gets the transfer by e-mail (valid, without duplicates). */
  recipients: string[];
  /** S1: what is typed in the recipients field and not yet an address chip. */
  recipientsDraft: string;
  name: string;
  message: string;
  password: string;
  expiresInDays: number;
  /** As typed; '' means no limit. */
  maxDownloads: string;
  allowPreview: boolean;
  senderEmail: string;
  senderName: string;
  /** Custom link of paying plans (`/dl/{customLink}`); '' for none; cleared by reset (spec §4). */
  customLink: string;
  /** Spec §3 "from" date: a `datetime-local` value in the browser's time zone; '' opens once uploaded. */
  availableFrom: string;
  /** S1: tell the sender when a recipient downloads (spec §3 notificationSettings.transfer.downloadConfirmation). */
  downloadConfirmation: boolean;
  /** S2: the same for a link (spec §3 downloadConfirmationS2). */
  downloadConfirmationS2: boolean;
  /** S1: remind recipients who did not download before the transfer expires. */
  expiryReminder: boolean;
  /** S2: downloaders must give their e-mail address first. */
  forceEmailWhenDownloadS2: boolean;
  /** Spec §3 `customization` (paid plans): this transfer's download page gets the colours and wallpaper below. */
  pageCustomized: boolean;
  /** Hex colours ('' keeps the account theme's) and one of the account's wallpapers ('' for none). */
  pageBackgroundColor: string;
  pageActionColor: string;
  pageStartColor: string;
  pageWallpaperURL: string;
  /**
   * Spec §3 `openGraph` (paid plans, links): what chat apps and social sites show for the download page instead
   * of its name and size; '' keeps the default. Cleared by reset.
   */
  ogTitle: string;
  ogDescription: string;
}

/** Fields set with `setField`: the recipients have their own action. */
export type FormField = Exclude<keyof TransferForm, 'recipients'>;

/** Notification defaults (spec §4 "reapplies notification defaults"): on for S1, off for a link. */
export const NOTIFICATION_DEFAULTS = {
  downloadConfirmation: true,
  downloadConfirmationS2: false,
  expiryReminder: true,
  forceEmailWhenDownloadS2: false,
} as const satisfies Partial<TransferForm>;

/**
 * What the account contributes to a fresh form (spec §3 uploaderTemplate and notificationSettings.transfer;
 * nothing for anonymous senders).
 */
export interface FormTemplate {
  name?: string;
  message?: string;
  /** S1 recipients the form starts with. */
  recipients?: readonly string[];
  password?: string;
  /** Capped at the validity limit when applied (spec §5). */
  defaultAvailabilityDays?: number;
  /** The account's notification defaults, over NOTIFICATION_DEFAULTS. */
  notifications?: Partial<Record<keyof typeof NOTIFICATION_DEFAULTS, boolean>>;
}

/** What a fresh form is made of: the validity limit and the template. */
export interface FormDefaults {
  limits: Pick<PlanLimits, 'fileValidityInDays'>;
  template: FormTemplate;
}

export interface UploaderState {
  step: UploaderStep;
  files: SelectedFile[];
  form: TransferForm;
  /** The defaults the form was last filled with: reset reapplies them (spec §4). */
  defaults: FormDefaults;
}

export type UploaderAction =
  | { type: 'setFiles'; files: SelectedFile[] }
  | { type: 'setField'; field: FormField; value: string | number | boolean }
  | { type: 'setRecipients'; recipients: string[]; draft: string }
  /** The signed-in user's name, only into an empty field. */
  | { type: 'fillSenderName'; name: string }
  | { type: 'goTo'; step: UploaderStep }
  /** The account's limits, settings or template arrived (or changed with the signed-in user). */
  | { type: 'prefill'; defaults: FormDefaults }
  | { type: 'reset' };

export function defaultForm(
  limits: Pick<PlanLimits, 'fileValidityInDays'>,
  template: FormTemplate = {},
): TransferForm {
  const expiresInDays =
    template.defaultAvailabilityDays === undefined
      ? defaultTransferValidityDays(limits.fileValidityInDays)
      : capTemplateAvailability(template.defaultAvailabilityDays, limits.fileValidityInDays);
  return {
    recipients: [...(template.recipients ?? [])],
    recipientsDraft: '',
    ...NOTIFICATION_DEFAULTS,
    ...template.notifications,
    name: template.name ?? '',
    message: template.message ?? '',
    password: template.password ?? '',
    expiresInDays,
    maxDownloads: '',
    allowPreview: true,
    senderEmail: '',
    senderName: '',
    customLink: '',
    availableFrom: '',
    pageCustomized: false,
    pageBackgroundColor: '',
    pageActionColor: '',
    pageStartColor: '',
    pageWallpaperURL: '',
    ogTitle: '',
    ogDescription: '',
  };
}

export function initialUploaderState(
  limits: Pick<PlanLimits, 'fileValidityInDays'>,
  sender: { email: string; name: string },
  template: FormTemplate = {},
): UploaderState {
  return {
    step: 1,
    files: [],
    form: { ...defaultForm(limits, template), senderEmail: sender.email, senderName: sender.name },
    defaults: { limits, template },
  };
}

/** The fields a template or the notification defaults fill in. */
const PREFILLED_FIELDS = [
  'name',
  'message',
  'recipients',
  'password',
  'expiresInDays',
  'downloadConfirmation',
  'downloadConfirmationS2',
  'expiryReminder',
  'forceEmailWhenDownloadS2',
] as const satisfies readonly (keyof TransferForm)[];

function sameValue(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) ? a.join('\n') === b.join('\n') : a === b;
}

/**
 * New defaults over a form in use: what the sender has not changed yet (still the old default) takes the new
 * default; what they changed stays, except an expiry beyond the new validity limit.
 */
function prefill(state: UploaderState, defaults: FormDefaults): UploaderState {
  if (defaults === state.defaults) return state;
  const before = defaultForm(state.defaults.limits, state.defaults.template);
  const after = defaultForm(defaults.limits, defaults.template);
  const form: Record<string, unknown> = { ...state.form };
  for (const field of PREFILLED_FIELDS) {
    if (sameValue(form[field], before[field])) form[field] = after[field];
  }
  const next = form as unknown as TransferForm;
  if (next.expiresInDays > defaults.limits.fileValidityInDays) next.expiresInDays = after.expiresInDays;
  return { ...state, form: next, defaults };
}

/**
 * The wizard's reducer. `reset` follows spec §4: back to step 1, recipients, files, custom link and password
 * cleared, notification and template defaults reapplied; the sender's own e-mail and name (kept for
 * anonymous senders, spec §3) stay.
 */
export function uploaderReducer(state: UploaderState, action: UploaderAction): UploaderState {
  switch (action.type) {
    case 'setFiles':
      return { ...state, files: action.files, step: action.files.length === 0 ? 1 : state.step };
    case 'setField':
      return { ...state, form: { ...state.form, [action.field]: action.value } };
    case 'setRecipients':
      return {
        ...state,
        form: { ...state.form, recipients: action.recipients, recipientsDraft: action.draft },
      };
    case 'fillSenderName':
      if (state.form.senderName.trim() !== '') return state;
      return { ...state, form: { ...state.form, senderName: action.name } };
    case 'goTo':
      // Options need files; upload and done steps may run a resumed transfer with no selection.
      if (action.step === 2 && state.files.length === 0) return state;
      return { ...state, step: action.step };
    case 'prefill':
      return prefill(state, action.defaults);
    case 'reset':
      return {
        step: 1,
        files: [],
        form: {
          ...defaultForm(state.defaults.limits, state.defaults.template),
          senderEmail: state.form.senderEmail,
          senderName: state.form.senderName,
        },
        defaults: state.defaults,
      };
  }
}

export interface FormProblems {
  /** S1 without a single recipient. */
  noRecipients: boolean;
  /** S1 with more recipients than the plan allows. */
  tooManyRecipients: boolean;
  /** S1 with text in the recipients field that is not (yet) an address. */
  recipientsDraftLeft: boolean;
  /** Ferry will write to the sender (S1, or a link with download confirmations) and has no address. */
  senderEmailRequired: boolean;
  messageTooLong: boolean;
  invalidEmail: boolean;
  invalidMaxDownloads: boolean;
  invalidExpiry: boolean;
  /** The (team's) uploader settings require a password and none is set. */
  passwordRequired: boolean;
  /** Why the custom link typed would be refused (core customLinkProblem); null when none or fine. */
  customLink: CustomLinkProblem | null;
  /** An opening date that is not in the future (or not a date). */
  availableFromPast: boolean;
  /** Why the link-preview title or description would be refused (core openGraphTextProblem); S2 only. */
  ogTitle: OpenGraphTextProblem | null;
  ogDescription: OpenGraphTextProblem | null;
}

/** The uploader settings (spec §3) that shape the options form. */
export type FormSettings = Pick<
  UploaderSettings,
  | 'passwordOpt'
  | 'requirePassword'
  | 'downloadLimitOpt'
  | 'filePreviewOpt'
  | 'notificationOpt'
  | 'requireForceEmailWhenDownloadS2'
>;

/** No restriction: the defaults of spec §3 (anonymous senders). */
export const OPEN_FORM_SETTINGS: Readonly<FormSettings> = {
  passwordOpt: true,
  requirePassword: false,
  downloadLimitOpt: true,
  filePreviewOpt: true,
  notificationOpt: true,
  requireForceEmailWhenDownloadS2: false,
};

/** The password field is offered when the settings allow a password or require one. */
export function passwordShown(settings: FormSettings): boolean {
  return settings.passwordOpt || settings.requirePassword;
}

/** Whether Ferry writes to the sender, who must then give (and prove) an e-mail address. */
export function needsSenderEmail(form: TransferForm, type: UploadType): boolean {
  return type === 'S1' || form.downloadConfirmationS2;
}

export function formProblems(
  form: TransferForm,
  limits: Pick<PlanLimits, 'messageLength' | 'fileValidityInDays' | 'recipients'>,
  type: UploadType = 'S2',
  settings: FormSettings = OPEN_FORM_SETTINGS,
  now: Date = new Date(),
): FormProblems {
  const opens = form.availableFrom === '' ? null : fromLocalInput(form.availableFrom);
  const max = form.maxDownloads.trim();
  const s1 = type === 'S1';
  return {
    noRecipients: s1 && form.recipients.length === 0,
    tooManyRecipients: s1 && form.recipients.length > limits.recipients,
    recipientsDraftLeft: s1 && form.recipientsDraft.trim() !== '',
    senderEmailRequired: needsSenderEmail(form, type) && form.senderEmail.trim() === '',
    messageTooLong: form.message.length > limits.messageLength,
    invalidEmail: form.senderEmail.trim() !== '' && !isEmail(form.senderEmail),
    invalidMaxDownloads: max !== '' && !(/^\d+$/.test(max) && Number(max) >= 1 && Number(max) <= 1_000_000),
    invalidExpiry:
      !Number.isInteger(form.expiresInDays) ||
      form.expiresInDays < 1 ||
      form.expiresInDays > limits.fileValidityInDays,
    passwordRequired: settings.requirePassword && form.password === '',
    customLink: form.customLink === '' ? null : customLinkProblem(form.customLink),
    availableFromPast: form.availableFrom !== '' && (!opens || opens.getTime() <= now.getTime()),
    // Only a link's page shows a preview of the transfer: an e-mail transfer sends none (create-request).
    ogTitle: s1 ? null : openGraphTextProblem(form.ogTitle, OPEN_GRAPH_TITLE_MAX),
    ogDescription: s1 ? null : openGraphTextProblem(form.ogDescription, OPEN_GRAPH_DESCRIPTION_MAX),
  };
}

export function hasProblems(problems: FormProblems): boolean {
  return Object.values(problems).some(Boolean);
}
