import {
  GB,
  PLAN_LIMITS,
  type ReceiveLinkMode,
  type ReceivePointPublic,
  type ReceiveTarget,
  type ReceiveTheme,
  type UploaderFields,
} from '@ferry/core';
import type { PgAccountRepository } from '../db/account.repository.js';
import type {
  InboxRecord,
  PgReceiveRepository,
  RequestRecipientRecord,
  RequestRecord,
  WidgetRecord,
} from '../db/receive.repository.js';
import { sha256Hex } from '../security/secrets.js';
import { AppError } from './app-error.js';
import {
  effectiveExtensions,
  fieldsOf,
  filledTheme,
  linkModeSetting,
  type ReceiveOwner,
  type ReceiveOwners,
  storedTheme,
} from './receive-owner.js';

/** A receive point an upload goes to, with everything the rules need (never sent as is: secrets inside). */
/** An owner's account or team theme as their receive pages show it (CustomizationService.receiveThemeOf). */
export interface OwnerReceiveBrand {
  colors: ReceiveTheme;
  /** The theme's logo, a path on this server; null: none. */
  logoURL: string | null;
}

export interface ResolvedPoint {
  kind: 'request' | 'inbox';
  request: RequestRecord | null;
  inbox: InboxRecord | null;
  widget: WidgetRecord | null;
  viaPush: boolean;
  /** S1 request opened through a personal link. */
  recipient: RequestRecipientRecord | null;
  owner: ReceiveOwner;
  linkMode: ReceiveLinkMode;
  passwordHash: string | null;
  /** Key of the point for rate limits. */
  key: string;
  title: string | null;
  message: string | null;
  ownerName: string | null;
  fields: UploaderFields;
  allowedExtensions: string[];
  maxUploadBytes: number;
  maxFiles: number;
  uploadNotification: boolean;
}

/** The hash kept of an asked person's personal upload link secret. */
export const requestSecretHash = (secret: string) => sha256Hex(`receive:${secret}`);

const notFound = () => new AppError('NOT_FOUND', 'No such request or inbox.');

