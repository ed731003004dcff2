import { type MailContext, mailKit } from './common.js';
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
  return renderMail(
    k.content({
      subject: t('enterprise_contact_subject', { company: oneLine(input.company, 80) }),
      preview: t('enterprise_contact_intro', { product: k.product }),
      heading: t('enterprise_contact_heading'),
      blocks: [
        { kind: 'paragraph', text: t('enterprise_contact_intro', { product: k.product }) },
        { kind: 'facts', rows },
        ...(input.message
          ? [{ kind: 'quote' as const, label: t('message_label'), text: input.message }]
          : []),
      ],
      why: t('enterprise_contact_why', { product: k.product }),
    }),
  );
}

/**
 * To the person who filled in the form, in their language. It repeats nothing they typed: anyone can give any
 * address, and the mail must not carry a stranger's words to it.
 */
export async function enterpriseContactAcknowledgement(ctx: MailContext): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  return renderMail(
    k.content({
      subject: t('enterprise_ack_subject', { product: k.product }),
      preview: t('enterprise_ack_intro', { product: k.product }),
      heading: t('enterprise_ack_heading'),
      blocks: [{ kind: 'paragraph', text: t('enterprise_ack_intro', { product: k.product }) }],
      why: t('enterprise_ack_why', { product: k.product }),
    }),
  );
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
  return renderMail(
    k.content({
      subject: t('contact_message_subject', { subject: oneLine(input.subject, 80) }),
      preview: t('contact_message_intro', { product: k.product }),
      heading: t('contact_message_heading'),
      blocks: [
        { kind: 'paragraph', text: t('contact_message_intro', { product: k.product }) },
        { kind: 'facts', rows },
        { kind: 'quote', label: t('message_label'), text: input.message },
      ],
      why: t('contact_message_why', { product: k.product }),
    }),
  );
}

/**
 * To the person who wrote through the contact form, in their language. Like the enterprise acknowledgement, it
 * repeats nothing they typed (not even the subject): anyone can give any address.
 */
export async function contactMessageAcknowledgement(ctx: MailContext): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  return renderMail(
    k.content({
      subject: t('contact_ack_subject', { product: k.product }),
      preview: t('contact_ack_intro', { product: k.product }),
      heading: t('contact_ack_heading'),
      blocks: [{ kind: 'paragraph', text: t('contact_ack_intro', { product: k.product }) }],
      why: t('contact_ack_why', { product: k.product }),
    }),
  );
}
