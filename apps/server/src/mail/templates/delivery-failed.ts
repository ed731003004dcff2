import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface DeliveryFailedInput {
  transferName: string | null;
  transferFileCount: number;
  /** The recipient whose "files for you" e-mail could not be delivered. */
  recipientEmail: string;
  /** What the recipient's mail server (or the relay) answered. */
  reason: string;
  /** The transfer's link, for the sender to pass on by other means. */
  downloadUrl: string;
}

/**
 * To the sender: one recipient's e-mail was refused for good (or every retry failed), so they will not get the
 * files unless the sender does something — check the address, or pass the link on some other way.
 */
export async function deliveryFailed(ctx: MailContext, input: DeliveryFailedInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const recipient = input.recipientEmail;
  const named = input.transferName?.trim();
  const heading = t('delivery_failed_heading', { recipient });
  return renderMail(
    k.content({
      subject: named
        ? t('delivery_failed_subject', { recipient, name: named })
        : t('delivery_failed_subject_unnamed', { recipient }),
      preview: heading,
      heading,
      blocks: [
        {
          kind: 'facts',
          rows: [
            {
              label: t('transfer_label'),
              value: k.transferName(input.transferName, input.transferFileCount),
            },
            { label: t('delivery_failed_recipient_label'), value: recipient },
            { label: t('delivery_failed_reason_label'), value: input.reason.slice(0, 300) },
          ],
        },
        { kind: 'paragraph', text: t('delivery_failed_advice') },
        k.button(input.downloadUrl, t('view_transfer')),
      ],
      why: t('delivery_failed_why'),
    }),
  );
}
