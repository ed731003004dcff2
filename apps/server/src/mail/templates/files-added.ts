import type { MailContext } from './common.js';
import { mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface FilesAddedInput {
  senderName: string | null;
  senderEmail: string | null;
  transferName: string | null;
  /** The files just added (not the whole transfer). */
  files: readonly MailFile[];
  totalSize: number;
  expiresAt: Date;
  /** This recipient's personal download link. */
  downloadUrl: string;
}

/** S1: a recipient is told that the sender added files to a transfer they received, with their own link. */
export async function filesAdded(ctx: MailContext, input: FilesAddedInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const sender = k.personShort(input.senderName, input.senderEmail);
  const name = input.transferName?.trim();
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
    k.button(input.downloadUrl),
    files,
  ];
  return renderMail(
    k.content({
      subject: name
        ? t('files_added_subject_named', { sender, name })
        : t('files_added_subject', { sender, product: k.product }),
      preview: t('transfer_received_preview', { summary: files.summary, date: until }),
      heading: t('files_added_heading', {
        sender: k.person(input.senderName, input.senderEmail),
        count: input.files.length,
      }),
      blocks,
      why: t('transfer_received_why', { sender, product: k.product }),
    }),
  );
}