/** Finds the receive point of a public address and says whether it accepts uploads now. */
export class ReceivePoints {
  constructor(
    private readonly repo: PgReceiveRepository,
    private readonly accounts: PgAccountRepository,
    private readonly owners: ReceiveOwners,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async resolve(target: ReceiveTarget): Promise<ResolvedPoint> {
    switch (target.kind) {
      case 'request':
        return this.request(target.requestId, target.userSecret);
      case 'inbox': {
        const inbox = await this.repo.inboxBySlug(target.slug);
        if (!inbox) throw notFound();
        return this.inbox(inbox, null, false);
      }
      case 'widget': {
        const widget = await this.repo.widget(target.widgetId);
        const inbox = widget && (await this.repo.inbox(widget.inboxId));
        if (!widget || !inbox) throw new AppError('NOT_FOUND', 'No such widget.');
        return this.inbox(inbox, widget, false);
      }
      case 'push':
        return this.push(target.to);
    }
  }

  /**
   * What the upload page shows (no secrets). Its colours: the widget's, then the request's or inbox's own, then
   * the owner's account or team theme (`ownerTheme`), then the defaults.
   */
  publicView(point: ResolvedPoint, owner: OwnerReceiveBrand | null = null): ReceivePointPublic {
    const own = point.request
      ? storedTheme(undefined, point.request.customization)
      : point.widget
        ? mergeThemes(
            storedTheme(undefined, point.widget.theme),
            storedTheme(undefined, point.inbox!.customization),
          )
        : storedTheme(undefined, point.inbox!.customization);
    const theme = owner ? mergeThemes(own, owner.colors) : own;
    return {
      kind: point.kind,
      id: point.request ? point.request.id : point.inbox!.slug,
      widgetId: point.widget?.id ?? null,
      linkMode: point.linkMode,
      title: point.title,
      message: point.message,
      ownerName: point.ownerName,
      passwordProtected: point.passwordHash !== null,
      allowedExtensions: point.allowedExtensions,
      maxUploadBytes: point.maxUploadBytes,
      maxFiles: point.maxFiles,
      expiresAt: point.request ? point.request.expiresAt.toISOString() : null,
      fields: point.fields,
      theme: filledTheme(theme),
      logoURL: owner?.logoURL ?? null,
      recipientEmail: point.recipient?.email ?? null,
    };
  }

  private async request(requestId: string, userSecret: string | undefined): Promise<ResolvedPoint> {
    const request = await this.repo.request(requestId);
    if (!request) throw notFound();
    const recipient = userSecret
      ? await this.repo.recipientBySecretHash(request.id, requestSecretHash(userSecret))
      : null;
    if (userSecret && !recipient) throw notFound();
    // A request sent by e-mail (S1) takes uploads from the people asked only, each through their own link.
    if (request.linkMode === 'S1' && !recipient) throw notFound();
    const owner = await this.owners.byId(request.ownerId);
    if (!owner) throw notFound();
    refuseSuspended(owner);
    if (request.closedAt || !owner.settings[linkModeSetting(request.linkMode)])
      throw new AppError('RECEIVE_CLOSED', 'This request is closed.');
    if (request.expiresAt.getTime() <= this.now().getTime())
      throw new AppError('RECEIVE_EXPIRED', 'This request has expired.');
    const plan = PLAN_LIMITS[owner.team.plan];
    const fields = fieldsOf({}, request.linkMode);
    return {
      kind: 'request',
      request,
      inbox: null,
      widget: null,
      viaPush: false,
      recipient,
      owner,
      linkMode: request.linkMode,
      passwordHash: request.passwordHash,
      key: `r:${request.id}`,
      title: request.subject,
      message: request.message,
      ownerName: request.senderName ?? request.senderEmail,
      // Asked through a personal link: the address is known, nobody types it.
      fields: recipient ? { ...fields, email: 'hidden' } : fields,
      allowedExtensions: effectiveExtensions(request.allowedExtensions, owner.settings),
      maxUploadBytes: plan.uploadSizeGB * GB,
      maxFiles: plan.files,
      uploadNotification: request.uploadNotification,
    };
  }

  private async inbox(
    inbox: InboxRecord,
    widget: WidgetRecord | null,
    viaPush: boolean,
  ): Promise<ResolvedPoint> {
    const owner = await this.owners.byId(inbox.ownerId);
    if (!owner) throw notFound();
    refuseSuspended(owner);
    if (!inbox.enabled || !owner.settings[linkModeSetting(inbox.linkMode)])
      throw new AppError('RECEIVE_CLOSED', 'This inbox is closed.');
    const plan = PLAN_LIMITS[owner.team.plan];
    const planMax = plan.uploadSizeGB * GB;
    return {
      kind: 'inbox',
      request: null,
      inbox,
      widget,
      viaPush,
      recipient: null,
      owner,
      linkMode: inbox.linkMode,
      passwordHash: inbox.passwordHash,
      key: `i:${inbox.id}`,
      title: inbox.title,
      message: inbox.description,
      // An inbox's title says who it is for; the owner's own name and address stay private.
      ownerName: null,
      fields: fieldsOf(widget ? widget.fields : inbox.fields, inbox.linkMode),
      allowedExtensions: effectiveExtensions(inbox.allowedExtensions, owner.settings),
      maxUploadBytes: Math.min(inbox.maxUploadBytes ?? planMax, planMax),
      maxFiles: plan.files,
      uploadNotification: inbox.uploadNotification,
    };
  }

  /**
   * /push: an account's e-mail (its default inbox) or an inbox slug. An address that is no (verified) account's
   * and an account without an enabled default inbox get the same 404, so account existence does not leak.
   */
  private async push(to: string): Promise<ResolvedPoint> {
    if (!to.includes('@')) {
      const inbox = await this.repo.inboxBySlug(to.trim());
      if (!inbox) throw notFound();
      return this.inbox(inbox, null, true);
    }
    const user = await this.accounts.userByEmail(to.trim());
    const inbox = user?.emailVerifiedAt ? await this.repo.defaultInboxOf(user.id) : null;
    if (!inbox?.enabled) throw notFound();
    try {
      return await this.inbox(inbox, null, true);
    } catch (error) {
      if (error instanceof AppError && error.code === 'RECEIVE_CLOSED') throw notFound();
      throw error;
    }
  }
}

/** A widget's own colours first, then its inbox's. */
function mergeThemes<T extends Record<string, string | null>>(first: T, second: T): T {
  const out = { ...second };
  for (const [k, v] of Object.entries(first)) if (v !== null) (out as Record<string, string | null>)[k] = v;
  return out;
}

/** A suspended account's requests, inboxes and widgets take nothing until the suspension is lifted. */
function refuseSuspended(owner: ReceiveOwner): void {
  if (owner.user.suspendedAt)
    throw new AppError(
      'ACCOUNT_SUSPENDED',
      'The account this goes to is suspended: uploads are refused for now.',
    );
}
