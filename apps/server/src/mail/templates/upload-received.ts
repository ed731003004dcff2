import { type MailContext, mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface UploadReceivedInput {
  uploaderName: string | null;
  uploaderEmail: string | null;
  /**
   * False when the uploader typed the address on a receive page (nobody checked it): the mail then says
   * "(address not verified)" wherever the address appears. True for a request's personal link.
   */
  uploaderEmailVerified: boolean;
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
  const name = input.uploaderName?.trim() || null;
  const email = input.uploaderEmail?.trim() || null;
  const unverified = email !== null && !input.uploaderEmailVerified;
  // The typed address is shown as what it is: a claim. With a name: "Erin (erin@…, address not verified)".
  const person = !unverified
    ? k.person(name, email)
    : name
      ? t('person_unverified', { name, email })
      : t('email_unverified', { email });
  const uploader = name ?? (unverified ? t('email_unverified', { email }) : k.personShort(name, email));
  const point = input.pointTitle?.trim();
  const heading = t('upload_received_heading', { uploader: person, count: input.files.length });
  const blocks: MailBlock[] = [
    {
      kind: 'facts',
      rows: [
        { label: t('upload_received_from'), value: person },
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
