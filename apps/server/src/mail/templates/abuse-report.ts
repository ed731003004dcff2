import type { ReportReason } from '@ferry/core';
import { type MailContext, mailKit } from './common.js';
import { type RenderedMail, renderMail } from './layout.js';

export interface AbuseReportInput {
  /** The transfer's name, or its id when it has none. */
  transferName: string;
  reason: ReportReason;
  /** The report put the transfer under review by itself (MODERATION_REPORTS_TO_HOLD). */
  held: boolean;
  /** The console's moderation queue, opened on this transfer. */
  queueUrl: string;
}

/**
 * To the operators (OPERATOR_EMAILS): a transfer was reported. The reporter's own words stay in the console: a
 * mail would carry whatever links they pasted.
 */
export async function abuseReport(ctx: MailContext, input: AbuseReportInput): Promise<RenderedMail> {
  const k = mailKit(ctx);
  const { t } = k;
  const reason = t(`abuse_reason_${input.reason === 'other' ? 'else' : input.reason}`);
  const intro = t('abuse_report_intro', { name: input.transferName, product: k.product, reason });
  return renderMail(
    k.content({
      subject: t('abuse_report_subject', { reason }),
      preview: intro,
      heading: t('abuse_report_heading'),
      blocks: [
        { kind: 'paragraph', text: intro },
        ...(input.held ? [{ kind: 'paragraph' as const, text: t('abuse_report_held') }] : []),
        k.button(input.queueUrl, t('abuse_report_open')),
      ],
      why: t('abuse_report_why', { product: k.product }),
    }),
  );
}
