import {
  GB,
  InboxCreate,
  type InboxListResponse,
  InboxUpdate,
  type InboxView,
  isReservedReceiveAddress,
  PLAN_LIMITS,
  WidgetCreate,
  type WidgetListResponse,
  WidgetUpdate,
  type WidgetView,
} from '@ferry/core';
import type { UserRecord } from '../db/account.repository.js';
import type { InboxPatch, InboxRecord, PgReceiveRepository, WidgetRecord } from '../db/receive.repository.js';
import { newTransferId } from '../lib/ids.js';
import { AppError } from './app-error.js';
import type { Authenticated } from './auth.service.js';
import type { PasswordHasher } from './ports.js';
import {
  checkPointSettings,
  checkQuestions,
  effectiveExtensions,
  fieldsOf,
  normaliseExtensions,
  type ReceiveOwner,
  type ReceiveOwners,
  signedIn,
  storedTheme,
} from './receive-owner.js';

const notFound = () => new AppError('NOT_FOUND', 'No such inbox, or not yours.');

/**
 * Upload inboxes (permanent receive points with their own address /i/{slug}) and their embeddable widgets, for
 * their owner. Who may use which kind follows the owner's (team's) uploader settings (spec §3 allowInboxS1/S2).
 */
export class InboxService {
  constructor(
    private readonly repo: PgReceiveRepository,
    private readonly owners: ReceiveOwners,
    private readonly passwords: PasswordHasher,
  ) {}

  async list(auth: Authenticated | null, origin: string): Promise<InboxListResponse> {
    const owner = await this.owners.of(signedIn(auth));
    const inboxes = await this.repo.inboxesOf(owner.user.id);
    const counts = await this.repo.uploadCounts(
      'inbox_id',
      inboxes.map((i) => i.id),
    );
    const s = owner.settings;
    return {
      inboxUpload: {
        allowed: s.allowInboxS1 || s.allowInboxS2,
        allowInboxS1: s.allowInboxS1,
        allowInboxS2: s.allowInboxS2,
        receiveAllowedExtensions: normaliseExtensions(s.receiveAllowedExtensions),
        receivePasswordOpt: s.receivePasswordOpt,
        receiveRequirePassword: s.receiveRequirePassword,
        receiveAllowCustomization: s.receiveAllowCustomization,
      },
      items: inboxes.map((i) => this.view(i, owner, origin, counts.get(i.id) ?? 0)),
    };
  }

  async create(auth: Authenticated | null, input: InboxCreate, origin: string): Promise<InboxView> {
    const request = InboxCreate.parse(input);
    const owner = await this.owners.of(signedIn(auth));
    checkPointSettings(owner.settings, {
      linkMode: request.linkMode,
      password: request.password !== undefined,
      customization: request.customization !== undefined && Object.keys(request.customization).length > 0,
      uploadNotificationOff: request.uploadNotification === false,
      allowedExtensions: request.allowedExtensions,
      availability: request.fileValidityDays !== undefined,
    });
    checkQuestions(request.fields);
    this.checkLimits(owner, request.maxUploadBytes, request.fileValidityDays);
    refuseReservedSlug(request.slug);
    const created = await this.repo.createInbox({
      id: newTransferId(),
      ownerId: owner.user.id,
      slug: request.slug,
      title: request.title,
      description: request.description?.trim() || null,
      linkMode: request.linkMode,
      enabled: request.enabled,
      isDefault: request.isDefault === true,
      passwordHash: request.password ? await this.passwords.hash(request.password) : null,
      allowedExtensions: request.allowedExtensions ?? [],
      maxUploadBytes: request.maxUploadBytes ?? null,
      fileValidityDays: request.fileValidityDays ?? null,
      fields: request.fields ?? {},
      uploadNotification: request.uploadNotification,
      customization: storedTheme(request.customization),
    });
    if (!created)
      throw new AppError('CONFLICT', 'This address is taken: choose another.', {
        details: { field: 'slug' },
      });
    return this.view(created, owner, origin, 0);
  }

  async get(auth: Authenticated | null, inboxId: string, origin: string): Promise<InboxView> {
    const { inbox, owner } = await this.own(auth, inboxId);
    return this.view(inbox, owner, origin, await this.count(inbox.id));
  }

