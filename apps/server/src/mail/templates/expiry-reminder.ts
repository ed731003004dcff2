import { type MailContext, mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface ExpiryReminderInput {
  senderName: string | null;
  senderEmail: string | null;
  transferName: string | null;
  message: string | null;
  files: readonly MailFile[];
  totalSize: number;
  expiresAt: Date;
  /** This recipient's personal download link. */
  downloadUrl: string;
  unsubscribeUrl?: string;
}

/** To a recipient who has not downloaded yet, before the transfer expires (notificationSettings.expiryReminder). */
export async function expiryReminder(ctx: MailContext, input: ExpiryReminderInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const sender = k.personShort(input.senderName, input.senderEmail);
  const until = k.dateTime(input.expiresAt);
  const name = input.transferName?.trim();
  const heading = t('expiry_reminder_heading', {
    sender: k.person(input.senderName, input.senderEmail),
    count: input.files.length,
  });
  const blocks: MailBlock[] = [
    { kind: 'paragraph', text: t('expiry_reminder_intro', { date: until }) },
    {
      kind: 'facts',
      rows: [
        ...(name ? [{ label: t('transfer_label'), value: name }] : []),
        { label: t('expires_label'), value: until },
      ],
    },
  ];
  if (input.message?.trim())
    blocks.push({ kind: 'quote', label: t('message_from', { name: sender }), text: input.message.trim() });
  blocks.push(k.button(input.downloadUrl), k.filesBlock(input.files, input.totalSize));
  return renderMail(
    k.content({
      subject: t('expiry_reminder_subject', { sender, date: k.date(input.expiresAt) }),
      preview: t('expiry_reminder_intro', { date: until }),
      heading,
      blocks,
      why: t('expiry_reminder_why', { sender, product: k.product }),
      unsubscribe: input.unsubscribeUrl ? { label: t('unsubscribe'), url: input.unsubscribeUrl } : undefined,
    }),
  );
}
