import { type MailContext, mailKit } from './common.js';
import { type MailBlock, type RenderedMail, renderMail } from './layout.js';

export interface ReceiveRequestInput {
  requesterName: string | null;
  requesterEmail: string | null;
  subject: string | null;
  message: string | null;
  expiresAt: Date;
  /** This person's own upload link (`/r/{requestId}?userSecret=…`). */
  uploadUrl: string;
  /** Allowed extensions ([] = any). */
  allowedExtensions: readonly string[];
  passwordProtected: boolean;
  /** A reminder sent before the request expires, rather than the first mail. */
  reminder?: boolean;
}

/** S1 file request: an asked person gets their personal upload link (and, later, maybe a reminder). */
export async function receiveRequest(ctx: MailContext, input: ReceiveRequestInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const requester = k.personShort(input.requesterName, input.requesterEmail);
  const until = k.dateTime(input.expiresAt);
  const subject = input.subject?.trim();
  const blocks: MailBlock[] = [];
  if (input.reminder) blocks.push({ kind: 'paragraph', text: t('receive_reminder_intro', { date: until }) });
  blocks.push({
    kind: 'facts',
    rows: [
      ...(subject ? [{ label: t('receive_subject_label'), value: subject }] : []),
      { label: t('receive_open_until'), value: until },
      ...(input.allowedExtensions.length > 0
        ? [{ label: t('receive_extensions_label'), value: input.allowedExtensions.join(', ') }]
        : []),
    ],
  });
  if (input.message?.trim())
    blocks.push({ kind: 'quote', label: t('message_from', { name: requester }), text: input.message.trim() });
  if (input.passwordProtected) blocks.push({ kind: 'paragraph', text: t('receive_password_note') });
  blocks.push(k.button(input.uploadUrl, t('receive_upload_button')));
  const heading = t('receive_request_heading', {
    requester: k.person(input.requesterName, input.requesterEmail),
  });
  return renderMail(
    k.content({
      subject: input.reminder
        ? t('receive_reminder_subject', { requester, date: k.date(input.expiresAt) })
        : subject
          ? t('receive_request_subject_named', { requester, subject })
          : t('receive_request_subject', { requester, product: k.product }),
      preview: input.reminder ? t('receive_reminder_intro', { date: until }) : heading,
      heading,
      blocks,
      why: t('receive_request_why', { requester, product: k.product }),
    }),
  );
}
