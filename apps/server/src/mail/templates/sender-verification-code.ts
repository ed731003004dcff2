import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface SenderVerificationCodeInput {
  /** The 6-digit code. */
  code: string;
  validMinutes: number;
}

/** A sender without an account proves they own their address before a transfer goes out. */
export async function senderVerificationCode(
  ctx: MailContext,
  input: SenderVerificationCodeInput,
): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  return renderMail(
    k.content({
      subject: t('verification_subject', { code: input.code, product: k.product }),
      preview: t('verification_valid', { count: input.validMinutes }),
      heading: t('verification_heading'),
      blocks: [
        { kind: 'paragraph', text: t('verification_intro') },
        { kind: 'code', code: input.code },
        { kind: 'paragraph', text: t('verification_valid', { count: input.validMinutes }) },
      ],
      why: t('verification_ignore', { product: k.product }),
    }),
  );
}
