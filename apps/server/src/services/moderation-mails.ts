import type { ReportReason } from '@ferry/core';
import { abuseReport } from '../mail/templates/index.js';
import type { ReportListener } from './moderation.service.js';
import type { MailQueue } from './notification.service.js';
import type { TransferRepository } from './ports.js';

/**
 * Mails the operators (OPERATOR_EMAILS) about reports: at most one mail a transfer an hour, however many reports
 * come, and one more when the reports put it under review. The queue link opens the case in the console.
 */
export class ReportMails implements ReportListener {
  constructor(
    private readonly mail: MailQueue,
    private readonly operatorEmails: readonly string[],
    private readonly transfers: Pick<TransferRepository, 'find'>,
    private readonly settings: { productName: string; publicOrigin: () => string },
    private readonly now: () => Date = () => new Date(),
  ) {}

  async reported(transferId: string, reason: ReportReason, held: boolean): Promise<void> {
    if (this.operatorEmails.length === 0) return;
    const transfer = await this.transfers.find(transferId);
    const rendered = await abuseReport(
      { productName: this.settings.productName },
      {
        transferName: transfer?.name?.trim() || transferId,
        reason,
        held,
        queueUrl: `${this.settings.publicOrigin()}/operator?tab=moderation&case=${transferId}`,
      },
    );
    const hour = Math.floor(this.now().getTime() / 3_600_000);
    await this.mail.enqueue({
      to: [...this.operatorEmails],
      subject: rendered.subject,
      html: rendered.html,
      text: rendered.text,
      idempotencyKey: `abuse-${transferId}-${hour}${held ? '-held' : ''}`,
    });
  }
}
