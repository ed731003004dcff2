import {
  capTemplateAvailability,
  type PlanLimits,
  RECEIVE_DEFAULT_DAYS_FREE,
  RECEIVE_DEFAULT_DAYS_PAYING,
  type ReceiveLinkMode,
  type ReceiveRequestCreate,
  type ReceiveRequestView,
  type UploaderSettings,
} from '@ferry/core';
import { isEmail } from '../uploader/recipients';

/** The receive form of spec §3 ("Receive form state"), the part the requester fills in. */
export interface RequestForm {
  /** S1: who is asked by e-mail (valid, without duplicates). */
  recipients: string[];
  /** S1: what is typed in the recipients field and not yet an address chip. */
  recipientsDraft: string;
  subject: string;
  message: string;
  senderName: string;
  senderEmail: string;
  /** The request's own address `/r/{customId}` ('' = a random one). */
  customId: string;
  password: string;
  expiresInDays: number;
  /** S1: remind asked people who have not uploaded before it expires. */
  expiryReminder: boolean;
  /** Mail the requester on each upload. */
  uploadNotification: boolean;
  /** Allowed extensions as typed ("pdf, docx"); '' = every type. */
  allowedExtensions: string;
  /** The spec §3 theme colours, used only when `customize` is on (and the settings allow it). */
  customize: boolean;
  backgroundColor: string;
  actionColor: string;
  startbtnColor: string;
}

export type RequestField = Exclude<keyof RequestForm, 'recipients'>;

/** Wizard steps (spec §3 "step"): the form, then the request's link or the asked people's delivery. */
export type RequestStep = 1 | 2;

/** What a fresh form is made of (spec §3 receiverTemplate and notificationSettings.receive, §5 expiry). */
export interface RequestDefaults {
  /** The plan's file validity: no request lasts longer. */
  validityDays: number;
  payingUser: boolean;
  template: {
    /** The template's `name`: the request's subject. */
    subject?: string;
    message?: string;
    recipients?: readonly string[];
    password?: string;
    defaultAvailabilityDays?: number;
  };
  notifications: { expiryReminder: boolean; upload: boolean };
  senderName: string;
  senderEmail: string;
}

export interface RequestFormState {
  step: RequestStep;
  form: RequestForm;
  defaults: RequestDefaults;
  /** The created request (step 2). */
  created: ReceiveRequestView | null;
}

export type RequestFormAction =
  | { type: 'setField'; field: RequestField; value: string | number | boolean }
  | { type: 'setRecipients'; recipients: string[]; draft: string }
  | { type: 'prefill'; defaults: RequestDefaults }
  | { type: 'created'; request: ReceiveRequestView }
  | { type: 'reset' };

/** Spec §3 theme defaults, the colour pickers' starting values. */
export const THEME_DEFAULTS = {
  backgroundColor: '#4052b5',
  actionColor: '#3f51b5',
  startbtnColor: '#ff6208',
};

/**
 * Days a new request stays open: the template's default availability when it has one, else 21 days for paying
 * users and 7 for others (spec §5, §9) — never more than the plan's validity.
 */
export function defaultRequestDays(
  defaults: Pick<RequestDefaults, 'validityDays' | 'payingUser' | 'template'>,
) {
  const days =
    defaults.template.defaultAvailabilityDays ??
    (defaults.payingUser ? RECEIVE_DEFAULT_DAYS_PAYING : RECEIVE_DEFAULT_DAYS_FREE);
  return Math.max(1, capTemplateAvailability(days, defaults.validityDays));
}

export function defaultRequestForm(defaults: RequestDefaults): RequestForm {
  return {
    recipients: [...(defaults.template.recipients ?? [])],
    recipientsDraft: '',
    subject: defaults.template.subject ?? '',
    message: defaults.template.message ?? '',
    senderName: defaults.senderName,
    senderEmail: defaults.senderEmail,
    customId: '',
    password: defaults.template.password ?? '',
    expiresInDays: defaultRequestDays(defaults),
    expiryReminder: defaults.notifications.expiryReminder,
    uploadNotification: defaults.notifications.upload,
    allowedExtensions: '',
    customize: false,
    ...THEME_DEFAULTS,
  };
}

export function initialRequestState(defaults: RequestDefaults): RequestFormState {
  return { step: 1, form: defaultRequestForm(defaults), defaults, created: null };
}

const PREFILLED: readonly (keyof RequestForm)[] = [
  'recipients',
  'subject',
  'message',
  'senderName',
  'senderEmail',
  'password',
  'expiresInDays',
  'expiryReminder',
  'uploadNotification',
];

function same(a: unknown, b: unknown): boolean {
  return Array.isArray(a) && Array.isArray(b) ? a.join('\n') === b.join('\n') : a === b;
}

/**
 * The receive form's reducer. New defaults (the profile arrived, another user) fill what the requester has not
 * changed yet. `reset` follows spec §4: back to step 1, recipients, custom id and password cleared, the
 * notification defaults and the template applied again.
 */
export function requestFormReducer(state: RequestFormState, action: RequestFormAction): RequestFormState {
  switch (action.type) {
    case 'setField':
      return { ...state, form: { ...state.form, [action.field]: action.value } };
    case 'setRecipients':
      return {
        ...state,
        form: { ...state.form, recipients: action.recipients, recipientsDraft: action.draft },
      };
    case 'prefill': {
      if (action.defaults === state.defaults) return state;
      const before = defaultRequestForm(state.defaults);
      const after = defaultRequestForm(action.defaults);
      const form: Record<string, unknown> = { ...state.form };
      for (const field of PREFILLED) if (same(form[field], before[field])) form[field] = after[field];
      const next = form as unknown as RequestForm;
      if (next.expiresInDays > action.defaults.validityDays) next.expiresInDays = after.expiresInDays;
      return { ...state, form: next, defaults: action.defaults };
    }
    case 'created':
      return { ...state, step: 2, created: action.request };
    case 'reset':
      return initialRequestState(state.defaults);
  }
}

