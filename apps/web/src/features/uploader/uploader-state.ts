import { defaultTransferValidityDays, type PlanLimits, type TransferCreateRequest } from '@ferry/core';
import type { SelectedFile } from './selection';

/** Wizard steps, numbered from 1 (spec §4): files, options, upload, done. */
export type UploaderStep = 1 | 2 | 3 | 4;

/** The sender's choices (spec §3 "Transfer form state", the part the S2 uploader uses). */
export interface TransferForm {
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
}

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
  | { type: 'setField'; field: keyof TransferForm; value: string | number | boolean }
  | { type: 'goTo'; step: UploaderStep }
  | { type: 'reset' };

export function defaultForm(
  limits: Pick<PlanLimits, 'fileValidityInDays'>,
  template: FormTemplate = {},
): TransferForm {
  const validity = defaultTransferValidityDays(limits.fileValidityInDays);
  return {
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
 * The wizard's reducer. `reset` follows spec §4: back to step 1, files, custom link and password cleared,
 * template defaults reapplied; the sender's own e-mail and name (kept for anonymous senders, spec §3) stay.
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
  messageTooLong: boolean;
  invalidEmail: boolean;
  invalidMaxDownloads: boolean;
  invalidExpiry: boolean;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function formProblems(
  form: TransferForm,
  limits: Pick<PlanLimits, 'messageLength' | 'fileValidityInDays'>,
): FormProblems {
  const max = form.maxDownloads.trim();
  return {
    messageTooLong: form.message.length > limits.messageLength,
    invalidEmail: form.senderEmail.trim() !== '' && !EMAIL.test(form.senderEmail.trim()),
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

/** The POST /transfer/transfers body for the chosen files and options. */
export function buildCreateRequest(
  state: UploaderState,
  type: 'S2' | 'S1',
  locale: string,
): TransferCreateRequest {
  const { form } = state;
  return {
    type,
    name: optional(form.name),
    message: form.message.trim() === '' ? undefined : form.message,
    password: form.password === '' ? undefined : form.password,
    expiresInDays: form.expiresInDays,
    maxDownloads: optional(form.maxDownloads) === undefined ? undefined : Number(form.maxDownloads.trim()),
    allowPreview: form.allowPreview,
    senderEmail: optional(form.senderEmail),
    senderName: optional(form.senderName),
    locale,
    files: state.files.map((f) => ({
      name: f.name,
      size: f.size,
      ...(f.relativePath ? { relativePath: f.relativePath } : {}),
    })),
  };
}
