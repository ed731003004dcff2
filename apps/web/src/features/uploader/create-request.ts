import type { TransferCreateRequest } from '@ferry/core';
import { fromLocalInput } from '../../lib/local-datetime';
import {
  defaultForm,
  type FormSettings,
  OPEN_FORM_SETTINGS,
  passwordShown,
  type TransferForm,
  type UploaderState,
  type UploadType,
} from './uploader-state';

function optional(value: string): string | undefined {
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The browser's IANA time zone (e.g. `Europe/Paris`), if it tells. */
export function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}

/**
 * The form as it is sent: what the settings hide takes its default (a field the sender cannot see sends
 * nothing they did not choose), and a required S2 downloader e-mail is on.
 */
export function effectiveForm(state: UploaderState, settings: FormSettings): TransferForm {
  const defaults = defaultForm(state.defaults.limits, state.defaults.template);
  const form = { ...state.form };
  if (!passwordShown(settings)) form.password = '';
  if (!settings.downloadLimitOpt) form.maxDownloads = '';
  if (!settings.filePreviewOpt) form.allowPreview = defaults.allowPreview;
  if (!settings.notificationOpt) {
    form.downloadConfirmation = defaults.downloadConfirmation;
    form.downloadConfirmationS2 = defaults.downloadConfirmationS2;
    form.expiryReminder = defaults.expiryReminder;
    form.forceEmailWhenDownloadS2 = defaults.forceEmailWhenDownloadS2;
  }
  if (settings.requireForceEmailWhenDownloadS2) form.forceEmailWhenDownloadS2 = true;
  return form;
}

export interface CreateRequestOptions {
  locale: string;
  /** The saved proof for the sender's address, if any (then no code is needed). */
  senderVerificationToken?: string;
  /** The browser's time zone: dates in the transfer's e-mails are written in it. */
  timeZone?: string;
  settings?: FormSettings;
  /** A paying plan: the custom link and, for a link, the link preview typed are sent (others are never offered them). */
  paying?: boolean;
  /** The sender may customize the download page (a paid plan; a member whose manager allows it). */
  customizable?: boolean;
}

/** The POST /transfer/transfers body for the chosen files and options. */
export function buildCreateRequest(
  state: UploaderState,
  type: UploadType,
  {
    locale,
    senderVerificationToken,
    timeZone,
    settings = OPEN_FORM_SETTINGS,
    paying,
    customizable = false,
  }: CreateRequestOptions,
): TransferCreateRequest {
  const form = effectiveForm(state, settings);
  const customLink = paying ? optional(form.customLink) : undefined;
  const opens = fromLocalInput(form.availableFrom);
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
    ...(timeZone ? { timeZone } : {}),
    ...(customLink ? { customLink } : {}),
    ...(opens ? { availableFrom: opens.toISOString() } : {}),
    ...(customizable && form.pageCustomized ? pageCustomization(form) : {}),
    ...(paying && type === 'S2' ? linkPreview(form) : {}),
    files: state.files.map((f) => ({
      name: f.name,
      size: f.size,
      ...(f.relativePath ? { relativePath: f.relativePath } : {}),
    })),
  };
}

/** The spec §3 `customization` of the form: only what the sender set. */
export function pageCustomization(form: TransferForm): Pick<TransferCreateRequest, 'customization'> {
  const customization: NonNullable<TransferCreateRequest['customization']> = {};
  if (form.pageBackgroundColor) customization.backgroundColor = form.pageBackgroundColor;
  if (form.pageActionColor) customization.actionColor = form.pageActionColor;
  if (form.pageStartColor) customization.startbtnColor = form.pageStartColor;
  if (form.pageWallpaperURL) customization.wallpaperURL = form.pageWallpaperURL;
  return Object.keys(customization).length > 0 ? { customization } : {};
}

/** The spec §3 `openGraph` of the form: only the fields the sender filled, trimmed. */
export function linkPreview(form: TransferForm): Pick<TransferCreateRequest, 'openGraph'> {
  const openGraph: NonNullable<TransferCreateRequest['openGraph']> = {};
  const title = optional(form.ogTitle);
  const description = optional(form.ogDescription);
  if (title) openGraph.title = title;
  if (description) openGraph.description = description;
  return title || description ? { openGraph } : {};
}