/** "pdf, .DOCX; jpg" → ["pdf", "docx", "jpg"] (the server's ExtensionList normalisation), duplicates once. */
export function parseExtensions(text: string): string[] {
  const list = text
    .split(/[\s,;]+/)
    .map((e) => e.trim().toLowerCase().replace(/^\.+/, ''))
    .filter((e) => e !== '');
  return [...new Set(list)];
}

const EXTENSION = /^[a-z0-9][a-z0-9._+-]{0,19}$/;
const CUSTOM_ID = /^[a-z0-9](?:[a-z0-9-]{1,38})[a-z0-9]$/;

/** The receive settings (spec §3 uploaderSettings) that shape the form. */
export type ReceiveFormSettings = Pick<
  UploaderSettings,
  | 'receivePasswordOpt'
  | 'receiveRequirePassword'
  | 'receiveNotificationOpt'
  | 'receiveAllowCustomization'
  | 'receiveAvailabilityOpt'
  | 'receiveAllowedExtensions'
>;

export interface RequestProblems {
  noRecipients: boolean;
  tooManyRecipients: boolean;
  recipientsDraftLeft: boolean;
  messageTooLong: boolean;
  invalidSenderEmail: boolean;
  invalidCustomId: boolean;
  invalidExpiry: boolean;
  passwordRequired: boolean;
  /** Typed extensions that are not extensions, or outside the team's list. */
  invalidExtensions: string[];
}

export function requestProblems(
  form: RequestForm,
  linkMode: ReceiveLinkMode,
  limits: Pick<PlanLimits, 'messageLength' | 'fileValidityInDays' | 'recipients'>,
  settings: ReceiveFormSettings,
): RequestProblems {
  const s1 = linkMode === 'S1';
  const team = parseExtensions(settings.receiveAllowedExtensions.join(','));
  const customId = form.customId.trim().toLowerCase();
  return {
    noRecipients: s1 && form.recipients.length === 0,
    tooManyRecipients: s1 && form.recipients.length > limits.recipients,
    recipientsDraftLeft: s1 && form.recipientsDraft.trim() !== '',
    messageTooLong: Array.from(form.message).length > limits.messageLength,
    invalidSenderEmail: form.senderEmail.trim() !== '' && !isEmail(form.senderEmail.trim()),
    invalidCustomId: customId !== '' && !CUSTOM_ID.test(customId),
    invalidExpiry:
      settings.receiveAvailabilityOpt &&
      (!Number.isInteger(form.expiresInDays) ||
        form.expiresInDays < 1 ||
        form.expiresInDays > limits.fileValidityInDays),
    passwordRequired: settings.receiveRequirePassword && form.password === '',
    invalidExtensions: parseExtensions(form.allowedExtensions).filter(
      (e) => !EXTENSION.test(e) || (team.length > 0 && !team.includes(e)),
    ),
  };
}

/** Problems shown next to their field that keep the button disabled. */
export function blockingRequestProblems(p: RequestProblems): boolean {
  return (
    p.tooManyRecipients ||
    p.messageTooLong ||
    p.invalidSenderEmail ||
    p.invalidCustomId ||
    p.invalidExpiry ||
    p.invalidExtensions.length > 0
  );
}

/** Something required is missing: said when the requester presses the button. */
export function missingRequestProblems(p: RequestProblems): boolean {
  return p.noRecipients || p.recipientsDraftLeft || p.passwordRequired;
}

function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The POST /api/receive/requests body: what the settings hide is left to the server's defaults. */
export function buildRequestCreate(
  form: RequestForm,
  linkMode: ReceiveLinkMode,
  settings: ReceiveFormSettings,
  context: { locale: string; timeZone?: string },
): ReceiveRequestCreate {
  const passwordShown = settings.receivePasswordOpt || settings.receiveRequirePassword;
  const extensions = parseExtensions(form.allowedExtensions);
  return {
    linkMode,
    subject: optional(form.subject),
    message: form.message.trim() === '' ? undefined : form.message,
    ...(linkMode === 'S1' ? { recipients: [...form.recipients] } : {}),
    senderName: optional(form.senderName),
    senderEmail: optional(form.senderEmail),
    customId: optional(form.customId)?.toLowerCase(),
    password: passwordShown && form.password !== '' ? form.password : undefined,
    ...(settings.receiveAvailabilityOpt ? { expiresInDays: form.expiresInDays } : {}),
    ...(settings.receiveNotificationOpt
      ? {
          uploadNotification: form.uploadNotification,
          ...(linkMode === 'S1' ? { expiryReminder: form.expiryReminder } : {}),
        }
      : {}),
    ...(extensions.length > 0 ? { allowedExtensions: extensions } : {}),
    ...(settings.receiveAllowCustomization && form.customize
      ? {
          customization: {
            backgroundColor: form.backgroundColor,
            actionColor: form.actionColor,
            startbtnColor: form.startbtnColor,
          },
        }
      : {}),
    locale: context.locale,
    ...(context.timeZone ? { timeZone: context.timeZone } : {}),
  };
}
