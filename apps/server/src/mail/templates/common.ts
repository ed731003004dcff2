import { formatSize } from '@ferry/core';
import type { TFunction } from 'i18next';
import { fileLines, formatMailDate, formatMailDateTime, type MailFile } from './format.js';
import { mailT, resolveMailLocale } from './i18n.js';
import type { MailBlock, MailBrand, MailContent } from './layout.js';

/** Who a mail is for and how to write to them. */
export interface MailContext {
  /** The recipient's locale (a spec §9 code or a BCP 47 tag); English when it is not translated. */
  locale?: string | null;
  /** PRODUCT_NAME. */
  productName: string;
  /** IANA time zone for dates; UTC when unknown. */
  timeZone?: string;
  /** The header image and colours of the account or team the mail is about (its customization). */
  brand?: MailBrand | null;
}

/**
 * What each template starts from: the words of the recipient's language, and dates, sizes and numbers formatted in
 * their locale.
 */
export interface MailKit {
  t: TFunction<'mail'>;
  language: string;
  /** The BCP 47 tag for Intl (ja for jp, fr-CA for a Canadian French recipient): numbers and amounts use it. */
  intl: string;
  product: string;
  dateTime(date: Date): string;
  date(date: Date): string;
  /** "Alice Martin (alice@example.com)", "alice@example.com", or "Someone". */
  person(name: string | null | undefined, email: string | null | undefined): string;
  /** Shorter, for subjects: the name, else the e-mail, else "Someone". */
  personShort(name: string | null | undefined, email: string | null | undefined): string;
  filesBlock(files: readonly MailFile[], totalSize: number): Extract<MailBlock, { kind: 'files' }>;
  button(url: string, label?: string): MailBlock;
  /** The transfer's name, or "3 files" when it has none. */
  transferName(name: string | null | undefined, fileCount: number): string;
  content(
    parts: Omit<MailContent, 'language' | 'colon' | 'product' | 'footer'> & { why: string },
  ): MailContent;
}

const clean = (value: string | null | undefined) => value?.trim() || null;

export function mailKit(ctx: MailContext): MailKit {
  const { language, intl } = resolveMailLocale(ctx.locale);
  const t = mailT(language);
  const product = ctx.productName;
  return {
    t,
    language,
    intl,
    product,
    dateTime: (date) => formatMailDateTime(date, intl, ctx.timeZone),
    date: (date) => formatMailDate(date, intl, ctx.timeZone),
    person(name, email) {
      const n = clean(name);
      const e = clean(email);
      if (n && e) return `${n} (${e})`;
      return n ?? e ?? t('someone');
    },
    personShort: (name, email) => clean(name) ?? clean(email) ?? t('someone'),
    filesBlock(files, totalSize) {
      const { shown, more } = fileLines(files, intl);
      return {
        kind: 'files',
        label: t('files_label'),
        summary: t('files_summary', { count: files.length, size: formatSize(totalSize, intl) }),
        files: shown,
        more: more > 0 ? t('more_files', { count: more }) : null,
      };
    },
    button: (url, label) => ({
      kind: 'button',
      label: label ?? t('download'),
      url,
      copyHint: t('copy_link'),
    }),
    transferName: (name, fileCount) => clean(name) ?? t('unnamed', { count: fileCount }),
    content: ({ why, ...parts }) => ({
      ...parts,
      language,
      colon: t('colon'),
      product,
      ...(ctx.brand ? { brand: ctx.brand } : {}),
      footer: [why, t('footer', { year: new Date().getFullYear(), product })],
    }),
  };
}
