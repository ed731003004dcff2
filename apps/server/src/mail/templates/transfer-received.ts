import type { MailContext } from './common.js';
import { mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface TransferReceivedInput {
  senderName: string | null;
  senderEmail: string | null;
  transferName: string | null;
  message: string | null;
  files: readonly MailFile[];
  totalSize: number;
  expiresAt: Date;
  /** This recipient's personal download link. */
  downloadUrl: string;
}

/** S1: a recipient is told that files are waiting, with their own link. */
export async function transferReceived(
  ctx: MailContext,
  input: TransferReceivedInput,
): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const sender = k.personShort(input.senderName, input.senderEmail);
  const name = input.transferName?.trim();
  const count = input.files.length;
  const until = k.dateTime(input.expiresAt);
  const files = k.filesBlock(input.files, input.totalSize);
  const blocks: MailBlock[] = [
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
  blocks.push(k.button(input.downloadUrl), files);
  return renderMail(
    k.content({
      subject: name
        ? t('transfer_received_subject_named', { sender, name })
        : t('transfer_received_subject', { sender, product: k.product }),
      preview: t('transfer_received_preview', { summary: files.summary, date: until }),
      heading: t('transfer_received_heading', {
        sender: k.person(input.senderName, input.senderEmail),
        count,
      }),
      blocks,
      why: t('transfer_received_why', { sender, product: k.product }),
    }),
  );
}
