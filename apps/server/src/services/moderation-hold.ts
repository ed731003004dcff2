import type { PgModerationRepository } from '../db/moderation.repository.js';
import type { OperatorAccess } from './operator-access.js';
import type { TransferFileRecord, TransferRecord } from './ports.js';
import type { HeldStatus, TransferHold } from './transfer-holds.js';

/** The automatic hold rule: more S1 recipients than this from one sender address or client within the window. */
export interface AutomaticHoldRule {
  /** 0: off. */
  s1Recipients: number;
  windowMinutes: number;
}

/**
 * Moderation's TransferHold: a transfer under review (a moderation_holds row) is MODERATING, whenever asked.
 * At `uploaded`, before an anonymous S1 transfer is first delivered, the automatic rule counts what its sender's
 * address and its client address sent to within the window (this transfer included): past the threshold it is
 * held for an operator. Automatic holds apply only when OPERATOR_EMAILS names someone who can release them.
 */
export class ModerationHold implements TransferHold {
  constructor(
    private readonly repo: Pick<PgModerationRepository, 'hold' | 'recordSend' | 'recordRuleHold'>,
    private readonly operators: Pick<OperatorAccess, 'configured'>,
    private readonly rule: AutomaticHoldRule,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async statusFor(
    transfer: TransferRecord,
    _files: TransferFileRecord[],
    phase: 'uploaded' | 'recheck',
  ): Promise<HeldStatus | null> {
    if (await this.repo.hold(transfer.id)) return 'MODERATING';
    if (phase !== 'uploaded' || transfer.ownerId !== null || transfer.type !== 'S1') return null;
    if (this.rule.s1Recipients <= 0 || !this.operators.configured) return null;
    const since = new Date(this.now().getTime() - this.rule.windowMinutes * 60_000);
    // The creating client's address is still on the row at this phase (cleared when it leaves UPLOADING).
    const counts = await this.repo.recordSend(
      { transferId: transfer.id, senderEmail: transfer.senderEmail, clientIp: transfer.clientIp ?? null },
      since,
    );
    if (counts.bySender <= this.rule.s1Recipients && counts.byClient <= this.rule.s1Recipients) return null;
    await this.repo.recordRuleHold({
      transferId: transfer.id,
      source: 'rule',
      heldBy: 'system',
      details: {
        rule: 's1-recipients',
        threshold: this.rule.s1Recipients,
        windowMinutes: this.rule.windowMinutes,
        recipients: counts.recipients,
        bySender: counts.bySender,
        byClient: counts.byClient,
      },
    });
    return 'MODERATING';
  }
}
