import { type PlanType, TransferOpenGraph, type TransferOpenGraphView } from '@ferry/core';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import { type DashboardAccess, editable } from './dashboard-access.js';
import { checkLinkPreviewAllowed, mayChooseLinkPreview } from './link-preview-rules.js';
import type { TransferRecord } from './ports.js';

/** What the link preview of a download page is drawn from: the few columns of one transfer and its owner. */
export interface LinkPreviewFacts {
  type: string;
  status: string;
  name: string | null;
  passwordProtected: boolean;
  expiresAt: Date;
  expiredAt: Date | null;
  fileCount: number;
  totalSize: number;
  ownerId: string | null;
  ownerSuspended: boolean;
  ogTitle: string | null;
  ogDescription: string | null;
}

export interface LinkPreviewRepository {
  facts(transferId: string): Promise<LinkPreviewFacts | null>;
  choose(transferId: string, title: string | null, description: string | null): Promise<void>;
}

/**
 * What a download page's link preview may say. `generic`: nothing of the transfer (unknown, not ready, expired,
 * deleted, disabled, retained, under review, its owner suspended, password-protected, sent by e-mail (S1: its
 * recipients' links carry secrets) or received (S3)). Otherwise its name, file count and size, the sender's own
 * title and description when they chose them, and their account's logo when it has one.
 */
export type LinkPreview =
  | { kind: 'generic' }
  | {
      kind: 'transfer';
      name: string | null;
      fileCount: number;
      totalSize: number;
      title: string | null;
      description: string | null;
      logoUrl: string | null;
    };

/** Statuses whose page shows the transfer (ready to download, or about to be: scanning, waiting to go out). */
const SHOWN = new Set(['ENABLED', 'SCANNING', 'PENDING']);

/**
 * Link previews of download pages (spec §3 open-graph customization): what crawlers read in the page's head, and
 * the owner's choice of title and description from the dashboard.
 */
export class LinkPreviewService {
  constructor(
    private readonly repo: LinkPreviewRepository,
    private readonly access: Pick<DashboardAccess, 'check'>,
    private readonly planOf: (userId: string) => Promise<PlanType | null>,
    /** The account's logo as an absolute https URL, or null (account logos are their own feature). */
    private readonly logoUrlOf: (ownerId: string) => Promise<string | null>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A download page's preview: never counted as a download or a preview, never logged. */
  async preview(transferId: string): Promise<LinkPreview> {
    const facts = await this.repo.facts(transferId);
    if (!facts || !this.shows(facts)) return { kind: 'generic' };
    return {
      kind: 'transfer',
      name: facts.name,
      fileCount: facts.fileCount,
      totalSize: facts.totalSize,
      title: facts.ogTitle,
      description: facts.ogDescription,
      logoUrl: facts.ownerId ? await this.logoUrlOf(facts.ownerId) : null,
    };
  }

  private shows(facts: LinkPreviewFacts): boolean {
    return (
      SHOWN.has(facts.status) &&
      facts.type === 'S2' &&
      !facts.passwordProtected &&
      !facts.ownerSuspended &&
      facts.expiredAt === null &&
      facts.expiresAt.getTime() > this.now().getTime()
    );
  }

  /** GET …/open-graph: whoever manages the transfer in the dashboard reads its choice. */
  async choice(auth: Authenticated | null, transferId: string): Promise<TransferOpenGraphView> {
    const { transfer, caller } = await this.access.check(auth, transferId);
    return this.view(transfer, caller.id);
  }

  /** PUT …/open-graph: the owner only, on a paid plan; an empty field goes back to the default. */
  async choose(
    auth: Authenticated | null,
    transferId: string,
    input: TransferOpenGraph,
  ): Promise<TransferOpenGraphView> {
    const chosen = TransferOpenGraph.parse(input);
    const { transfer, caller } = await this.access.check(auth, transferId);
    if (transfer.ownerId !== caller.id)
      throw new AppError('FORBIDDEN', "Only the transfer's owner can change its link preview.");
    editable(transfer);
    checkLinkPreviewAllowed(caller.id, (await this.planOf(caller.id)) ?? 'NONE');
    const title = chosen.title || null;
    const description = chosen.description || null;
    await this.repo.choose(transferId, title, description);
    return this.view({ ...transfer, ogTitle: title, ogDescription: description }, caller.id);
  }

  private async view(transfer: TransferRecord, callerId: string): Promise<TransferOpenGraphView> {
    const owner = transfer.ownerId === callerId;
    return {
      transferId: transfer.id,
      title: transfer.ogTitle ?? null,
      description: transfer.ogDescription ?? null,
      allowed: owner && mayChooseLinkPreview(callerId, (await this.planOf(callerId)) ?? 'NONE'),
      editable: owner,
    };
  }
}
