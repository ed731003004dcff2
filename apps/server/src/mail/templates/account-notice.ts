import { type MailContext, type MailKit, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface PasswordChangedInput {
  email: string;
  changedAt: Date;
  /** The client address the change came from. */
  ip: string | null;
  /** Where to choose a new password when it was not the account's owner (the forgot-password page). */
  resetUrl: string;
}

/** After a password change: tells the owner, who can take the account back if it was not them. */
export async function passwordChanged(ctx: MailContext, input: PasswordChangedInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const rows = [{ label: t('changed_on_label'), value: k.dateTime(input.changedAt) }];
  if (input.ip) rows.push({ label: t('changed_from_label'), value: input.ip });
  return renderMail(
    k.content({
      subject: t('password_changed_subject', { product: k.product }),
      preview: t('password_changed_intro', { product: k.product, email: input.email }),
      heading: t('password_changed_heading'),
      blocks: [
        { kind: 'paragraph', text: t('password_changed_intro', { product: k.product, email: input.email }) },
        { kind: 'facts', rows },
        { kind: 'paragraph', text: t('password_changed_not_you') },
        k.button(input.resetUrl, t('password_changed_button')),
      ],
      why: t('password_changed_why', { product: k.product }),
    }),
  );
}

export interface EnterpriseContactInput {
  name: string;
  email: string;
  company: string;
  phone: string | null;
  teamSize: number | null;
  message: string | null;
  locale: string | null;
}

const oneLine = (text: string, max: number) => {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** The two forms anyone can fill in: the enterprise contact form and the general contact form (/contact). */
type ContactForm = 'enterprise_contact' | 'contact_message';

/**
 * A form's mail to the team that answers it: what the person gave, as facts, then their message when there is one
 * (a null message leaves the quote out).
 */
function formForTeam(
  k: MailKit,
  form: ContactForm,
  subject: string,
  rows: Array<{ label: string; value: string }>,
  message: string | null,
): Promise<RenderedMail> {
  const { t } = k;
  return renderMail(
    k.content({
      subject,
      preview: t(`${form}_intro`, { product: k.product }),
      heading: t(`${form}_heading`),
      blocks: [
        { kind: 'paragraph', text: t(`${form}_intro`, { product: k.product }) },
        { kind: 'facts', rows },
        ...(message !== null ? [{ kind: 'quote' as const, label: t('message_label'), text: message }] : []),
      ],
      why: t(`${form}_why`, { product: k.product }),
    }),
  );
}

/**
 * A form's acknowledgement, to the person who filled it in, in their language. It repeats nothing they typed: anyone
 * can give any address, and the mail must not carry a stranger's words to it.
 */
function formAcknowledgement(ctx: MailContext, ack: 'enterprise_ack' | 'contact_ack'): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  return renderMail(
    k.content({
      subject: t(`${ack}_subject`, { product: k.product }),
      preview: t(`${ack}_intro`, { product: k.product }),
      heading: t(`${ack}_heading`),
      blocks: [{ kind: 'paragraph', text: t(`${ack}_intro`, { product: k.product }) }],
      why: t(`${ack}_why`, { product: k.product }),
    }),
  );
}

/** The enterprise contact form, to the sales team (replies go to the person through Reply-To). */
export async function enterpriseContactForSales(
  ctx: MailContext,
  input: EnterpriseContactInput,
): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const rows = [
    { label: t('contact_name_label'), value: input.name },
    { label: t('contact_email_label'), value: input.email },
    { label: t('contact_company_label'), value: input.company },
  ];
  if (input.phone) rows.push({ label: t('contact_phone_label'), value: input.phone });
  if (input.teamSize) rows.push({ label: t('contact_team_size_label'), value: String(input.teamSize) });
  if (input.locale) rows.push({ label: t('contact_locale_label'), value: input.locale });
  const subject = t('enterprise_contact_subject', { company: oneLine(input.company, 80) });
  return formForTeam(k, 'enterprise_contact', subject, rows, input.message || null);
}

/** To the person who filled in the enterprise contact form (see formAcknowledgement). */
export async function enterpriseContactAcknowledgement(ctx: MailContext): Promise<RenderedMail> {
  return formAcknowledgement(ctx, 'enterprise_ack');
}

export interface ContactMessageInput {
  name: string;
  email: string;
  subject: string;
  message: string;
  locale: string | null;
}

/** The general contact form (/contact), to the operator's contact address (replies go through Reply-To). */
export async function contactMessageForSupport(
  ctx: MailContext,
  input: ContactMessageInput,
): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const rows = [
    { label: t('contact_name_label'), value: input.name },
    { label: t('contact_email_label'), value: input.email },
    { label: t('contact_subject_label'), value: input.subject },
  ];
  if (input.locale) rows.push({ label: t('contact_locale_label'), value: input.locale });
  const subject = t('contact_message_subject', { subject: oneLine(input.subject, 80) });
  return formForTeam(k, 'contact_message', subject, rows, input.message);
}

/**
 * To the person who wrote through the contact form (see formAcknowledgement): not even the subject they typed is
 * repeated.
 */
export async function contactMessageAcknowledgement(ctx: MailContext): Promise<RenderedMail> {
  return formAcknowledgement(ctx, 'contact_ack');
}
