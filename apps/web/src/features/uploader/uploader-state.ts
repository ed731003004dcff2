import { defaultTransferValidityDays, type PlanLimits, type TransferCreateRequest } from '@ferry/core';
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
  /** Custom link of paying plans; not offered to anonymous senders yet, but cleared by reset (spec §4). */
  customLink: string;
  /** S1: tell the sender when a recipient downloads (spec §3 notificationSettings.transfer.downloadConfirmation). */
  downloadConfirmation: boolean;
  /** S2: the same for a link (spec §3 downloadConfirmationS2). */
  downloadConfirmationS2: boolean;
  /** S1: remind recipients who did not download before the transfer expires. */
  expiryReminder: boolean;
  /** S2: downloaders must give their e-mail address first. */
  forceEmailWhenDownloadS2: boolean;
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

/** What a template or plan contributes to a fresh form (spec §3 uploaderTemplate; none for anonymous). */
export interface FormTemplate {
  name?: string;
  message?: string;
  defaultAvailabilityDays?: number;
}

export interface UploaderState {
  step: UploaderStep;
  files: SelectedFile[];
  form: TransferForm;
}

export type UploaderAction =
  | { type: 'setFiles'; files: SelectedFile[] }
  | { type: 'setField'; field: FormField; value: string | number | boolean }
  | { type: 'setRecipients'; recipients: string[]; draft: string }
  /** The signed-in user's name, only into an empty field. */
  | { type: 'fillSenderName'; name: string }
  | { type: 'goTo'; step: UploaderStep }
  | { type: 'reset' };

export function defaultForm(
  limits: Pick<PlanLimits, 'fileValidityInDays'>,
  template: FormTemplate = {},
): TransferForm {
  const validity = defaultTransferValidityDays(limits.fileValidityInDays);
  return {
    recipients: [],
    recipientsDraft: '',
    ...NOTIFICATION_DEFAULTS,
    name: template.name ?? '',
    message: template.message ?? '',
    password: '',
    expiresInDays: Math.min(template.defaultAvailabilityDays ?? validity, validity),
    maxDownloads: '',
    allowPreview: true,
    senderEmail: '',
    senderName: '',
    customLink: '',
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
  };
}

/**
 * The wizard's reducer. `reset` follows spec §4: back to step 1, recipients, files, custom link and password
 * cleared, notification and template defaults reapplied; the sender's own e-mail and name (kept for
 * anonymous senders, spec §3) stay.
 */
export function createUploaderReducer(
  limits: Pick<PlanLimits, 'fileValidityInDays'>,
  template: FormTemplate = {},
) {
  return function uploaderReducer(state: UploaderState, action: UploaderAction): UploaderState {
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
      case 'reset':
        return {
          step: 1,
          files: [],
          form: {
            ...defaultForm(limits, template),
            senderEmail: state.form.senderEmail,
            senderName: state.form.senderName,
          },
        };
    }
  };
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
}

/** Whether Ferry writes to the sender, who must then give (and prove) an e-mail address. */
export function needsSenderEmail(form: TransferForm, type: UploadType): boolean {
  return type === 'S1' || form.downloadConfirmationS2;
}

export function formProblems(
  form: TransferForm,
  limits: Pick<PlanLimits, 'messageLength' | 'fileValidityInDays' | 'recipients'>,
  type: UploadType = 'S2',
): FormProblems {
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
  };
}

export function hasProblems(problems: FormProblems): boolean {
  return Object.values(problems).some(Boolean);
}

function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/**
 * The POST /transfer/transfers body for the chosen files and options. `senderVerificationToken` is the saved
 * proof for the sender's address, if any (then no code is needed).
 */
export function buildCreateRequest(
  state: UploaderState,
  type: UploadType,
  locale: string,
  senderVerificationToken?: string,
): TransferCreateRequest {
  const { form } = state;
  const notifications: Partial<TransferCreateRequest> =
    type === 'S1'
      ? {
          recipients: [...form.recipients],
          downloadConfirmation: form.downloadConfirmation,
          expiryReminder: form.expiryReminder,
        }
      : {
          downloadConfirmation: form.downloadConfirmationS2,
          forceEmailWhenDownloadS2: form.forceEmailWhenDownloadS2,
        };
  const senderEmail = optional(form.senderEmail);
  return {
    type,
    ...notifications,
    name: optional(form.name),
    message: form.message.trim() === '' ? undefined : form.message,
    password: form.password === '' ? undefined : form.password,
    expiresInDays: form.expiresInDays,
    maxDownloads: optional(form.maxDownloads) === undefined ? undefined : Number(form.maxDownloads.trim()),
    allowPreview: form.allowPreview,
    senderEmail,
    senderName: optional(form.senderName),
    ...(senderEmail && senderVerificationToken ? { senderVerificationToken } : {}),
    locale,
    files: state.files.map((f) => ({
      name: f.name,
      size: f.size,
      ...(f.relativePath ? { relativePath: f.relativePath } : {}),
    })),
  };
}
