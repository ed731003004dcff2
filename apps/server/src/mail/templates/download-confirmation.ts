import { type MailContext, mailKit } from './common.js';
import type { MailFile } from './format.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface DownloadConfirmationInput {
  transferName: string | null;
  /** Number of files in the whole transfer, to name an untitled one. */
  transferFileCount: number;
  /** The e-mail the downloader gave, when the transfer asked for one. */
  downloaderEmail: string | null;
  /** What was downloaded: one file, or every file of a ZIP. */
  files: readonly MailFile[];
  downloadedAt: Date;
  /** The sender's view of the transfer. */
  transferUrl: string;
  unsubscribeUrl?: string;
}

/** To the sender: who downloaded which files, and when (spec §3 notificationSettings.downloadConfirmation). */
export async function downloadConfirmation(
  ctx: MailContext,
  input: DownloadConfirmationInput,
): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const name = k.transferName(input.transferName, input.transferFileCount);
  const downloader = input.downloaderEmail?.trim() || null;
  const count = input.files.length;
  const size = input.files.reduce((sum, f) => sum + f.size, 0);
  const heading = downloader
    ? t('download_confirmation_heading', { downloader, count })
    : t('download_confirmation_heading_anonymous', { count });
  const named = input.transferName?.trim();
  const subject = () => {
    if (named)
      return downloader
        ? t('download_confirmation_subject', { downloader, name: named })
        : t('download_confirmation_subject_anonymous', { name: named });
    return downloader
      ? t('download_confirmation_subject_unnamed', { downloader })
      : t('download_confirmation_subject_unnamed_anonymous');
  };
  return renderMail(
    k.content({
      subject: subject(),
      preview: heading,
      heading,
      blocks: [
        {
          kind: 'facts',
          rows: [
            { label: t('transfer_label'), value: name },
            ...(downloader ? [{ label: t('downloaded_by_label'), value: downloader }] : []),
            { label: t('downloaded_on_label'), value: k.dateTime(input.downloadedAt) },
          ],
        },
        k.filesBlock(input.files, size),
        k.button(input.transferUrl, t('view_transfer')),
      ],
      why: t('download_confirmation_why'),
      unsubscribe: input.unsubscribeUrl ? { label: t('unsubscribe'), url: input.unsubscribeUrl } : undefined,
    }),
  );
}