  async update(
    auth: Authenticated | null,
    inboxId: string,
    input: InboxUpdate,
    origin: string,
  ): Promise<InboxView> {
    const patch = InboxUpdate.parse(input);
    const { inbox, owner } = await this.own(auth, inboxId);
    checkPointSettings(owner.settings, {
      linkMode:
        patch.linkMode !== undefined && patch.linkMode !== inbox.linkMode ? patch.linkMode : undefined,
      password: patch.password === undefined ? undefined : patch.password !== null,
      customization: patch.customization !== undefined && Object.keys(patch.customization).length > 0,
      uploadNotificationOff: patch.uploadNotification === false,
      allowedExtensions: patch.allowedExtensions,
      // Back to the default (null) is always allowed.
      availability: patch.fileValidityDays !== undefined && patch.fileValidityDays !== null,
    });
    // Switching an inbox on again needs its kind to be allowed (a manager may have turned it off since).
    if (patch.enabled === true && !inbox.enabled)
      checkPointSettings(owner.settings, { linkMode: patch.linkMode ?? inbox.linkMode });
    checkQuestions(patch.fields);
    this.checkLimits(owner, patch.maxUploadBytes ?? undefined, patch.fileValidityDays ?? undefined);
    // An inbox that has a now reserved slug keeps it; it cannot be given one.
    if (patch.slug !== undefined && patch.slug !== inbox.slug) refuseReservedSlug(patch.slug);
    const changes: InboxPatch = {
      slug: patch.slug,
      title: patch.title,
      description: patch.description === undefined ? undefined : patch.description?.trim() || null,
      linkMode: patch.linkMode,
      enabled: patch.enabled,
      passwordHash:
        patch.password === undefined
          ? undefined
          : patch.password === null
            ? null
            : await this.passwords.hash(patch.password),
      allowedExtensions: patch.allowedExtensions,
      maxUploadBytes: patch.maxUploadBytes,
      fileValidityDays: patch.fileValidityDays,
      fields: patch.fields,
      uploadNotification: patch.uploadNotification,
      customization: patch.customization ? storedTheme(patch.customization, inbox.customization) : undefined,
    };
    if (!(await this.repo.updateInbox(inbox.id, changes)))
      throw new AppError('CONFLICT', 'This address is taken: choose another.', {
        details: { field: 'slug' },
      });
    if (patch.isDefault) await this.repo.makeDefault(owner.user.id, inbox.id);
    return this.view((await this.repo.inbox(inbox.id))!, owner, origin, await this.count(inbox.id));
  }

  async remove(auth: Authenticated | null, inboxId: string): Promise<void> {
    const { inbox } = await this.own(auth, inboxId);
    await this.repo.deleteInbox(inbox);
  }

  // --- widgets -------------------------------------------------------------------------------------------

  async widgets(auth: Authenticated | null, inboxId: string, origin: string): Promise<WidgetListResponse> {
    const { inbox } = await this.own(auth, inboxId);
    return { items: (await this.repo.widgetsOf(inbox.id)).map((w) => widgetView(w, inbox, origin)) };
  }

  async createWidget(
    auth: Authenticated | null,
    inboxId: string,
    input: WidgetCreate,
    origin: string,
  ): Promise<WidgetView> {
    const request = WidgetCreate.parse(input);
    const { inbox, owner } = await this.own(auth, inboxId);
    if (request.theme && Object.keys(request.theme).length > 0)
      checkPointSettings(owner.settings, { customization: true });
    checkQuestions(request.fields);
    const widget = await this.repo.createWidget({
      id: newTransferId(),
      inboxId: inbox.id,
      name: request.name?.trim() || null,
      theme: storedTheme(request.theme),
      fields: request.fields ?? {},
    });
    return widgetView(widget, inbox, origin);
  }

  async getWidget(auth: Authenticated | null, widgetId: string, origin: string): Promise<WidgetView> {
    const { widget, inbox } = await this.ownWidget(auth, widgetId);
    return widgetView(widget, inbox, origin);
  }

  async updateWidget(
    auth: Authenticated | null,
    widgetId: string,
    input: WidgetUpdate,
    origin: string,
  ): Promise<WidgetView> {
    const patch = WidgetUpdate.parse(input);
    const { widget, inbox, owner } = await this.ownWidget(auth, widgetId);
    if (patch.theme && Object.keys(patch.theme).length > 0)
      checkPointSettings(owner.settings, { customization: true });
    checkQuestions(patch.fields);
    await this.repo.updateWidget(widget.id, {
      name: patch.name === undefined ? undefined : patch.name?.trim() || null,
      theme: patch.theme ? storedTheme(patch.theme, widget.theme) : undefined,
      fields: patch.fields,
    });
    return widgetView((await this.repo.widget(widget.id))!, inbox, origin);
  }

