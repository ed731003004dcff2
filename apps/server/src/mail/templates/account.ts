import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface AccountLinkInput {
  /** The one-time link. */
  url: string;
  validHours: number;
}

/** At sign-up: the link that proves the address and signs the new user in. */
export async function emailVerification(ctx: MailContext, input: AccountLinkInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  return renderMail(
    k.content({
      subject: t('email_verification_subject', { product: k.product }),
      preview: t('email_verification_intro', { product: k.product }),
      heading: t('email_verification_heading'),
      blocks: [
        { kind: 'paragraph', text: t('email_verification_intro', { product: k.product }) },
        k.button(input.url, t('email_verification_button')),
        { kind: 'paragraph', text: t('link_valid_hours', { count: input.validHours }) },
      ],
      why: t('email_verification_ignore', { product: k.product }),
    }),
  );
}

/** "Forgot password": a link to choose a new one. */
export async function passwordReset(ctx: MailContext, input: AccountLinkInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  return renderMail(
    k.content({
      subject: t('password_reset_subject', { product: k.product }),
      preview: t('password_reset_intro'),
      heading: t('password_reset_heading'),
      blocks: [
        { kind: 'paragraph', text: t('password_reset_intro') },
        k.button(input.url, t('password_reset_button')),
        { kind: 'paragraph', text: t('link_valid_hours', { count: input.validHours }) },
      ],
      why: t('password_reset_ignore', { product: k.product }),
    }),
  );
}
