import { type MailContext, mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface TransferSummaryInput {
  transferName: string | null;
  message: string | null;
  recipients: readonly string[];
  files: readonly MailFile[];
  totalSize: number;
  expiresAt: Date;
  /** The sender's own link to the transfer. */
  downloadUrl: string;
  unsubscribeUrl?: string;
}

/** To the sender once a transfer went out: to whom, what, the link and until when (notificationSettings.summary). */
export async function transferSummary(ctx: MailContext, input: TransferSummaryInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const name = k.transferName(input.transferName, input.files.length);
  const heading = t('transfer_summary_heading', { count: input.recipients.length });
  const blocks: MailBlock[] = [
    {
      kind: 'facts',
      rows: [
        { label: t('transfer_label'), value: name },
        { label: t('recipients_label'), value: input.recipients.join(', ') },
        { label: t('expires_label'), value: k.dateTime(input.expiresAt) },
      ],
    },
  ];
  if (input.message?.trim())
    blocks.push({ kind: 'quote', label: t('message_label'), text: input.message.trim() });
  blocks.push(
    k.filesBlock(input.files, input.totalSize),
    { kind: 'paragraph', text: t('transfer_summary_link_intro') },
    k.button(input.downloadUrl),
  );
  return renderMail(
    k.content({
      subject: t('transfer_summary_subject', { name }),
      preview: heading,
      heading,
      blocks,
      why: t('transfer_summary_why'),
      unsubscribe: input.unsubscribeUrl ? { label: t('unsubscribe'), url: input.unsubscribeUrl } : undefined,
    }),
  );
}