  async removeWidget(auth: Authenticated | null, widgetId: string): Promise<void> {
    const { widget } = await this.ownWidget(auth, widgetId);
    await this.repo.deleteWidget(widget.id);
  }

  // --- helpers -------------------------------------------------------------------------------------------

  /** The inbox, if the caller owns it; anyone else learns nothing, not even that it exists. */
  private async own(
    auth: Authenticated | null,
    inboxId: string,
  ): Promise<{ inbox: InboxRecord; owner: ReceiveOwner; caller: UserRecord }> {
    const caller = signedIn(auth);
    const inbox = await this.repo.inbox(inboxId);
    if (!inbox || inbox.ownerId !== caller.id) throw notFound();
    return { inbox, owner: await this.owners.of(caller), caller };
  }

  private async ownWidget(auth: Authenticated | null, widgetId: string) {
    const caller = signedIn(auth);
    const widget = await this.repo.widget(widgetId);
    const inbox = widget && (await this.repo.inbox(widget.inboxId));
    if (!widget || !inbox || inbox.ownerId !== caller.id)
      throw new AppError('NOT_FOUND', 'No such widget, or not yours.');
    return { widget, inbox, owner: await this.owners.of(caller) };
  }

  private checkLimits(owner: ReceiveOwner, maxUploadBytes?: number, fileValidityDays?: number): void {
    const plan = PLAN_LIMITS[owner.team.plan];
    const broken = [];
    if (maxUploadBytes !== undefined && maxUploadBytes > plan.uploadSizeGB * GB)
      broken.push({ limit: 'uploadSize' as const, max: plan.uploadSizeGB * GB, actual: maxUploadBytes });
    const validity = owner.team.forcedFileValidityInDays ?? plan.fileValidityInDays;
    if (fileValidityDays !== undefined && fileValidityDays > validity)
      broken.push({ limit: 'fileValidityInDays' as const, max: validity, actual: fileValidityDays });
    if (broken.length > 0)
      throw new AppError('LIMIT_EXCEEDED', 'More than your plan allows.', { limitErrors: broken });
  }

  private async count(inboxId: string): Promise<number> {
    return (await this.repo.uploadCounts('inbox_id', [inboxId])).get(inboxId) ?? 0;
  }

  private view(inbox: InboxRecord, owner: ReceiveOwner, origin: string, uploadCount: number): InboxView {
    return {
      inboxId: inbox.id,
      kind: 'inbox',
      slug: inbox.slug,
      link: `${origin}/i/${inbox.slug}`,
      title: inbox.title,
      description: inbox.description,
      linkMode: inbox.linkMode,
      enabled: inbox.enabled,
      isDefault: inbox.isDefault,
      passwordProtected: inbox.passwordHash !== null,
      allowedExtensions: inbox.allowedExtensions,
      effectiveAllowedExtensions: effectiveExtensions(inbox.allowedExtensions, owner.settings),
      maxUploadBytes: inbox.maxUploadBytes,
      fileValidityDays: inbox.fileValidityDays,
      fields: fieldsOf(inbox.fields, inbox.linkMode),
      uploadNotification: inbox.uploadNotification,
      customization: storedTheme(undefined, inbox.customization),
      uploadCount,
      createdAt: inbox.createdAt.toISOString(),
    };
  }
}

/** A widget for its owner, with the snippet to paste. */
export function widgetView(widget: WidgetRecord, inbox: InboxRecord, origin: string): WidgetView {
  const url = `${origin}/widgets/${widget.id}`;
  return {
    widgetId: widget.id,
    inboxId: inbox.id,
    name: widget.name,
    theme: storedTheme(undefined, widget.theme),
    fields: fieldsOf(widget.fields, inbox.linkMode),
    url,
    snippet: `<script src="${origin}/widget.js" data-ferry-widget="${widget.id}" async></script>`,
    iframe: `<iframe src="${url}" title="Upload files" width="100%" height="560" style="border:0;max-width:480px" allow="clipboard-write"></iframe>`,
    createdAt: widget.createdAt.toISOString(),
  };
}

function refuseReservedSlug(slug: string): void {
  if (isReservedReceiveAddress(slug))
    throw new AppError('CONFLICT', 'This address is reserved: choose another.', {
      details: { field: 'slug', reason: 'reserved' },
    });
}
