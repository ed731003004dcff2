import {
  Email,
  OPEN_GRAPH_DESCRIPTION_MAX,
  OPEN_GRAPH_TITLE_MAX,
  openGraphTextProblem,
  type TransferCreateRequest,
} from '@ferry/core';
import { InvalidArgumentError } from 'commander';
import { CliError } from './exit-codes.js';
import { optionsDigest } from './journal.js';
import { normalizeCode } from './verify.js';

/** The e-mail options of `ferry send` (S1, and the notifications of either type). */
export interface EmailOptions {
  /** `--to`: recipients; given, the transfer is sent by e-mail (S1). */
  to?: string[];
  /** `--from`: the sender's address. */
  from?: string;
  senderName?: string;
  /** `--verification-code`: the code mailed to `from`. */
  verificationCode?: string;
  /** `--resend-code`: ask for a new code. */
  resendCode?: boolean;
  /** `--notify-downloads` (true) / `--no-notify-downloads` (false); unset: the server's default. */
  notifyDownloads?: boolean;
  /** false with `--no-reminder`. */
  reminder?: boolean;
  /** false with `--no-summary`. */
  summary?: boolean;
  /** `--require-email` (S2). */
  requireEmail?: boolean;
  /** `--lang`: the language of the e-mails about the transfer (default: from LC_ALL, LC_MESSAGES or LANG). */
  lang?: string;
}

const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/;

/** commander parser of `--lang`: a language tag such as `fr` or `pt-BR`. */
export function languageTag(value: string): string {
  const tag = value.trim().replace(/_/g, '-');
  if (!LANGUAGE_TAG.test(tag) || tag.length > 35)
    throw new InvalidArgumentError('expected a language tag such as en, fr or pt-BR.');
  return tag;
}

/**
 * The language of the environment, as POSIX tools read it (LC_ALL, then LC_MESSAGES, then LANG):
 * `fr_FR.UTF-8` → `fr-FR`. The C and POSIX locales, and anything unreadable, say nothing.
 */
export function environmentLanguage(env: Record<string, string | undefined>): string | undefined {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name];
    if (!value) continue;
    const base = value.split(/[.@]/)[0]!;
    if (base === 'C' || base === 'POSIX') return undefined;
    try {
      return languageTag(base);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** The machine's IANA time zone (TZ respected), for the dates in the e-mails; undefined when unknown. */
export function localTimeZone(): string | undefined {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && zone !== 'Etc/Unknown' ? zone : undefined;
}

/** commander parser of a repeatable `--to`: each value may hold several addresses separated by commas. */
export function collectEmails(value: string, previous: string[] | undefined): string[] {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0) throw new InvalidArgumentError('expected an e-mail address.');
  for (const part of parts) {
    if (!Email.safeParse(part).success) throw new InvalidArgumentError(`"${part}" is not an e-mail address.`);
  }
  return [...(previous ?? []), ...parts];
}

/** commander parser of `--from` and `--email`. */
export function emailAddress(value: string): string {
  const parsed = Email.safeParse(value);
  if (!parsed.success) throw new InvalidArgumentError(`"${value}" is not an e-mail address.`);
  return parsed.data;
}

/** commander parser of `--verification-code`. */
export function verificationCode(value: string): string {
  const code = normalizeCode(value);
  if (code === null) throw new InvalidArgumentError('expected the 6-digit code from the e-mail.');
  return code;
}

/**
 * Refuses combinations that cannot mean what the user wants, before anything is uploaded. Signed in, --to needs
 * no --from: the server sends from the account's address.
 */
export function checkEmailOptions(o: EmailOptions, context: { signedIn?: boolean } = {}): void {
  const byEmail = (o.to?.length ?? 0) > 0;
  if (byEmail && !o.from && !context.signedIn)
    throw new CliError(
      '--to needs --from <your e-mail address> (or sign in with ferry login): recipients are told who sent the files',
    );
  if (byEmail && o.requireEmail)
    throw new CliError('--require-email is for link transfers: recipients of --to get personal links');
  if (!o.from) {
    const needsFrom = [
      o.verificationCode !== undefined && '--verification-code',
      o.resendCode && '--resend-code',
      o.notifyDownloads && '--notify-downloads',
    ].filter(Boolean);
    if (needsFrom.length > 0)
      throw new CliError(`${needsFrom.join(', ')} needs --from <your e-mail address>`);
  }
}

/** The fields of the create request that come from the e-mail options. */
export function emailRequestFields(
  o: EmailOptions,
): Pick<
  TransferCreateRequest,
  | 'type'
  | 'recipients'
  | 'senderEmail'
  | 'senderName'
  | 'downloadConfirmation'
  | 'expiryReminder'
  | 'summary'
  | 'forceEmailWhenDownloadS2'
