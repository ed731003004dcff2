import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface FileInfectedInput {
  transferName: string | null;
  transferFileCount: number;
  /** The blocked file's name (with its folder). */
  fileName: string;
  /** What the scanner named it. */
  signature: string;
  /** The sender's own link to the transfer. */
  transferUrl: string;
}

/** To the sender: the virus scan blocked one of their files; the rest of the transfer stays available. */
export async function fileInfected(ctx: MailContext, input: FileInfectedInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const named = input.transferName?.trim();
  const heading = t('file_infected_heading', { file: input.fileName });
  return renderMail(
    k.content({
      subject: named ? t('file_infected_subject', { name: named }) : t('file_infected_subject_unnamed'),
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
            { label: t('file_infected_file_label'), value: input.fileName },
            { label: t('file_infected_signature_label'), value: input.signature.slice(0, 200) },
          ],
        },
        { kind: 'paragraph', text: t('file_infected_advice') },
        k.button(input.transferUrl, t('view_transfer')),
      ],
      why: t('file_infected_why'),
    }),
  );
}
