import { type MailContext, mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface UploadReceivedInput {
  uploaderName: string | null;
  uploaderEmail: string | null;
  /** The request subject or inbox title the files came through. */
  pointTitle: string | null;
  message: string | null;
  answers: ReadonlyArray<{ label: string; answer: string }>;
  files: readonly MailFile[];
  totalSize: number;
  expiresAt: Date;
  /** The received transfer's page (the owner signs in to download). */
  transferUrl: string;
}

/** To the requester or inbox owner: someone uploaded files for them (notificationSettings.receive.upload). */
export async function uploadReceived(ctx: MailContext, input: UploadReceivedInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const uploader = k.personShort(input.uploaderName, input.uploaderEmail);
  const point = input.pointTitle?.trim();
  const heading = t('upload_received_heading', {
    uploader: k.person(input.uploaderName, input.uploaderEmail),
    count: input.files.length,
  });
  const blocks: MailBlock[] = [
    {
      kind: 'facts',
      rows: [
        { label: t('upload_received_from'), value: k.person(input.uploaderName, input.uploaderEmail) },
        ...(point ? [{ label: t('upload_received_through'), value: point }] : []),
        { label: t('expires_label'), value: k.dateTime(input.expiresAt) },
        ...input.answers
          .filter((a) => a.answer.trim())
          .map((a) => ({ label: a.label, value: a.answer.trim() })),
      ],
    },
  ];
  if (input.message?.trim())
    blocks.push({ kind: 'quote', label: t('message_from', { name: uploader }), text: input.message.trim() });
  blocks.push(
    k.filesBlock(input.files, input.totalSize),
    k.button(input.transferUrl, t('upload_received_button')),
  );
  return renderMail(
    k.content({
      subject: point
        ? t('upload_received_subject_named', { uploader, point })
        : t('upload_received_subject', { uploader }),
      preview: heading,
      heading,
      blocks,
      why: t('upload_received_why', { product: k.product }),
    }),
  );
}