> {
  const byEmail = (o.to?.length ?? 0) > 0;
  return {
    type: byEmail ? 'S1' : 'S2',
    recipients: byEmail ? o.to : undefined,
    senderEmail: o.from,
    senderName: o.senderName,
    downloadConfirmation: o.notifyDownloads,
    expiryReminder: o.reminder === false ? false : undefined,
    summary: o.summary === false ? false : undefined,
    forceEmailWhenDownloadS2: o.requireEmail ? true : undefined,
  };
}

/** The link-preview options of `ferry send` (spec §3 `openGraph`: paid plans, shown for link transfers). */
export interface LinkPreviewOptions {
  /** `--og-title`: the title chat apps and social sites show for the download page. */
  ogTitle?: string;
  /** `--og-description`: the text they show under it. */
  ogDescription?: string;
}

const LINK_PREVIEW_FLAGS = [
  { key: 'ogTitle', flag: '--og-title', max: OPEN_GRAPH_TITLE_MAX, what: 'title' },
  { key: 'ogDescription', flag: '--og-description', max: OPEN_GRAPH_DESCRIPTION_MAX, what: 'description' },
] as const;

/**
 * Refuses a link preview the server would refuse, or one that cannot be shown, before anything is uploaded: a
 * text too long or holding a line break or another control character (core openGraphTextProblem, the value is
 * not echoed), one for a transfer sent by e-mail (its page only ever shows a general preview), and one without
 * a signed-in account (a paid plan's feature). An empty text is no choice.
 */
export function checkLinkPreviewOptions(
  o: LinkPreviewOptions & Pick<EmailOptions, 'to'>,
  context: { signedIn?: boolean } = {},
): void {
  for (const { key, flag, max, what } of LINK_PREVIEW_FLAGS) {
    const value = o[key];
    if (value === undefined) continue;
    const problem = openGraphTextProblem(value, max);
    if (problem === 'control_chars')
      throw new CliError(
        `${flag} holds a line break or another control character: a link preview ${what} is one line of plain text`,
      );
    if (problem === 'too_long')
      throw new CliError(
        `${flag} is too long: ${value.trim().length} characters, a link preview ${what} has at most ${max}`,
      );
  }
  const given = LINK_PREVIEW_FLAGS.filter(({ key }) => o[key]?.trim()).map(({ flag }) => flag);
  if (given.length === 0) return;
  const flags = given.join(' and ');
  if ((o.to?.length ?? 0) > 0)
    throw new CliError(
      `${flags} ${given.length > 1 ? 'are' : 'is'} for link transfers: the page of a transfer sent with --to only ever shows a general preview`,
    );
  if (!context.signedIn)
    throw new CliError(
      `${flags} ${given.length > 1 ? 'need' : 'needs'} a paid plan: sign in first with \`ferry login\``,
    );
}

/** The `openGraph` of the create request: the texts given, trimmed; none when neither is. */
export function linkPreviewRequestFields(o: LinkPreviewOptions): Pick<TransferCreateRequest, 'openGraph'> {
  const title = o.ogTitle?.trim() || undefined;
  const description = o.ogDescription?.trim() || undefined;
  if (!title && !description) return {};
  return { openGraph: { ...(title ? { title } : {}), ...(description ? { description } : {}) } };
}

/**
 * The digest of the options a transfer is created with. The e-mail options count only when set, so that a link
 * transfer interrupted by an older `ferry` still resumes; the code options never count (a second run adds them).
 */
export function sendOptionsDigest(
  o: EmailOptions & {
    name?: string;
    message?: string;
    password?: string;
    maxDownloads?: number;
    expiresInDays?: number;
    /** The signed-in account's uid (counts only when set). */
    account?: string;
    customLink?: string;
    availableFrom?: Date;
  } & LinkPreviewOptions,
): string {
  const { name, message, password, maxDownloads, expiresInDays } = o;
  const email: Record<string, unknown> = {
    to: o.to?.map((t) => t.toLowerCase()),
    from: o.from?.toLowerCase(),
    senderName: o.senderName,
    notifyDownloads: o.notifyDownloads,
    reminder: o.reminder === false ? false : undefined,
    summary: o.summary === false ? false : undefined,
    requireEmail: o.requireEmail ? true : undefined,
    account: o.account,
    customLink: o.customLink,
    availableFrom: o.availableFrom?.toISOString(),
    ogTitle: o.ogTitle?.trim() || undefined,
    ogDescription: o.ogDescription?.trim() || undefined,
  };
  for (const k of Object.keys(email)) if (email[k] === undefined) delete email[k];
  return optionsDigest({ name, message, password, maxDownloads, expiresInDays, ...email });
}
