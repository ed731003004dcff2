import { type MailContext, mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface UploadReceiptInput {
  /** Who received the files: the inbox owner's name (or the inbox title). */
  ownerName: string | null;
  pointTitle: string | null;
  files: ReadonlyArray<MailFile & { sha256: string | null }>;
  totalSize: number;
  receivedAt: Date;
}

/** S1 inbox: the uploader's receipt, with each file's SHA-256 (no link: the files are the owner's). */
export async function uploadReceipt(ctx: MailContext, input: UploadReceiptInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const owner = input.ownerName?.trim() || input.pointTitle?.trim() || t('someone');
  const heading = t('upload_receipt_heading', { owner, count: input.files.length });
  const blocks: MailBlock[] = [
    {
      kind: 'facts',
      rows: [
        ...(input.pointTitle?.trim()
          ? [{ label: t('upload_received_through'), value: input.pointTitle.trim() }]
          : []),
        { label: t('upload_receipt_when'), value: k.dateTime(input.receivedAt) },
      ],
    },
    k.filesBlock(input.files, input.totalSize),
    {
      kind: 'facts',
      rows: input.files
        .slice(0, 50)
        .map((f) => ({ label: f.name, value: f.sha256 ? `SHA-256 ${f.sha256}` : '—' })),
    },
  ];
  return renderMail(
    k.content({
      subject: t('upload_receipt_subject', { owner }),
      preview: heading,
      heading,
      blocks,
      why: t('upload_receipt_why', { product: k.product }),
    }),
  );
}
